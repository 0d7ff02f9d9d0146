/**
 * `runDelete` with fakes (an in-memory control plane, a fake clock): idempotent (nothing to
 * delete is `NOT_FOUND` and success), it waits until the deployment is gone within `timeout`,
 * and running out of time after an accepted DELETE is a warning, not a failed cleanup.
 */
import { describe, expect, it } from '@jest/globals';
import { runDelete } from '../../src/commands/delete.js';
import type { DeleteConfig } from '../../src/inputs/config.js';
import { FakeClock } from '../helpers/fakes.js';
import { FakePlane, makeConfig } from '../deployment/upsert-plane.js';
import { fakeRun, quietly } from './run-context.js';

/** A control plane that deletes: the deployment goes away after `deletingReads` reads. */
class DeletePlane extends FakePlane {
  readonly deleted: { id: string; deleteTracingProject: boolean }[] = [];
  readsWhileDeleting = 2;

  override async deleteDeployment(id: string, options: { deleteTracingProject: boolean }) {
    if (!this.store.has(id)) return 'not_found' as const;
    this.deleted.push({ id, ...options });
    this.deletingReads.set(id, this.readsWhileDeleting);
    return 'deleted' as const;
  }

  redeployRevision(): never {
    throw new Error('not used by a delete');
  }

  deleteDeployments(): never {
    throw new Error('not used by a delete');
  }
}

function run(overrides: Partial<DeleteConfig> = {}) {
  const clock = new FakeClock();
  const plane = new DeletePlane(clock);
  const { github, apiKey, region, controlPlaneUrl, uiBaseUrl, prComment } = makeConfig();
  const config: DeleteConfig = {
    command: 'delete',
    name: 'preview-pr-7',
    wait: true,
    deleteTracingProject: true,
    timeoutSeconds: 60,
    pollIntervalSeconds: 1,
    ...{ github, apiKey, region, controlPlaneUrl, uiBaseUrl, prComment },
    ...overrides,
  };
  return { ...fakeRun(config, plane, clock), plane };
}

describe('runDelete', () => {
  it('deletes the deployment and its tracing project, then waits until it is gone', async () => {
    const { ctx, plane, outputs, report, logger } = run();
    const found = plane.add({ name: 'preview-pr-7', tenant_id: 't-1' });
    expect(await quietly(() => runDelete(ctx))).toBe(0);

    expect(plane.deleted).toEqual([{ id: found.id, deleteTracingProject: true }]);
    expect(plane.store.has(found.id)).toBe(false); // read until it answered 404
    expect(outputs).toEqual({ 'deployment-id': found.id, name: 'preview-pr-7', status: 'DELETED' });
    expect(report).toMatchObject({ outcome: 'deleted', deletedTracingProject: true });
    expect(logger.messages('info')).toContain("Deployment 'preview-pr-7' is gone.");
  });

  it('finds nothing to delete: NOT_FOUND, and success', async () => {
    const { ctx, plane, outputs, report } = run();
    expect(await quietly(() => runDelete(ctx))).toBe(0);
    expect(plane.deleted).toEqual([]);
    expect(outputs).toMatchObject({ name: 'preview-pr-7', status: 'NOT_FOUND' });
    expect(report.outcome).toBe('not_found');
  });

  it('keeping the tracing project says that the name cannot be created again until it goes', async () => {
    const { ctx, plane, logger } = run({ deleteTracingProject: false });
    plane.add({ name: 'preview-pr-7' });
    expect(await quietly(() => runDelete(ctx))).toBe(0);
    expect(logger.text()).toMatch(
      /tracing project 'preview-pr-7' was kept .*cannot be created again/,
    );
  });

  it('warns, and still succeeds, when the deletion outlasts the timeout', async () => {
    const { ctx, plane, clock, deadline, logger } = run({ timeoutSeconds: 5 });
    plane.readsWhileDeleting = 1_000;
    plane.add({ name: 'preview-pr-7' });
    expect(await quietly(() => runDelete(ctx))).toBe(0);
    expect(logger.warnings().map((w) => w.properties?.title)).toEqual([
      'Deletion still in progress',
    ]);
    expect(clock.now()).toBeLessThanOrEqual(deadline.at);
  });
});
