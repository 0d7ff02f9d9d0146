/**
 * A revision request whose answer was lost (INTERFACE v1.3, "A lost answer never makes a second
 * revision"): the revision it may have made is looked for, for at least 15 s within the
 * deadline, before the request is sent again.
 */
import { describe, expect, it } from '@jest/globals';
import { LOOKUP_MS } from '../../src/deployment/lost-answer.js';
import { upsert } from '../../src/deployment/upsert.js';
import { DeadlineError } from '../../src/lib/errors.js';
import { caught, makeConfig, setup, unknownOutcome } from './upsert-plane.js';

function existing(config = makeConfig()) {
  const t = setup(config);
  const found = t.plane.add({ name: 'my-agent' });
  return { ...t, found };
}

describe('a lost answer of a revision request', () => {
  it('applied 1.5 s after a 504: found by looking, adopted, requested once', async () => {
    const { plane, ctx, found, logger } = existing();
    plane.offerRevisions().revisionSteps = [{ lateMs: 1500 }];
    const result = await upsert(ctx, found);
    expect(plane.count('revision')).toBe(1);
    expect(result).toMatchObject({ revisionId: 'rev-1', revision: { id: 'rev-1' } });
    expect(logger.messages('warning')).toEqual([
      expect.stringMatching(/no usable answer .*looking for the revision it may have made/),
    ]);
  });

  it('never applied: looked for at least 15 s, then sent again', async () => {
    const { plane, ctx, found } = existing();
    plane.offerRevisions().revisionSteps = ['lost-before-apply', 'ok'];
    const result = await upsert(ctx, found);
    const sent = plane.calls.filter((c) => c.method === 'revision').map((c) => c.at);
    expect(sent).toHaveLength(2);
    expect(sent[1]! - sent[0]!).toBeGreaterThanOrEqual(LOOKUP_MS);
    expect(LOOKUP_MS).toBeGreaterThanOrEqual(15_000);
    expect(result.revisionId).toBe('rev-1');
  });

  it('a newer revision built from another ref (another client) is not adopted', async () => {
    const { plane, ctx, found } = existing();
    plane.offerRevisions().revisionSteps = [
      (p) => {
        p.foreignRevision(found.id, { repo_ref: 'someone-else', langgraph_config_path: 'x.json' });
        throw unknownOutcome('POST', `/v2/deployments/${found.id}/revisions`);
      },
      'ok',
    ];
    const result = await upsert(ctx, found);
    expect(plane.count('revision')).toBe(2);
    expect(result.revisionId).toBe('rev-2');
  });

  it('the PATCH of older installs is looked up the same way', async () => {
    const { plane, ctx, found } = existing();
    plane.patchSteps = [{ lateMs: 3000 }];
    const result = await upsert(ctx, found);
    expect(plane.count('patch')).toBe(1);
    expect(result.revisionId).toBe('rev-1');
  });

  it('bounded by the deadline: stops at it, and never sends again', async () => {
    const { plane, ctx, found, clock, deadline } = existing(makeConfig({ timeoutSeconds: 5 }));
    plane.offerRevisions().revisionSteps = ['lost-before-apply', 'ok'];
    const error = await caught(upsert(ctx, found));
    expect(error).toBeInstanceOf(DeadlineError);
    expect(error.message).toMatch(/no usable answer/);
    expect(plane.count('revision')).toBe(1);
    expect(clock.now()).toBeLessThanOrEqual(deadline.at);
  });
});
