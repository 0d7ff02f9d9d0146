/**
 * The upsert (src/deployment/upsert.ts) against an in-memory control plane whose calls can be
 * scripted: answers lost after or before the platform applied them, rejections, a revision
 * that shows up late; its request bodies and the checks on what the lookup found; and how a
 * refused create is explained.
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
import type { DeployConfig } from '../../src/inputs/config.js';
import {
  checkCreatable,
  checkSameKind,
  createRequest,
  explainRefusal,
  mergeResourceSpec,
  normalizeRepoUrl,
  revisionRequest,
  upsert,
  withIntegration,
} from '../../src/deployment/upsert.js';
import { ActionError, ApiError } from '../../src/lib/errors.js';
import { recordingLogger } from '../helpers/fakes.js';
import { OutcomeUnknownError } from '../../src/api/http/request.js';

/** The origin record a create writes (a push run of acme/agent: `origin.test.ts`). */
const ORIGIN = {
  name: 'LANGGRAPH_DEPLOY_ACTION_ORIGIN',
  value: expect.stringMatching(/^v1:[A-Za-z0-9_-]{43}$/),
};

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

  describe('github without integration-id (v1.3; the cases: integration.test.ts)', () => {
    const ours = { id: 'int-ours', name: 'acme', repos: ['other/x', 'Acme/Agent'] };
    const theirs = { id: 'int-theirs', name: 'umbrella', repos: ['umbrella/agent'] };

    it('creates through the one integration whose repositories hold this repository, with a notice', async () => {
      const { plane, ctx, logger } = setup(makeConfig({ integrationId: undefined }));
      plane.integrations = [theirs, ours];
      await upsert(ctx, undefined);
      expect(plane.creates().map((c) => c.source_config.integration_id)).toEqual(['int-ours']);
      expect(plane.calls.slice(0, 3).map((c) => c.method)).toEqual([
        'integrations',
        'repos',
        'repos',
      ]);
      expect(logger.messages('notice')).toEqual([
        expect.stringMatching(
          /`integration-id` is empty: .*GitHub integration int-ours \(account acme\).*acme\/agent/,
        ),
      ]);
    });

    it('an update needs no integration: nothing is listed', async () => {
      const { plane, ctx } = setup(makeConfig({ integrationId: undefined }));
      await upsert(ctx, plane.add({ name: 'my-agent' }));
      expect(plane.count('integrations')).toBe(0);
    });
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
  function withExisting(config: DeployConfig = makeConfig()) {
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
    expect(plane.calls.map((c) => c.method)).toStrictEqual(['patch', 'list']);
    expect(result).toMatchObject({ created: false, revisionId: 'rev-1' });
  });

  it('outcome unknown and not applied (revision unchanged): PATCH again', async () => {
    const { plane, ctx, found } = withExisting();
    plane.patchSteps = ['lost-before-apply', 'ok'];
    const result = await upsert(ctx, found);
    const writes = plane.calls.filter((c) => c.method !== 'list').map((c) => c.method);
    expect(writes).toStrictEqual(['patch', 'patch']);
    expect(plane.count('list')).toBeGreaterThan(1); // looked for it (lost-answer.test.ts)
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
    expect(plane.calls.at(-1)?.method).toBe('list');
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
    expect(plane.creates()[0]!.secrets).toStrictEqual([...secrets, ORIGIN]);

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

  it('answer lost after the platform made it: lists the revisions, adopts it, never asks twice', async () => {
    const { plane, ctx, logger } = setup();
    plane.offerRevisions().revisionSteps = ['lost-after-apply'];
    const found = plane.add({ name: 'my-agent' });
    const result = await upsert(ctx, found);
    expect(plane.calls.map((c) => c.method)).toStrictEqual(['revision', 'list']);
    expect(result.revisionId).toBe('rev-1');
    expect(
      logger.lines.some((l) => l.level === 'warning' && /no usable answer/.test(l.message)),
    ).toBe(true);
  });

  it('answer lost before the platform made it: looks, then asks again (bounded)', async () => {
    const { plane, ctx } = setup();
    plane.offerRevisions().revisionSteps = ['lost-before-apply', 'ok'];
    const found = plane.add({ name: 'my-agent' });
    const result = await upsert(ctx, found);
    const writes = plane.calls.filter((c) => c.method !== 'list').map((c) => c.method);
    expect(writes).toStrictEqual(['revision', 'revision']);
    expect(result.revisionId).toBe('rev-1');
    plane.revisionSteps = Array(MAX_ATTEMPTS).fill('lost-before-apply');
    await expect(upsert(ctx, plane.add({ name: 'other', id: 'dep-x' }))).rejects.toBeInstanceOf(
      OutcomeUnknownError,
    );
    expect(plane.count('revision')).toBe(2 + MAX_ATTEMPTS);
  });
});

describe('normalizeRepoUrl', () => {
  it('ignores case, surrounding spaces, trailing slashes and a .git suffix', () => {
    const canonical = 'https://github.com/acme/agent';
    for (const url of [
      'https://github.com/acme/agent',
      'https://GitHub.com/Acme/Agent',
      'https://github.com/acme/agent/',
      'https://github.com/acme/agent//',
      'https://github.com/acme/agent.git',
      'https://github.com/acme/agent.git/',
      '  HTTPS://GITHUB.COM/ACME/AGENT.GIT/ ',
    ]) {
      expect(normalizeRepoUrl(url)).toBe(canonical);
    }
  });

  it('keeps different repositories different', () => {
    expect(normalizeRepoUrl('https://github.com/acme/agent2')).not.toBe(
      normalizeRepoUrl('https://github.com/acme/agent'),
    );
    expect(normalizeRepoUrl('https://github.com/acme/agent.github')).toBe(
      'https://github.com/acme/agent.github',
    );
    expect(normalizeRepoUrl('https://github.com/other/agent')).not.toBe(
      normalizeRepoUrl('https://github.com/acme/agent'),
    );
  });
});

describe('createRequest', () => {
  it('github: exactly the github fields, only the origin record when secrets is empty', () => {
    const config = makeConfig({
      repoRef: 'feature/x',
      configPath: 'apps/agent/langgraph.json',
      deploymentType: 'prod',
      buildOnPush: true,
      // Fields of the other source never go out with a github body.
      imageUri: 'ghcr.io/acme/agent:1',
      customUrl: 'https://agent.example.com',
      listenerId: 'listener-1',
      k8sNamespace: 'ns',
      resourceSpec: { min_scale: 1 },
    });
    expect(wire(createRequest(named(config)))).toStrictEqual({
      name: 'my-agent',
      source: 'github',
      source_config: {
        integration_id: '8f9e0d1c-0000-4000-8000-00000000abcd',
        repo_url: 'https://github.com/acme/agent',
        deployment_type: 'prod',
        build_on_push: true,
      },
      source_revision_config: {
        repo_ref: 'feature/x',
        langgraph_config_path: 'apps/agent/langgraph.json',
      },
      secrets: [ORIGIN],
    });
  });

  it('sends the secrets as given, and the origin record (v1.3)', () => {
    const secrets = [
      { name: 'OPENAI_API_KEY', value: SECRET_VALUE },
      { name: 'MODE', value: 'a=b' },
    ];
    expect(createRequest(named(makeConfig({ secrets }))).secrets).toStrictEqual([
      ...secrets,
      ORIGIN,
    ]);
    expect(createRequest(named(dockerConfig({ secrets }))).secrets).toStrictEqual([
      ...secrets,
      ORIGIN,
    ]);
  });

  it('external_docker minimal: image_uri only, no github fields, only the origin record', () => {
    // Defaulted github inputs (config-path, deployment-type, build-on-push) are in the Config
    // but must not be sent, nor github fields that happen to be set.
    const config = dockerConfig({ repoUrl: 'https://github.com/acme/agent', repoRef: 'main' });
    expect(wire(createRequest(named(config)))).toStrictEqual({
      name: 'my-agent',
      source: 'external_docker',
      source_config: {},
      source_revision_config: { image_uri: 'ghcr.io/acme/agent:1.2.3' },
      secrets: [ORIGIN],
    });
  });

  it('external_docker full: resource_spec, custom_url, listener_id, listener_config', () => {
    const config = dockerConfig({
      customUrl: 'https://agent.example.com',
      listenerId: 'listener-1',
      k8sNamespace: 'agents',
      resourceSpec: { min_scale: 1, max_scale: 3 },
    });
    expect(wire(createRequest(named(config)))).toStrictEqual({
      name: 'my-agent',
      source: 'external_docker',
      source_config: {
        resource_spec: { min_scale: 1, max_scale: 3 },
        custom_url: 'https://agent.example.com',
        listener_id: 'listener-1',
        listener_config: { k8s_namespace: 'agents' },
      },
      source_revision_config: { image_uri: 'ghcr.io/acme/agent:1.2.3' },
      secrets: [ORIGIN],
    });
  });

  it('external_docker: listener_config only with a k8s namespace', () => {
    const body = wire(createRequest(named(dockerConfig({ listenerId: 'listener-1' })))) as {
      source_config: Record<string, unknown>;
    };
    expect(body.source_config).toStrictEqual({ listener_id: 'listener-1' });
  });
});

describe('revisionRequest', () => {
  it('github: repo_ref and langgraph_config_path only; no secrets when the input is empty', () => {
    const config = makeConfig({
      repoRef: 'v2',
      configPath: 'sub/langgraph.json',
      buildOnPush: true,
    });
    expect(wire(revisionRequest(config))).toStrictEqual({
      source_revision_config: { repo_ref: 'v2', langgraph_config_path: 'sub/langgraph.json' },
    });
    expect('secrets' in revisionRequest(config)).toBe(false);
  });

  it('github: install-command and build-command go to source_config, on create and update', () => {
    const config = makeConfig({ installCommand: 'npm ci', buildCommand: 'npm run build' });
    const commands = { install_command: 'npm ci', build_command: 'npm run build' };
    expect(wire(revisionRequest(config))).toMatchObject({ source_config: commands });
    expect(wire(createRequest(named(config)))).toMatchObject({ source_config: commands });
    const onlyBuild = wire(revisionRequest(makeConfig({ buildCommand: 'make' }))) as {
      source_config?: object;
    };
    expect(onlyBuild.source_config).toStrictEqual({ build_command: 'make' });
  });

  it('sends secrets when the input is set, as given (also an empty list)', () => {
    const secrets = [{ name: 'OPENAI_API_KEY', value: SECRET_VALUE }];
    expect(revisionRequest(makeConfig({ secrets })).secrets).toStrictEqual(secrets);
    expect(revisionRequest(dockerConfig({ secrets })).secrets).toStrictEqual(secrets);
    expect(revisionRequest(makeConfig({ secrets: [] })).secrets).toStrictEqual([]);
  });

  it('external_docker: image_uri; no source_config when nothing in it may change', () => {
    // listener_id / listener_config cannot be changed after creation: never on PATCH.
    const config = dockerConfig({ listenerId: 'listener-1', k8sNamespace: 'agents' });
    expect(wire(revisionRequest(config))).toStrictEqual({
      source_revision_config: { image_uri: 'ghcr.io/acme/agent:1.2.3' },
    });
  });

  it('external_docker: resource_spec and custom_url when set, no github fields', () => {
    const config = dockerConfig({
      customUrl: 'https://agent.example.com',
      resourceSpec: { min_scale: 2 },
      repoRef: 'main',
    });
    expect(wire(revisionRequest(config))).toStrictEqual({
      source_revision_config: { image_uri: 'ghcr.io/acme/agent:1.2.3' },
      source_config: { resource_spec: { min_scale: 2 }, custom_url: 'https://agent.example.com' },
    });
  });
});

describe('checkSameKind', () => {
  it('refuses a deployment of another source, naming both', () => {
    const { plane } = setup();
    const found = plane.add({ id: 'dep-7', name: 'my-agent', source: 'external_docker' });
    const error = (() => {
      try {
        checkSameKind(makeConfig(), found);
      } catch (e) {
        return e as ActionError;
      }
      throw new Error('expected an error');
    })();
    expect(error).toBeInstanceOf(ActionError);
    expect(error.message).toContain("'external_docker'");
    expect(error.message).toContain("'github'");
    expect(error.message).toContain('dep-7');
    expect(error.message).toContain('`source`');
  });

  it('refuses a github deployment of another repository, naming both', () => {
    const { plane } = setup();
    const found = plane.add({
      name: 'my-agent',
      source_config: { repo_url: 'https://github.com/other/thing' },
    });
    expect(() => checkSameKind(makeConfig(), found)).toThrow(ActionError);
    try {
      checkSameKind(makeConfig(), found);
    } catch (e) {
      expect((e as Error).message).toContain('https://github.com/other/thing');
      expect((e as Error).message).toContain('https://github.com/acme/agent');
      expect((e as Error).message).toContain('`repo-url`');
    }
  });

  it('accepts the same repository written differently', () => {
    const { plane } = setup();
    const found = plane.add({
      name: 'my-agent',
      source_config: { repo_url: 'https://GitHub.com/Acme/Agent.git' },
    });
    expect(() =>
      checkSameKind(makeConfig({ repoUrl: 'https://github.com/acme/agent/' }), found),
    ).not.toThrow();
  });

  it('refuses a github deployment that reports no repository', () => {
    const { plane } = setup();
    const found = plane.add({ name: 'my-agent', source_config: { repo_url: null } });
    expect(() => checkSameKind(makeConfig(), found)).toThrow(/no repository/);
  });

  it('external_docker: the same source is enough', () => {
    const { plane } = setup();
    const found = plane.add({
      name: 'my-agent',
      source: 'external_docker',
      source_config: {},
      source_revision_config: { image_uri: 'ghcr.io/acme/agent:0.9' },
    });
    expect(() => checkSameKind(dockerConfig(), found)).not.toThrow();
  });
});

describe('checkCreatable', () => {
  it('a github create may leave integration-id empty (it is found from the integrations)', () => {
    expect(() => checkCreatable(makeConfig({ integrationId: undefined }))).not.toThrow();
  });

  it('external_docker needs no integration-id', () => {
    expect(() => checkCreatable(dockerConfig())).not.toThrow();
  });

  it('a create needs a name', () => {
    expect(() => checkCreatable(dockerConfig({ name: undefined }))).toThrow(/`name`/);
  });
});

const ours = { id: 'int-ours', name: 'acme', repos: ['other/x', 'Acme/Agent'] };
const theirs = { id: 'int-theirs', name: 'umbrella', repos: ['umbrella/agent'] };

async function find(integrations: (typeof ours)[], repoUrl = 'https://github.com/acme/agent.git/') {
  const { plane, ctx, logger } = setup(makeConfig({ integrationId: undefined, repoUrl }));
  plane.integrations = integrations;
  const config = named(ctx.config);
  const result = await withIntegration(ctx, config).catch((error: ActionError) => error);
  return { plane, logger, result };
}

describe('withIntegration (integration-id empty on a create)', () => {
  it('the one integration whose repositories hold this repository (any case, .git): with a notice', async () => {
    const { result, logger } = await find([theirs, ours]);
    expect(result).toMatchObject({ integrationId: 'int-ours' });
    expect(logger.messages('notice')).toEqual([
      "Input `integration-id` is empty: creating 'my-agent' through GitHub integration int-ours " +
        '(account acme), whose repositories include acme/agent.',
    ]);
  });

  it('none holds it: an error that says to install the GitHub app, and where, naming integration-id', async () => {
    const { result } = await find([theirs]);
    expect((result as ActionError).title).toBe('No GitHub integration for this repository');
    expect((result as ActionError).message).toMatch(
      /install LangSmith's GitHub app on acme\/agent: in LangSmith, Deployments → \+ New Deployment/,
    );
    expect((result as ActionError).message).toContain('input `integration-id`');
    expect((await find([])).result).toMatchObject({
      title: 'No GitHub integration for this repository',
    });
  });

  it('several hold it: an error listing them, ID and account name', async () => {
    const { result } = await find([ours, { ...theirs, repos: ['acme/agent'] }]);
    expect((result as ActionError).message).toContain(
      '2 GitHub integrations of this workspace may build acme/agent: int-ours (acme), int-theirs (umbrella).',
    );
    expect((result as ActionError).message).toContain('`integration-id`');
  });

  it('a given integration-id, or another source: nothing is listed', async () => {
    const { plane, ctx } = setup(makeConfig());
    await withIntegration(ctx, named(ctx.config));
    await withIntegration(ctx, named(dockerConfig()));
    expect(plane.calls).toEqual([]);
  });
});

const live = (resource_spec: Record<string, unknown> | null) =>
  ({ name: 'agent', source_config: { resource_spec } }) as unknown as Deployment;

describe('mergeResourceSpec', () => {
  it('keeps the live keys the input does not give, and logs the keys it changes', () => {
    const logger = recordingLogger();
    const config = dockerConfig({ resourceSpec: { cpu: 2, memory_mb: 1024, labels: { a: '1' } } });
    const found = live({ cpu: 1, memory_mb: 1024, max_scale: 5, labels: { a: '1' } });
    const merged = mergeResourceSpec(config, found, logger);
    expect(merged.resourceSpec).toEqual({
      cpu: 2,
      memory_mb: 1024,
      max_scale: 5,
      labels: { a: '1' },
    });
    expect(logger.messages('info')).toEqual([
      "resource-spec: merged with the live resource spec of 'agent': changes cpu; keeps max_scale " +
        '(the platform replaces the whole object, so the keys not given are sent as they are live).',
    ]);
  });

  it('no live spec, or no resource-spec input: nothing to merge, nothing logged', () => {
    const logger = recordingLogger();
    const config = dockerConfig({ resourceSpec: { cpu: 2 } });
    expect(mergeResourceSpec(config, live(null), logger).resourceSpec).toEqual({ cpu: 2 });
    const without = dockerConfig();
    expect(mergeResourceSpec(without, live({ cpu: 1 }), logger)).toBe(without);
    expect(logger.entries).toEqual([]);
  });

  it('a live key with a hostile name is made inert in the log', () => {
    const logger = recordingLogger();
    mergeResourceSpec(
      dockerConfig({ resourceSpec: { cpu: 2 } }),
      live({ '\n::error::x': 1 }),
      logger,
    );
    expect(logger.text()).not.toMatch(/\n::error::/);
  });
});

const refusal = (status: number, message: string) => new ApiError(message, { status });
const TYPE_422 =
  'POST (create) deployment "a" was rejected as invalid (HTTP 422):\n  - ' +
  "source_config.deployment_type: Input should be 'dev_free', 'dev' or 'prod' (input `deployment-type`)";

describe('explainRefusal', () => {
  it('a refused usage-based type names the previous family and the input', () => {
    const error = explainRefusal(refusal(422, TYPE_422), 'a', 'serverless') as ActionError;
    expect(error.title).toBe('Deployment type refused');
    expect(error.message).toContain(TYPE_422);
    expect(error.message).toMatch(/`deployment-type: serverless`, a type of usage-based pricing/);
    expect(error.message).toMatch(/set `deployment-type: dev` \(or `prod`/);
  });

  it('a refused older type (400 too) names serverless and dedicated', () => {
    const error = explainRefusal(
      refusal(400, 'POST … was rejected (HTTP 400): invalid deployment type for this plan'),
      'a',
      'prod',
    ) as ActionError;
    expect(error.message).toMatch(/`deployment-type: prod`, a type of the previous pricing/);
    expect(error.message).toMatch(/`deployment-type: serverless` \(the default\) or `dedicated`/);
  });

  it('leaves other refusals and other errors as they are', () => {
    const other = refusal(422, 'source_config.repo_url: Field required');
    expect(explainRefusal(other, 'a', 'dev')).toBe(other);
    const forbidden = refusal(403, 'deployment_type not allowed');
    expect(explainRefusal(forbidden, 'a', 'dev')).toBe(forbidden);
    const plain = new Error('deployment_type');
    expect(explainRefusal(plain, 'a', 'dev')).toBe(plain);
  });

  it('a 409 for a kept tracing project gives its remedies', () => {
    const error = explainRefusal(
      refusal(409, 'There already exists a project in LangSmith named: a'),
      'a',
      'dev',
    ) as ActionError;
    expect(error.title).toBe('Tracing project of that name exists');
    expect(error.message).toContain('delete-tracing-project: true');
  });
});
