/**
 * The upsert (src/deployment/upsert.ts) against an in-memory control plane whose calls can be
 * scripted: answers lost after or before the platform applied them, rejections, a revision
 * that shows up late.
 */
import { describe, expect, it } from '@jest/globals';
import {
  MAX_ATTEMPTS,
  MAX_REREADS,
  SECRET_VALUE,
  apiError,
  caught,
  dockerConfig,
  makeConfig,
  setup,
  unknownOutcome,
  wire,
  named,
} from './upsert-plane.js';
import type { Deployment } from '../../src/api/schemas.js';
import type { Config } from '../../src/inputs/config.js';
import { createRequest, revisionRequest } from '../../src/deployment/requests.js';
import { upsert } from '../../src/deployment/upsert.js';
import { ActionError } from '../../src/lib/errors.js';
import { OutcomeUnknownError } from '../../src/api/http/request.js';

describe('upsert: create', () => {
  it('no deployment: POST the create body; created=true and its revision', async () => {
    const { plane, ctx, config } = setup();
    const result = await upsert(ctx, undefined);
    expect(plane.creates()).toStrictEqual([createRequest(named(config))]);
    expect(plane.count('patch')).toBe(0);
    expect(result.created).toBe(true);
    expect(result.revisionId).toBe('rev-1');
    expect(result.deployment.name).toBe('my-agent');
  });

  it('github without integration-id: an error before any request', async () => {
    const { plane, ctx } = setup(makeConfig({ integrationId: undefined }));
    const error = await caught(upsert(ctx, undefined));
    expect(error.message).toContain('integration-id');
    expect(plane.calls).toStrictEqual([]);
  });

  it('outcome unknown but created: looks the name up and adopts it (one deployment)', async () => {
    const { plane, ctx, logger } = setup();
    plane.createSteps = ['lost-after-apply'];
    const result = await upsert(ctx, undefined);
    expect(plane.calls.map((c) => c.method)).toStrictEqual(['create', 'find']);
    expect(plane.byName('my-agent')).toHaveLength(1);
    expect(result.created).toBe(true);
    expect(result.deployment.id).toBe(plane.byName('my-agent')[0]!.id);
    expect(result.revisionId).toBe('rev-1');
    expect(logger.lines.some((l) => l.level === 'warning')).toBe(true);
  });

  it('outcome unknown, and the name now holds a deployment of another kind: refused', async () => {
    const { plane, ctx } = setup();
    plane.createSteps = [
      (p) => {
        p.add({ name: 'my-agent', source_config: { repo_url: 'https://github.com/other/x' } });
        throw unknownOutcome('POST', '/v2/deployments');
      },
    ];
    const error = await caught(upsert(ctx, undefined));
    expect(error).toBeInstanceOf(ActionError);
    expect(error.message).toContain('https://github.com/other/x');
    expect(error.message).toContain('https://github.com/acme/agent');
    expect(plane.calls.map((c) => c.method)).toStrictEqual(['create', 'find']);
  });

  it('outcome unknown and not created: creates again', async () => {
    const { plane, ctx } = setup();
    plane.createSteps = ['lost-before-apply', 'ok'];
    const result = await upsert(ctx, undefined);
    expect(plane.calls.map((c) => c.method)).toStrictEqual(['create', 'find', 'create']);
    expect(plane.byName('my-agent')).toHaveLength(1);
    expect(result).toMatchObject({ created: true, revisionId: 'rev-1' });
  });

  it('lost twice, then created with the answer lost: adopted on the third attempt', async () => {
    const { plane, ctx } = setup();
    plane.createSteps = ['lost-before-apply', 'lost-before-apply', 'lost-after-apply'];
    const result = await upsert(ctx, undefined);
    expect(plane.count('create')).toBe(MAX_ATTEMPTS);
    expect(plane.byName('my-agent')).toHaveLength(1);
    expect(result.created).toBe(true);
  });

  it('outcome unknown every time: gives up after the bounded number of attempts', async () => {
    const { plane, ctx } = setup();
    plane.createSteps = [
      'lost-before-apply',
      'lost-before-apply',
      'lost-before-apply',
      'lost-before-apply',
    ];
    const error = await caught(upsert(ctx, undefined));
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(plane.count('create')).toBe(MAX_ATTEMPTS);
    // Every unknown outcome is followed by a lookup before anything else.
    expect(plane.calls.map((c) => c.method)).toStrictEqual([
      'create',
      'find',
      'create',
      'find',
      'create',
      'find',
    ]);
    expect(plane.store.size).toBe(0);
  });

  it('adopted deployment without a revision yet: reads it again until it has one', async () => {
    const { plane, ctx } = setup();
    plane.revisionLag = 3; // the lookup and the next two reads show no revision
    plane.createSteps = ['lost-after-apply'];
    const result = await upsert(ctx, undefined);
    expect(plane.calls.map((c) => c.method)).toStrictEqual(['create', 'find', 'get', 'get', 'get']);
    expect(result).toMatchObject({ created: true, revisionId: 'rev-1' });
  });

  it.each([400, 409])(
    'rejected with %i because a concurrent run created it: updates it (created=false)',
    async (status) => {
      const { plane, ctx, config } = setup();
      let theirs: Deployment | undefined;
      plane.createSteps = [
        (p) => {
          theirs = p.add({ name: 'my-agent', latest_revision_id: 'rev-theirs' });
          throw apiError(status, 'POST', '/v2/deployments', 'name exists');
        },
      ];
      const result = await upsert(ctx, undefined);
      expect(plane.calls.map((c) => c.method)).toStrictEqual(['create', 'find', 'patch']);
      expect(plane.patches()).toStrictEqual([{ id: theirs!.id, body: revisionRequest(config) }]);
      expect(result.created).toBe(false);
      expect(result.deployment.id).toBe(theirs!.id);
      expect(result.revisionId).not.toBe('rev-theirs');
      expect(result.revisionId).toBe(plane.store.get(theirs!.id)!.latest_revision_id);
    },
  );

  it.each([400, 409])('rejected with %i and the name is free: the server error', async (status) => {
    const { plane, ctx } = setup();
    const rejection = apiError(status, 'POST', '/v2/deployments', 'bad request');
    plane.createSteps = [
      () => {
        throw rejection;
      },
    ];
    await expect(upsert(ctx, undefined)).rejects.toBe(rejection);
    expect(plane.calls.map((c) => c.method)).toStrictEqual(['create', 'find']);
  });

  it('rejected with 409 by a deployment of another kind: refuses to update it', async () => {
    const { plane, ctx } = setup();
    plane.createSteps = [
      (p) => {
        p.add({ name: 'my-agent', source_config: { repo_url: 'https://github.com/other/x' } });
        throw apiError(409, 'POST', '/v2/deployments', 'exists');
      },
    ];
    const error = await caught(upsert(ctx, undefined));
    expect(error.message).toContain('https://github.com/other/x');
    expect(plane.count('patch')).toBe(0);
  });

  it('409 for a surviving tracing project of that name: explains it and the remedies', async () => {
    const { plane, ctx } = setup();
    plane.createSteps = [
      () => {
        throw apiError(
          409,
          'POST',
          '/v2/deployments',
          'There already exists a project in LangSmith named: my-agent',
        );
      },
    ];
    const error = await caught(upsert(ctx, undefined));
    expect(error).toBeInstanceOf(ActionError);
    expect((error as ActionError).title).toBe('Tracing project of that name exists');
    expect(error.message).toMatch(/tracing project named 'my-agent' already exists/);
    expect(error.message).toMatch(/deleted earlier without `delete-tracing-project: true`/);
    expect(error.message).toMatch(/reopened/);
    expect(error.message).toMatch(/delete the tracing project 'my-agent' in LangSmith/);
    expect(error.message).toMatch(/another `name`/);
    expect(error.message).not.toMatch(/check the inputs/i);
    // The name was looked up first: a deployment of that name would have been updated.
    expect(plane.calls.map((c) => c.method)).toStrictEqual(['create', 'find']);
  });

  it('a 409 of that wording while the name exists now: updates it as usual', async () => {
    const { plane, ctx } = setup();
    plane.createSteps = [
      (p) => {
        p.add({ name: 'my-agent' });
        throw apiError(
          409,
          'POST',
          '/v2/deployments',
          'There already exists a project in LangSmith named: my-agent',
        );
      },
    ];
    const result = await upsert(ctx, undefined);
    expect(result.created).toBe(false);
    expect(plane.count('patch')).toBe(1);
  });

  it('rejected with 422: no lookup, the error as is', async () => {
    const { plane, ctx } = setup();
    const rejection = apiError(422, 'POST', '/v2/deployments', 'invalid');
    plane.createSteps = [
      () => {
        throw rejection;
      },
    ];
    await expect(upsert(ctx, undefined)).rejects.toBe(rejection);
    expect(plane.calls.map((c) => c.method)).toStrictEqual(['create']);
  });
});

