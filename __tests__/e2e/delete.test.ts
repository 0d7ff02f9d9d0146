/**
 * End to end: `command: delete` (INTERFACE.md "Delete", and "`command: delete` validates only
 * what it uses").
 */
import { describe, expect, it } from '@jest/globals';
import { runAction } from '../../scripts/run-action.js';
import { startSimulator, type Simulator } from '../../simulator/index.js';
import { useSimulator } from '../helpers/simulator.js';
import {
  baseInputs,
  byRoute,
  DEPLOYMENT_PATH,
  errors,
  expectExit,
  idOf,
  mark,
  REPO_URL,
  SHORT_TIMELINE,
  uniqueName,
} from './deploy-support.js';

const sim = useSimulator({ timeline: SHORT_TIMELINE });

function deleteInputs(target: Simulator, extra: Record<string, string>) {
  return baseInputs(target, { command: 'delete', ...extra });
}

describe('delete', () => {
  it('found by name: DELETE once with delete_tracing_project=false, status DELETED', async () => {
    const name = uniqueName('del');
    // A near-name neighbour listed first must survive.
    const neighbour = sim.seedDeployment({ name: `${name}-2`, repoUrl: REPO_URL });
    const seeded = sim.seedDeployment({ name, repoUrl: REPO_URL });
    const log = mark(sim);
    const result = await runAction({ inputs: deleteInputs(sim, { name }) });
    expectExit(result, 0);
    const deletes = byRoute(log.since(), 'DELETE', DEPLOYMENT_PATH);
    expect(deletes.map((d) => [d.path, d.query])).toEqual([
      [`/v2/deployments/${seeded.id}`, { delete_tracing_project: 'false' }],
    ]);
    expect(result.outputs).toMatchObject({
      status: 'DELETED',
      'deployment-id': seeded.id,
      name,
    });
    expect(idOf(sim, name)).toBeUndefined();
    expect(idOf(sim, neighbour.name)).toBe(neighbour.id);
    expect(result.summary).toContain(name);
    expect(result.summary).toMatch(/\| Tracing project \| kept \|/);
    // The kept tracing project blocks the name: the log says so (a reopened PR would fail).
    expect(result.stdout).toContain(`Its tracing project '${name}' was kept`);
  });

  it('delete-tracing-project: true is sent as the query flag', async () => {
    const name = uniqueName('del-trace');
    const seeded = sim.seedDeployment({ name, repoUrl: REPO_URL });
    const log = mark(sim);
    const result = await runAction({
      inputs: deleteInputs(sim, { name, 'delete-tracing-project': 'true' }),
    });
    expectExit(result, 0);
    expect(byRoute(log.since(), 'DELETE', DEPLOYMENT_PATH).map((d) => [d.path, d.query])).toEqual([
      [`/v2/deployments/${seeded.id}`, { delete_tracing_project: 'true' }],
    ]);
    expect(result.outputs['status']).toBe('DELETED');
    expect(result.summary).toMatch(/\| Tracing project \| deleted \|/);
    expect(result.stdout).not.toContain('was kept');
  });

  it('not found: status NOT_FOUND, exit 0, no DELETE', async () => {
    const name = uniqueName('del-none');
    sim.seedDeployment({ name: `${name}-other`, repoUrl: REPO_URL });
    const log = mark(sim);
    const result = await runAction({ inputs: deleteInputs(sim, { name }) });
    expectExit(result, 0);
    expect(result.outputs['status']).toBe('NOT_FOUND');
    expect(errors(result)).toHaveLength(0);
    expect(byRoute(log.since(), 'DELETE', DEPLOYMENT_PATH)).toHaveLength(0);
    expect(idOf(sim, `${name}-other`)).toBeDefined();
    expect(result.stdout).toContain(`There is no deployment named '${name}': nothing to delete.`);
    expect(result.stdout).not.toMatch(/No deployment named .* does not exist/);
  });

  it('by deployment-id: no lookup by name, DELETE of that ID', async () => {
    const seeded = sim.seedDeployment({ name: uniqueName('del-id'), repoUrl: REPO_URL });
    const log = mark(sim);
    const result = await runAction({ inputs: deleteInputs(sim, { 'deployment-id': seeded.id }) });
    expectExit(result, 0);
    const requests = log.since();
    expect(byRoute(requests, 'GET', '/v2/deployments')).toHaveLength(0);
    expect(byRoute(requests, 'DELETE', DEPLOYMENT_PATH).map((d) => d.path)).toEqual([
      `/v2/deployments/${seeded.id}`,
    ]);
    expect(result.outputs).toMatchObject({
      status: 'DELETED',
      'deployment-id': seeded.id,
      name: seeded.name,
    });
  });

  it('by a deployment-id that does not exist: NOT_FOUND, exit 0, no DELETE', async () => {
    const log = mark(sim);
    const missing = '9d2b7c1e-0000-4000-8000-00000000dead';
    const result = await runAction({ inputs: deleteInputs(sim, { 'deployment-id': missing }) });
    expectExit(result, 0);
    expect(result.outputs['status']).toBe('NOT_FOUND');
    expect(byRoute(log.since(), 'DELETE', DEPLOYMENT_PATH)).toHaveLength(0);
  });

  it('ignores deploy-only inputs (external_docker without image-uri, github-only inputs)', async () => {
    const name = uniqueName('del-ignore');
    const seeded = sim.seedDeployment({ name, repoUrl: REPO_URL });
    const result = await runAction({
      inputs: deleteInputs(sim, {
        name,
        source: 'external_docker',
        'integration-id': 'not-a-uuid',
        'repo-ref': 'main',
        'deployment-type': 'huge',
        'build-on-push': 'maybe',
        'resource-spec': '{not json',
      }),
    });
    expectExit(result, 0);
    expect(errors(result)).toHaveLength(0);
    expect(result.outputs['status']).toBe('DELETED');
    expect(idOf(sim, name)).toBeUndefined();
    expect(result.outputs['deployment-id']).toBe(seeded.id);
  });

  it('with wait, waits until the deployment is gone (GET answers 404)', async () => {
    const slow = await startSimulator({ timeline: SHORT_TIMELINE, deleteDelayMs: 500 });
    try {
      const seeded = slow.seedDeployment({ name: uniqueName('del-slow'), repoUrl: REPO_URL });
      const result = await runAction({ inputs: deleteInputs(slow, { name: seeded.name }) });
      expectExit(result, 0);
      expect(result.outputs['status']).toBe('DELETED');
      const [deleted] = byRoute(slow.requests, 'DELETE', DEPLOYMENT_PATH);
      const reads = byRoute(slow.requests, 'GET', `/v2/deployments/${seeded.id}`);
      expect(reads.at(-1)?.status).toBe(404);
      expect(reads.at(-1)!.at - deleted!.at).toBeGreaterThanOrEqual(450);
    } finally {
      await slow.close();
    }
  });
});
