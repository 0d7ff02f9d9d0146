/**
 * Finding the deployment the inputs name, waiting for a deletion, the revision a rollback
 * serves again, and `interruptPrevious` before an update, against a scripted client
 * (src/deployment/target.ts).
 */
import { describe, expect, it } from '@jest/globals';

const UUID = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
import { apiError, caught, makeConfig, setup } from './upsert-plane.js';
import {
  findTarget,
  interruptPrevious,
  listAllRevisions,
  lookupTarget,
  pickRollbackTarget,
  uiUrl,
  waitUntilGone,
} from '../../src/deployment/target.js';
import type { ControlPlane } from '../../src/api/client.js';
import type { Deployment, Revision, RevisionsList } from '../../src/api/schemas.js';
import { ActionError, ApiError, CancelledError, DeadlineError } from '../../src/lib/errors.js';
import { deploymentFixture, recordingLogger } from '../helpers/fakes.js';

describe('uiUrl', () => {
  it('is <ui base>/o/<tenant_id>/host/deployments/<id>', () => {
    const { plane } = setup();
    const deployment = plane.add({ id: 'dep-abc', name: 'my-agent', tenant_id: 'tenant-xyz' });
    expect(uiUrl(makeConfig(), deployment)).toBe(
      'https://smith.langchain.com/o/tenant-xyz/host/deployments/dep-abc',
    );
    expect(uiUrl(makeConfig({ uiBaseUrl: 'https://eu.smith.langchain.com' }), deployment)).toBe(
      'https://eu.smith.langchain.com/o/tenant-xyz/host/deployments/dep-abc',
    );
  });
});

describe('lookupTarget (the one lookup of deploy, delete and rollback)', () => {
  it('finds by exact name, and answers undefined when no deployment has it', async () => {
    const { plane } = setup();
    plane.add({ name: 'my-agent-preview' });
    const mine = plane.add({ name: 'my-agent' });
    expect((await lookupTarget(plane, { name: 'my-agent' }, 'delete'))?.id).toBe(mine.id);
    expect(await lookupTarget(plane, { name: 'nobody' }, 'delete')).toBeUndefined();
  });

  it('reads by deployment-id, and an ID that answers 404 is undefined', async () => {
    const { plane } = setup();
    const mine = plane.add({ name: 'my-agent' });
    expect((await lookupTarget(plane, { deploymentId: mine.id }, 'roll back'))?.id).toBe(mine.id);
    expect(await lookupTarget(plane, { deploymentId: 'dep-gone' }, 'roll back')).toBeUndefined();
    expect(plane.calls.map((c) => c.method)).toEqual(['get', 'get']);
  });

  it('refuses an ID whose deployment carries another name, naming what it would have done', async () => {
    const { plane } = setup();
    const other = plane.add({ name: 'someone-else' });
    const error = await caught(
      lookupTarget(plane, { deploymentId: other.id, name: 'my-agent' }, 'delete'),
    );
    expect(error).toBeInstanceOf(ActionError);
    expect((error as ActionError).title).toBe('Name and ID disagree');
    expect(error.message).toContain("is named 'someone-else', not 'my-agent'");
    expect(error.message).toContain('Refusing to delete a deployment other than the one named');
  });

  it('passes on errors other than 404', async () => {
    const { plane } = setup();
    plane.getDeployment = () => Promise.reject(apiError(403, 'GET', '/v2/deployments/x'));
    const error = await caught(lookupTarget(plane, { deploymentId: 'x' }, 'delete'));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(403);
  });
});

