/**
 * End to end, on the built bundle against the simulator: the platform as it is sold today
 * (INTERFACE v1.3): both pricing families of `deployment-type`, the GitHub integration found
 * when `integration-id` is empty, `resource-spec` merged with the live one on update; and one
 * revision per run when the answer of its request comes late.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { runAction } from '../../scripts/run-action.js';
import { useSimulator } from '../helpers/simulator.js';
import { startSimulator, type Simulator } from '../../simulator/index.js';
import {
  baseInputs,
  byRoute,
  errors,
  expectExit,
  mark,
  REPO_URL,
  REVISIONS_PATH,
  SHORT_TIMELINE,
  uniqueName,
} from './deploy-support.js';

const sim = useSimulator({ timeline: SHORT_TIMELINE });
const OURS = '0a1b2c3d-0000-4000-8000-00000000a11c';
const THEIRS = '0a1b2c3d-0000-4000-8000-00000000b0b0';

describe('integration-id left empty on create', () => {
  it('creates through the integration whose repositories hold this repository, with a notice naming it', async () => {
    sim.setGithubIntegrations([
      { id: THEIRS, name: 'umbrella', repos: ['umbrella/agent'] },
      { id: OURS, name: 'acme', repos: ['acme/web', 'Acme/Agent'] },
    ]);
    const name = uniqueName('found');
    const log = mark(sim);
    const result = await runAction({ inputs: baseInputs(sim, { name }) });
    expectExit(result, 0);
    const [create] = byRoute(log.since(), 'POST', '/v2/deployments');
    expect(create?.body).toMatchObject({ source_config: { integration_id: OURS } });
    expect(result.annotations).toContainEqual(
      expect.objectContaining({
        kind: 'notice',
        message: expect.stringContaining(`GitHub integration ${OURS} (account acme)`),
      }),
    );
  });

  it('none holds it: fails before any create, saying to install the GitHub app and naming integration-id', async () => {
    sim.setGithubIntegrations([{ id: THEIRS, name: 'umbrella', repos: ['umbrella/agent'] }]);
    const log = mark(sim);
    const result = await runAction({ inputs: baseInputs(sim, { name: uniqueName('none') }) });
    expectExit(result, 1);
    expect(byRoute(log.since(), 'POST', '/v2/deployments')).toEqual([]);
    const [error] = errors(result);
    expect(error?.props).toContain('title=No GitHub integration for this repository');
    expect(error?.message).toMatch(/install LangSmith's GitHub app on acme\/agent/);
    expect(error?.message).toContain('`integration-id`');
  });
});

describe('deployment-type', () => {
  let strict: Simulator;
  afterAll(() => strict?.close());

  it('is serverless by default; a refusal of the type names the other family and the input', async () => {
    const log = mark(sim);
    const name = uniqueName('type');
    sim.setGithubIntegrations([{ id: OURS, name: 'acme', repos: ['acme/agent'] }]);
    expectExit(await runAction({ inputs: baseInputs(sim, { name }) }), 0);
    const [create] = byRoute(log.since(), 'POST', '/v2/deployments');
    expect(create?.body).toMatchObject({ source_config: { deployment_type: 'serverless' } });

    strict = await startSimulator({ timeline: SHORT_TIMELINE, refuseDeploymentTypes: 'previous' });
    strict.setGithubIntegrations([{ id: OURS, name: 'acme', repos: ['acme/agent'] }]);
    const inputs = baseInputs(strict, { name, 'deployment-type': 'dev' });
    const refused = await runAction({ inputs });
    expectExit(refused, 1);
    const [error] = errors(refused);
    expect(error?.props).toContain('title=Deployment type refused');
    expect(error?.message).toMatch(/`deployment-type: dev`, a type of the previous pricing/);
    expect(error?.message).toMatch(
      /set `deployment-type: serverless` \(the default\) or `dedicated`/,
    );
  });
});

describe('resource-spec on update', () => {
  it('is merged with the live one: the keys given replace theirs, the others are kept, the log names the changed ones', async () => {
    const name = uniqueName('spec');
    const run = (spec: object) =>
      runAction({
        inputs: baseInputs(sim, {
          name,
          source: 'external_docker',
          'image-uri': 'registry.example.com/agent:1',
          'resource-spec': JSON.stringify(spec),
        }),
      });
    expectExit(await run({ cpu: 1, memory_mb: 1024, max_scale: 3 }), 0);
    const log = mark(sim);
    const update = await run({ cpu: 2 });
    expectExit(update, 0);
    const [request] = byRoute(log.since(), 'POST', REVISIONS_PATH);
    expect(request?.body).toMatchObject({
      source_config: { resource_spec: { cpu: 2, memory_mb: 1024, max_scale: 3 } },
    });
    const live = sim.deployments().find((d) => d.name === name)!;
    expect(live.source_config.resource_spec).toEqual({ cpu: 2, memory_mb: 1024, max_scale: 3 });
    expect(update.stdout).toMatch(
      /^resource-spec: merged with the live resource spec of '.*': changes cpu; keeps memory_mb, max_scale/m,
    );
  });
});

describe('a lost answer never makes a second revision', () => {
  it('a revision request answered 504 at once and applied 1.5 s later: exactly one revision, the one reported', async () => {
    const name = uniqueName('late');
    const seeded = sim.seedDeployment({ name, repoUrl: REPO_URL });
    sim.inject({
      kind: 'status-then-commit',
      status: 504,
      afterMs: 1500,
      method: 'POST',
      path: REVISIONS_PATH,
    });
    const log = mark(sim);
    const result = await runAction({ inputs: baseInputs(sim, { name }) });
    expectExit(result, 0);
    expect(byRoute(log.since(), 'POST', REVISIONS_PATH).map((r) => r.status)).toEqual([504]);
    const [newest, ...older] = sim.revisions(seeded.id);
    expect(older).toHaveLength(1); // the seeded one: this run made exactly one
    expect(result.outputs['revision-id']).toBe(newest!.id);
    expect(result.outputs['status']).toBe('DEPLOYED');
    expect(result.stdout).toMatch(/looking for the revision it may have made/);
  });
});