describe('upsert: update', () => {
  function withExisting(config: Config = makeConfig()) {
    const s = setup(config);
    const found = s.plane.add({
      name: 'my-agent',
      latest_revision_id: 'rev-before',
      ...(config.source === 'external_docker'
        ? {
            source: 'external_docker',
            source_config: {},
            source_revision_config: { image_uri: 'ghcr.io/acme/agent:1.0.0' },
          }
        : {}),
    });
    return { ...s, found };
  }

  it('existing deployment: PATCH the patch body; created=false and the new revision', async () => {
    const { plane, ctx, found, config } = withExisting();
    const result = await upsert(ctx, found);
    expect(plane.patches()).toStrictEqual([{ id: found.id, body: revisionRequest(config) }]);
    expect(plane.count('create')).toBe(0);
    expect(result).toMatchObject({ created: false, revisionId: 'rev-1' });
    expect(result.deployment.id).toBe(found.id);
  });

  it('external_docker update sends the docker patch body', async () => {
    const config = dockerConfig({ customUrl: 'https://agent.example.com' });
    const { plane, ctx, found } = withExisting(config);
    await upsert(ctx, found);
    expect(wire(plane.patches()[0]!.body)).toStrictEqual({
      source_revision_config: { image_uri: 'ghcr.io/acme/agent:1.2.3' },
      source_config: { custom_url: 'https://agent.example.com' },
    });
  });

  it('found deployment of another source: refused before any PATCH', async () => {
    const { plane, ctx, found } = withExisting(makeConfig());
    const error = await caught(upsert(ctx, { ...found, source: 'external_docker' }));
    expect(error).toBeInstanceOf(ActionError);
    expect(error.message).toContain('external_docker');
    expect(plane.calls).toStrictEqual([]);
  });

  it('outcome unknown but applied: the new latest_revision_id is this run’s revision', async () => {
    const { plane, ctx, found } = withExisting();
    plane.patchSteps = ['lost-after-apply'];
    const result = await upsert(ctx, found);
    expect(plane.calls.map((c) => c.method)).toStrictEqual(['patch', 'get']);
    expect(result).toMatchObject({ created: false, revisionId: 'rev-1' });
  });

  it('outcome unknown and not applied (revision unchanged): PATCH again', async () => {
    const { plane, ctx, found } = withExisting();
    plane.patchSteps = ['lost-before-apply', 'ok'];
    const result = await upsert(ctx, found);
    expect(plane.calls.map((c) => c.method)).toStrictEqual(['patch', 'get', 'patch']);
    expect(result).toMatchObject({ created: false, revisionId: 'rev-1' });
  });

  it('outcome unknown every time: gives up after the bounded number of attempts', async () => {
    const { plane, ctx, found } = withExisting();
    plane.patchSteps = [
      'lost-before-apply',
      'lost-before-apply',
      'lost-before-apply',
      'lost-before-apply',
    ];
    const error = await caught(upsert(ctx, found));
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(plane.count('patch')).toBe(MAX_ATTEMPTS);
    expect(plane.calls.map((c) => c.method)).toStrictEqual([
      'patch',
      'get',
      'patch',
      'get',
      'patch',
      'get',
    ]);
  });

  it('other PATCH errors are not retried', async () => {
    const { plane, ctx, found } = withExisting();
    const rejection = apiError(422, 'PATCH', `/v2/deployments/${found.id}`, 'invalid');
    plane.patchSteps = [
      () => {
        throw rejection;
      },
    ];
    await expect(upsert(ctx, found)).rejects.toBe(rejection);
    expect(plane.calls.map((c) => c.method)).toStrictEqual(['patch']);
  });

  it('PATCH answer still shows the old revision: reads again until it changes', async () => {
    const { plane, ctx, found, clock } = withExisting();
    plane.revisionLag = 3; // the PATCH answer and two reads show rev-before
    const result = await upsert(ctx, found);
    expect(plane.calls.map((c) => c.method)).toStrictEqual(['patch', 'get', 'get', 'get']);
    expect(result.revisionId).toBe('rev-1');
    expect(clock.sleeps).toHaveLength(3);
  });

  it('PATCH answer that never shows a new revision: an error after the allowed re-reads', async () => {
    const { plane, ctx, found } = withExisting();
    plane.revisionLag = 100;
    const error = await caught(upsert(ctx, found));
    expect(error).toBeInstanceOf(ActionError);
    expect(error.message).toContain(found.id);
    expect(plane.count('get')).toBe(MAX_REREADS);
  });
});