describe('findTarget', () => {
  it('finds by exact name', async () => {
    const { plane, ctx } = setup();
    plane.add({ name: 'my-agent-preview' });
    const mine = plane.add({ name: 'my-agent' });
    await expect(findTarget(ctx)).resolves.toMatchObject({ id: mine.id, name: 'my-agent' });
    expect(plane.calls.map((c) => c.method)).toStrictEqual(['find']);
  });

  it('undefined when no deployment has the name', async () => {
    const { plane, ctx } = setup();
    plane.add({ name: 'my-agent-preview' });
    await expect(findTarget(ctx)).resolves.toBeUndefined();
  });

  it('by deployment-id: GET by ID, no lookup by name', async () => {
    const { plane, ctx } = setup(makeConfig({ name: undefined, deploymentId: 'dep-42' }));
    plane.add({ id: 'dep-42', name: 'whatever-name' });
    await expect(findTarget(ctx)).resolves.toMatchObject({ id: 'dep-42' });
    expect(plane.calls.map((c) => c.method)).toStrictEqual(['get']);
  });

  it('by deployment-id that does not exist: an error naming the ID and the input', async () => {
    const { ctx } = setup(makeConfig({ deploymentId: 'dep-missing' }));
    const error = await caught(findTarget(ctx));
    expect(error).toBeInstanceOf(ActionError);
    expect(error).not.toBeInstanceOf(ApiError);
    expect(error.message).toContain('dep-missing');
    expect(error.message).toContain('`deployment-id`');
  });

  it('by deployment-id: other errors pass through', async () => {
    const { plane, ctx } = setup(makeConfig({ deploymentId: 'dep-42' }));
    const boom = apiError(403, 'GET', '/v2/deployments/dep-42', 'forbidden');
    plane.getDeployment = async () => {
      throw boom;
    };
    await expect(findTarget(ctx)).rejects.toBe(boom);
  });

  it('name and deployment-id that disagree: an error naming both', async () => {
    const { plane, ctx } = setup(makeConfig({ name: 'my-agent', deploymentId: 'dep-42' }));
    plane.add({ id: 'dep-42', name: 'production-agent' });
    const error = await caught(findTarget(ctx));
    expect(error).toBeInstanceOf(ActionError);
    expect(error.message).toContain("'production-agent'");
    expect(error.message).toContain("'my-agent'");
    expect(error.message).toContain('dep-42');
  });

  it('name and deployment-id that agree: found', async () => {
    const { plane, ctx } = setup(makeConfig({ name: 'my-agent', deploymentId: 'dep-42' }));
    plane.add({ id: 'dep-42', name: 'my-agent' });
    await expect(findTarget(ctx)).resolves.toMatchObject({ id: 'dep-42' });
  });

  it('by name, AWAITING_DELETE: waits until it is gone, then reports none', async () => {
    const { plane, ctx, clock, deadline, logger } = setup();
    const dying = plane.add({ name: 'my-agent', status: 'AWAITING_DELETE' });
    plane.deletingReads.set(dying.id, 3);
    await expect(findTarget(ctx)).resolves.toBeUndefined();
    // Three reads still see it, the fourth answers 404.
    expect(plane.count('get')).toBe(4);
    expect(clock.sleeps).toHaveLength(3);
    expect(clock.sleeps.every((ms) => ms > 0)).toBe(true);
    expect(clock.now()).toBeLessThanOrEqual(deadline.at);
    expect(logger.text()).toContain(dying.id);
  });

  it('by deployment-id, AWAITING_DELETE: an error at once, no waiting', async () => {
    const { plane, ctx, clock } = setup(makeConfig({ deploymentId: 'dep-42' }));
    plane.add({ id: 'dep-42', name: 'my-agent', status: 'AWAITING_DELETE' });
    const error = await caught(findTarget(ctx));
    expect(error).toBeInstanceOf(ActionError);
    expect(error.message).toContain('dep-42');
    expect(error.message).toContain('AWAITING_DELETE');
    expect(clock.sleeps).toStrictEqual([]);
  });
});

describe('waitUntilGone', () => {
  it('never gone: DeadlineError, without sleeping past the deadline', async () => {
    const { plane, ctx, clock, deadline } = setup(makeConfig({ timeoutSeconds: 20 }));
    const dying = plane.add({ name: 'my-agent', status: 'AWAITING_DELETE' });
    const error = await caught(waitUntilGone(ctx, dying.id));
    expect(error).toBeInstanceOf(DeadlineError);
    expect(error.message).toContain(dying.id);
    expect(clock.now()).toBe(deadline.at);
    expect(clock.sleeps.every((ms) => ms > 0)).toBe(true);
    // 20 s at 7.5 s per wait: 7.5 + 7.5 + 5 (cut to the deadline).
    expect(clock.sleeps).toStrictEqual([7500, 7500, 5000]);
  });

  it('a read that fails other than 404 ends the wait with that error', async () => {
    const { plane, ctx } = setup();
    const boom = apiError(500, 'GET', '/v2/deployments/x');
    plane.getDeployment = async () => {
      throw boom;
    };
    await expect(waitUntilGone(ctx, 'x')).rejects.toBe(boom);
  });
});

