/**
 * `pinImage` (`source: internal_docker`, before the revision): the registry check, the
 * platform check, and the tag pinned to its digest, against the simulator's registry.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { ControlPlane } from '../../src/api/client.js';
import type { Deployment } from '../../src/api/schemas.js';
import { pinImage } from '../../src/deployment/image.js';
import { Deadline } from '../../src/lib/time.js';
import { DEFAULT_TENANT_ID, startSimulator, type Simulator } from '../../simulator/index.js';
import { FakeClock, recordingLogger } from '../helpers/fakes.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

function setup() {
  const clock = new FakeClock();
  const logger = recordingLogger();
  const found = { id: 'dep-1', name: 'my-agent' } as Deployment;
  const client = {
    requestPushToken: async () => sim.registry.issue(DEFAULT_TENANT_ID, Date.now()),
  } as unknown as ControlPlane;
  const http = { clock, deadline: new Deadline(clock, clock.now() + 60 * 1000), logger };
  const repository = `${sim.registry.registryUrl(DEFAULT_TENANT_ID)}/my-agent`;
  return { ctx: { client, http, logger }, found, logger, repository };
}

describe('pinImage', () => {
  it('pins a tag to the digest the registry has for it, with a notice', async () => {
    const { ctx, found, logger, repository } = setup();
    const { digest } = sim.registry.pushImage(repository, 'v1');
    expect(await pinImage(ctx, found, `${repository}:v1`)).toBe(`${repository}@${digest}`);
    expect(logger.messages('notice')).toEqual([
      expect.stringContaining(`${repository}:v1 resolved to ${digest}`),
    ]);
  });

  it('keeps a digest as it is, without a notice, once the registry has shown it', async () => {
    const { ctx, found, logger, repository } = setup();
    const { digest } = sim.registry.pushImage(repository, 'v1');
    expect(await pinImage(ctx, found, `${repository}@${digest}`)).toBe(`${repository}@${digest}`);
    expect(logger.messages('notice')).toEqual([]);
    await expect(pinImage(ctx, found, `${repository}@sha256:${'0'.repeat(64)}`)).rejects.toThrow(
      /is not in the registry/,
    );
  });

  it('refuses another registry without reading it, and an image without linux/amd64', async () => {
    const { ctx, found, repository } = setup();
    await expect(pinImage(ctx, found, 'ghcr.io/acme/my-agent:v1')).rejects.toThrow(
      /not in the registry of deployment 'my-agent'/,
    );
    // A sibling path that only starts with the registry path is not under it either.
    await expect(
      pinImage(ctx, found, `${repository.replace(/\/my-agent$/, '')}x/my-agent:v1`),
    ).rejects.toThrow(/not in the registry of deployment/);
    expect(sim.registry.requests).toEqual([]);
    sim.registry.pushImage(repository, 'arm', { platforms: ['linux/arm64', 'linux/arm64'] });
    await expect(pinImage(ctx, found, `${repository}:arm`)).rejects.toThrow(
      /has no linux\/amd64 image \(it has linux\/arm64\).*platforms: linux\/amd64/,
    );
    // An index of many platforms (a hostile registry's) is named in a few, not all of them.
    const many = Array.from({ length: 500 }, (_, i) => `linux/arch${i}` as const);
    sim.registry.pushImage(repository, 'many', { platforms: many });
    const error = await pinImage(ctx, found, `${repository}:many`).catch((e: Error) => e);
    expect((error as Error).message).toMatch(/it has linux\/arch0, .*…\)/);
    expect((error as Error).message.length).toBeLessThan(1500);
  });
});