describe('upsert: latest_revision_id null after the call', () => {
  it('reads again (short waits) until the revision appears', async () => {
    const { plane, ctx, clock, config } = setup();
    plane.revisionLag = 3; // the create answer and two reads: null
    const result = await upsert(ctx, undefined);
    expect(plane.calls.map((c) => c.method)).toStrictEqual(['create', 'get', 'get', 'get']);
    expect(result.revisionId).toBe('rev-1');
    expect(clock.sleeps).toHaveLength(3);
    // Short waits, well under poll-interval.
    for (const ms of clock.sleeps) {
      expect(ms).toBeGreaterThan(0);
      expect(ms).toBeLessThan(config.pollIntervalSeconds * 1000);
    }
  });

  it('appearing on the last allowed re-read is still in time', async () => {
    const { plane, ctx } = setup();
    plane.revisionLag = MAX_REREADS; // the answer and all but the last re-read: null
    const result = await upsert(ctx, undefined);
    expect(plane.count('get')).toBe(MAX_REREADS);
    expect(result.revisionId).toBe('rev-1');
  });

  it('still null after the allowed re-reads: an error naming the deployment', async () => {
    const { plane, ctx } = setup();
    plane.revisionLag = MAX_REREADS + 1;
    const error = await caught(upsert(ctx, undefined));
    expect(error).toBeInstanceOf(ActionError);
    expect(error.message).toContain(plane.byName('my-agent')[0]!.id);
    expect(plane.count('get')).toBe(MAX_REREADS);
    expect(plane.count('create')).toBe(1);
  });

  it('never sleeps past the deadline', async () => {
    const { plane, ctx, clock, deadline } = setup(makeConfig({ timeoutSeconds: 2 }));
    plane.revisionLag = 100;
    const error = await caught(upsert(ctx, undefined));
    expect(error).toBeInstanceOf(ActionError);
    expect(clock.now()).toBe(deadline.at);
    expect(clock.sleeps.reduce((a, b) => a + b, 0)).toBe(2000);
    // poll 15 s → 1.5 s waits; the second one is cut to the 0.5 s left.
    expect(clock.sleeps).toStrictEqual([1500, 500]);
    expect(plane.count('get')).toBe(2);
  });

  it('deadline already passed: no sleep, no read, an error', async () => {
    const { plane, ctx, clock } = setup();
    plane.revisionLag = 100;
    clock.current = ctx.deadline.at;
    const error = await caught(upsert(ctx, undefined));
    expect(error).toBeInstanceOf(ActionError);
    expect(clock.sleeps).toStrictEqual([]);
    expect(plane.count('get')).toBe(0);
  });
});