let seq = 0;
function revision(status: string, createdAt: string, id = `rev-${++seq}`): Revision {
  return {
    id,
    status,
    created_at: createdAt,
    updated_at: createdAt,
    source: 'github',
    source_revision_config: {},
  };
}

describe('pickRollbackTarget', () => {
  const live = revision('DEPLOYED', '2026-01-05T00:00:00Z', 'live');
  const older = revision('DEPLOYED', '2026-01-03T00:00:00Z', 'older');
  const newer = revision('DEPLOYED', '2026-01-04T00:00:00Z', 'newer');
  const failed = revision('BUILD_FAILED', '2026-01-06T00:00:00Z', 'failed');

  it('picks the newest DEPLOYED revision by created_at other than the live one', () => {
    // Listed in an order that is not by date: the choice must not depend on it.
    const picked = pickRollbackTarget([older, failed, live, newer], 'live', undefined, "'a'");
    expect(picked).toEqual({ revision: newer, alreadyLive: false });
  });

  it('says so when no other revision reached DEPLOYED', () => {
    expect(() => pickRollbackTarget([failed, live], 'live', undefined, "'a'")).toThrow(
      /no revision to roll back to.*other than the live one \(live\).*Nothing was redeployed/,
    );
  });

  it('serves rollback-to when it is a DEPLOYED revision of the deployment', () => {
    const picked = pickRollbackTarget([live, newer, older], 'live', 'OLDER', "'a'");
    expect(picked).toEqual({ revision: older, alreadyLive: false });
  });

  it('refuses an unknown rollback-to and one that never reached DEPLOYED', () => {
    expect(() => pickRollbackTarget([live, older], 'live', UUID, "'a'")).toThrow(
      new RegExp(`rollback-to\` names revision ${UUID}, which is not one of the 2 revisions`),
    );
    expect(() => pickRollbackTarget([live, failed], 'live', 'failed', "'a'")).toThrow(
      /is BUILD_FAILED: only a revision that reached DEPLOYED/,
    );
  });

  it('marks a rollback-to that is already live', () => {
    expect(pickRollbackTarget([live, older], 'live', 'live', "'a'")).toEqual({
      revision: live,
      alreadyLive: true,
    });
  });
});

describe('listAllRevisions', () => {
  function planeOf(pages: (offset: number) => RevisionsList) {
    const calls: { limit?: number; offset?: number }[] = [];
    const plane = {
      listRevisions: async (_id: string, query: { limit?: number; offset?: number }) => {
        calls.push(query);
        return pages(query.offset ?? 0);
      },
    } as unknown as ControlPlane;
    return { plane, calls };
  }

  it('follows every page until a short one', async () => {
    const all = Array.from({ length: 230 }, () => revision('DEPLOYED', '2026-01-01T00:00:00Z'));
    const { plane, calls } = planeOf((offset) => {
      const resources = all.slice(offset, offset + 100);
      return { resources, offset: offset + resources.length };
    });
    const listed = await listAllRevisions(plane, 'd');
    expect(listed).toEqual(all);
    expect(calls.map((c) => c.offset)).toEqual([0, 100, 200]);
  });

  it('stops when the offset does not advance, and errors past 50 full pages', async () => {
    const page = Array.from({ length: 100 }, () => revision('DEPLOYED', '2026-01-01T00:00:00Z'));
    const stuck = planeOf(() => ({ resources: page, offset: 0 }));
    expect(await listAllRevisions(stuck.plane, 'd')).toHaveLength(100);
    expect(stuck.calls).toHaveLength(1);

    const endless = planeOf((offset) => ({ resources: page, offset: offset + 100 }));
    await expect(listAllRevisions(endless.plane, 'd')).rejects.toThrow(/more than 50 pages/);
    expect(endless.calls).toHaveLength(50);
  });
});

const DEP: Deployment = deploymentFixture();

function latestRevision(status: string, id = 'rev-2'): Revision {
  return {
    id,
    status,
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
    source: 'github',
    source_revision_config: {},
  };
}

function recorder() {
  const logger = recordingLogger();
  return { logger, lines: logger.lines };
}

