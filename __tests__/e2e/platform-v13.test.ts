/**
 * End to end, on the built bundle against the simulator: the platform as it is sold today
 * (INTERFACE v1.3): both pricing families of `deployment-type`, the GitHub integration found
 * when `integration-id` is empty, `resource-spec` merged with the live one on update.
 */
import { describe, expect, it } from '@jest/globals';
import { runAction } from '../../scripts/run-action.js';
import { useSimulator } from '../helpers/simulator.js';
import {
  baseInputs,
  byRoute,
  expectExit,
  mark,
  REVISIONS_PATH,
  SHORT_TIMELINE,
  uniqueName,
} from './deploy-support.js';

const sim = useSimulator({ timeline: SHORT_TIMELINE });

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