describe('secret values', () => {
  it('appear in no log line and no error message, through retries and failures', async () => {
    const secrets = [{ name: 'OPENAI_API_KEY', value: SECRET_VALUE }];
    const { plane, ctx, logger } = setup(makeConfig({ secrets }));
    plane.createSteps = ['lost-before-apply', 'lost-before-apply', 'lost-before-apply'];
    const error = await caught(upsert(ctx, undefined));
    expect(plane.creates()[0]!.secrets).toStrictEqual(secrets);

    const updating = setup(makeConfig({ secrets }));
    const found = updating.plane.add({ name: 'my-agent' });
    updating.plane.patchSteps = ['lost-before-apply', 'lost-after-apply'];
    updating.plane.revisionLag = 0;
    await upsert(updating.ctx, found);

    for (const text of [logger.text(), updating.logger.text(), error.message]) {
      expect(text).not.toContain(SECRET_VALUE);
    }
  });
});

describe('upsert: a new revision with POST /v2/deployments/{id}/revisions', () => {
  it('sends the revision body and follows the answer’s id; no PATCH, no read', async () => {
    const { plane, ctx, config } = setup();
    plane.offerRevisions();
    const found = plane.add({ name: 'my-agent' });
    const result = await upsert(ctx, found);
    expect(plane.calls.map((c) => c.method)).toStrictEqual(['revision']);
    expect(plane.calls[0]).toMatchObject({ id: found.id, body: revisionRequest(config) });
    expect(result).toMatchObject({ created: false, revisionId: 'rev-1' });
    expect(result.revision).toMatchObject({ id: 'rev-1', status: 'QUEUED' });
  });

  it.each([404, 405] as const)(
    'answered %i (an older install): PATCH once instead, with a notice',
    async (status) => {
      const { plane, ctx, config, logger } = setup();
      plane.offerRevisions(status);
      const found = plane.add({ name: 'my-agent' });
      const result = await upsert(ctx, found);
      expect(plane.calls.map((c) => c.method)).toStrictEqual(['revision', 'patch']);
      expect(plane.patches()).toStrictEqual([{ id: found.id, body: revisionRequest(config) }]);
      expect(result.revisionId).toBe('rev-1');
      const notice = logger.lines.find((l) => l.level === 'notice');
      expect(notice?.message).toMatch(new RegExp(`HTTP ${status}.*PATCH instead`));
    },
  );

  it('answer lost after the platform made it: reads the deployment, adopts it, never asks twice', async () => {
    const { plane, ctx, logger } = setup();
    plane.offerRevisions().revisionSteps = ['lost-after-apply'];
    const found = plane.add({ name: 'my-agent' });
    const result = await upsert(ctx, found);
    expect(plane.calls.map((c) => c.method)).toStrictEqual(['revision', 'get']);
    expect(result.revisionId).toBe('rev-1');
    expect(
      logger.lines.some((l) => l.level === 'warning' && /no usable answer/.test(l.message)),
    ).toBe(true);
  });

  it('answer lost before the platform made it: reads, then asks again (bounded)', async () => {
    const { plane, ctx } = setup();
    plane.offerRevisions().revisionSteps = ['lost-before-apply', 'ok'];
    const found = plane.add({ name: 'my-agent' });
    const result = await upsert(ctx, found);
    expect(plane.calls.map((c) => c.method)).toStrictEqual(['revision', 'get', 'revision']);
    expect(result.revisionId).toBe('rev-1');
    plane.revisionSteps = Array(MAX_ATTEMPTS).fill('lost-before-apply');
    await expect(upsert(ctx, plane.add({ name: 'other', id: 'dep-x' }))).rejects.toBeInstanceOf(
      OutcomeUnknownError,
    );
    expect(plane.count('revision')).toBe(2 + MAX_ATTEMPTS);
  });
});