function client(
  status: string | Error,
  answer: 'interrupted' | 404 | 405 | 409 | Error = 'interrupted',
) {
  const calls: string[] = [];
  const cp = {
    getRevision: async (id: string, rev: string) => {
      calls.push(`GET ${id}/${rev}`);
      if (status instanceof Error) throw status;
      return latestRevision(status, rev);
    },
    interruptRevision: async (id: string, rev: string) => {
      calls.push(`POST ${id}/${rev}/interruption`);
      if (answer instanceof Error) throw answer;
      return answer;
    },
  } as unknown as ControlPlane;
  return { cp, calls };
}

describe('interruptPrevious', () => {
  for (const status of [
    'QUEUED',
    'AWAITING_BUILD',
    'BUILDING',
    'AWAITING_DEPLOY',
    'DEPLOYING',
    'UNKNOWN',
  ]) {
    it(`interrupts the latest revision while it is ${status}, and says so`, async () => {
      const { cp, calls } = client(status);
      const { logger, lines } = recorder();
      await interruptPrevious(cp, DEP, logger);
      expect(calls).toEqual(['GET dep-1/rev-2', 'POST dep-1/rev-2/interruption']);
      expect(lines).toEqual([
        {
          level: 'info',
          message: expect.stringMatching(/Interrupted revision rev-2 .*interrupt-previous/),
        },
      ]);
    });
  }

  for (const status of [
    'DEPLOYED',
    'BUILD_FAILED',
    'DEPLOY_FAILED',
    'CREATE_FAILED',
    'SKIPPED',
    'INTERRUPTED',
  ]) {
    it(`leaves a ${status} revision alone`, async () => {
      const { cp, calls } = client(status);
      const { logger, lines } = recorder();
      await interruptPrevious(cp, DEP, logger);
      expect(calls).toEqual(['GET dep-1/rev-2']);
      expect(lines).toEqual([]);
    });
  }

  for (const code of [404, 405, 409] as const) {
    it(`an HTTP ${code} answer is a notice, not a failure`, async () => {
      const { cp, calls } = client('BUILDING', code);
      const { logger, lines } = recorder();
      await interruptPrevious(cp, DEP, logger);
      expect(calls).toEqual(['GET dep-1/rev-2', 'POST dep-1/rev-2/interruption']);
      expect(lines.map((l) => l.level)).toEqual(['notice']);
      expect(lines[0]!.message).toContain(`HTTP ${code}`);
      expect(lines[0]!.message).toMatch(/update goes ahead/);
    });
  }

  it('another failure of the call is a warning; the update still goes ahead', async () => {
    const { cp } = client(
      'BUILDING',
      new ApiError('HTTP 500 from the control plane', { status: 500 }),
    );
    const { logger, lines } = recorder();
    await interruptPrevious(cp, DEP, logger);
    expect(lines.map((l) => l.level)).toEqual(['warning']);
    expect(lines[0]!.message).toMatch(/interrupt-previous: false/);
  });

  it('an unreadable latest revision is not interrupted blindly', async () => {
    const { cp, calls } = client(new ApiError('HTTP 503', { status: 503 }));
    const { logger, lines } = recorder();
    await interruptPrevious(cp, DEP, logger);
    expect(calls).toEqual(['GET dep-1/rev-2']);
    expect(lines.map((l) => l.level)).toEqual(['debug']);
  });

  it('cancellation still ends the run', async () => {
    const { cp } = client('BUILDING', new CancelledError('cancelled'));
    const { logger } = recorder();
    await expect(interruptPrevious(cp, DEP, logger)).rejects.toBeInstanceOf(CancelledError);
  });

  it('uses a latest revision the run has just read instead of asking again', async () => {
    const { cp, calls } = client('DEPLOYED');
    const { logger } = recorder();
    await interruptPrevious(cp, DEP, logger, latestRevision('BUILDING'));
    expect(calls).toEqual(['POST dep-1/rev-2/interruption']);
  });

  it('does nothing without a latest revision', async () => {
    const { cp, calls } = client('BUILDING');
    const { logger, lines } = recorder();
    await interruptPrevious(cp, { ...DEP, latest_revision_id: null }, logger);
    expect(calls).toEqual([]);
    expect(lines).toEqual([]);
  });

  it('neutralises workflow commands in names from the control plane', async () => {
    const { cp } = client('BUILDING', 409);
    const { logger, lines } = recorder();
    await interruptPrevious(cp, { ...DEP, name: '::error::owned' }, logger);
    expect(lines[0]!.message).not.toContain('::error::');
  });
});
