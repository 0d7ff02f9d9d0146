/**
 * End to end on the bundle: `source: upload` (INTERFACE.md "Source upload") against the
 * simulator and its separate storage server: create, upload-url, PUT, PATCH and the wait; the
 * update path; `source-digest`; transient storage faults; an expired URL; what is refused
 * before any request.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { runAction } from '../../scripts/run-action.js';
import { useSimulator } from '../helpers/simulator.js';
import {
  baseInputs,
  byRoute,
  DEPLOYMENT_PATH,
  REVISIONS_PATH,
  errors,
  expectExit,
  idOf,
  mark,
  SHORT_TIMELINE,
  uniqueName,
  sentSecrets,
} from './deploy-support.js';
import { tarNames } from '../helpers/tar.js';

const sim = useSimulator({ timeline: SHORT_TIMELINE });
let workspace: string;

/** A checkout: agent in apps/agent, a shared library next to it, things that must stay out. */
function makeCheckout(): string {
  const ws = mkdtempSync(join(tmpdir(), 'upload-e2e-'));
  const write = (path: string, text: string) => {
    mkdirSync(join(ws, path, '..'), { recursive: true });
    writeFileSync(join(ws, path), text);
  };
  write('.git/HEAD', 'ref: refs/heads/main\n');
  write(
    'apps/agent/langgraph.json',
    JSON.stringify({
      dependencies: ['.', '../../libs/shared'],
      graphs: { agent: './agent.py:graph' },
    }),
  );
  write('apps/agent/agent.py', 'graph = None\n');
  write('apps/agent/.env', 'OPENAI_API_KEY=sk-from-env-file\n');
  write('apps/agent/.gitignore', 'build/\n');
  write('apps/agent/build/out.bin', 'generated\n');
  write('apps/agent/node_modules/x/index.js', 'x\n');
  write('libs/shared/shared.py', 'VALUE = 1\n');
  write('libs/shared/.env.production', 'TOKEN=abc\n');
  write('README.md', 'not in the archive: outside the included folders\n');
  symlinkSync('/etc/passwd', join(ws, 'apps/agent/passwd'));
  return ws;
}

beforeAll(() => {
  workspace = makeCheckout();
});

afterAll(() => {
  rmSync(workspace, { recursive: true, force: true });
});

function uploadInputs(name: string, extra: Record<string, string> = {}) {
  return baseInputs(sim, {
    name,
    source: 'upload',
    'config-path': 'apps/agent/langgraph.json',
    'health-check': 'false',
    ...extra,
  });
}

describe('source: upload', () => {
  it('creates, uploads to the signed URL without credentials, PATCHes the object path and follows the revision', async () => {
    const name = uniqueName('upload');
    const log = mark(sim);
    const result = await runAction({
      workspace,
      inputs: uploadInputs(name, { 'install-command': 'npm ci && npm run build', secrets: 'A=1' }),
    });
    expectExit(result, 0);
    const requests = log.since();

    const create = byRoute(requests, 'POST', '/v2/deployments');
    expect(create).toHaveLength(1);
    expect(create[0]!.body).toEqual({
      name,
      source: 'internal_source',
      source_config: { deployment_type: 'serverless' },
      source_revision_config: { langgraph_config_path: 'apps/agent/langgraph.json' },
      secrets: sentSecrets([{ name: 'A', value: '1' }], { created: true }),
    });
    expect(byRoute(requests, 'POST', /\/upload-url$/)).toHaveLength(1);

    // The storage server saw one PUT with exactly the three headers (plus transport ones).
    const puts = sim.storage.requests.filter((r) => r.method === 'PUT');
    expect(puts.at(-1)!.status).toBe(200);
    expect(puts.at(-1)!.headers.sort()).toEqual(
      [
        'connection',
        'content-length',
        'content-type',
        'host',
        'x-goog-content-length-range',
      ].sort(),
    );

    // Right after the create too, the new revision comes from POST …/revisions (no PATCH).
    expect(byRoute(requests, 'PATCH', DEPLOYMENT_PATH)).toHaveLength(0);
    const patch = byRoute(requests, 'POST', REVISIONS_PATH);
    expect(patch).toHaveLength(1);
    const body = patch[0]!.body as {
      revision_source?: string;
      source_revision_config: { source_tarball_path: string; langgraph_config_path: string };
      source_config: Record<string, string>;
    };
    expect(body.revision_source).toBeUndefined();
    expect(body.source_revision_config.langgraph_config_path).toBe('apps/agent/langgraph.json');
    expect(body.source_config).toEqual({ install_command: 'npm ci && npm run build' });
    const object = sim.storage.objects.get(body.source_revision_config.source_tarball_path);
    expect(object).toBeDefined();

    // source-digest is the SHA-256 of exactly what was uploaded.
    expect(result.outputs['source-digest']).toBe(object!.sha256);
    expect(createHash('sha256').update(object!.body!).digest('hex')).toBe(object!.sha256);
    expect(result.outputs['status']).toBe('DEPLOYED');
    expect(result.outputs['created']).toBe('true');
    // A create is never logged as an update, and says what it did in order.
    expect(result.stdout).not.toContain('Updating deployment');
    expect(
      result.stdout.indexOf('Requesting the first revision of the new deployment'),
    ).toBeLessThan(result.stdout.indexOf('Created deployment'));
    expect(result.stdout.indexOf('Requesting the first revision')).toBeGreaterThan(-1);
    expect(result.summary).toContain(`archive sha256 \`${object!.sha256.slice(0, 12)}\``);

    // Rooted at the common parent of the config folder and ../../libs/shared.
    expect(tarNames(object!.body!)).toEqual([
      'apps/agent/.gitignore',
      'apps/agent/agent.py',
      'apps/agent/langgraph.json',
      'libs/shared/shared.py',
    ]);
    expect(result.stdout).not.toContain('sk-from-env-file');
    // The signed URL is masked (the runner hides `::add-mask::` lines) and never printed.
    const printed = result.stdout.split('\n').filter((l) => !l.startsWith('::add-mask::'));
    expect(printed.join('\n')).not.toContain('X-Goog-Signature=');
  });

  it('updates an existing upload deployment with a new archive and gives the same digest for the same files', async () => {
    const name = uniqueName('upload-again');
    const first = await runAction({ workspace, inputs: uploadInputs(name) });
    expectExit(first, 0);
    const log = mark(sim);
    const second = await runAction({ workspace, inputs: uploadInputs(name) });
    expectExit(second, 0);
    expect(byRoute(log.since(), 'POST', '/v2/deployments')).toHaveLength(0);
    expect(byRoute(log.since(), 'POST', REVISIONS_PATH)).toHaveLength(1);
    expect(second.outputs['created']).toBe('false');
    expect(second.outputs['source-digest']).toBe(first.outputs['source-digest']);
  });

  it('retries the PUT after a 503 and a reset of the storage server', async () => {
    const name = uniqueName('upload-retry');
    sim.inject({ method: 'PUT', path: /^\/storage\//, kind: 'status', status: 503 });
    sim.inject({ method: 'PUT', path: /^\/storage\//, kind: 'reset' });
    const result = await runAction({ workspace, inputs: uploadInputs(name) });
    expectExit(result, 0);
    expect(result.outputs['status']).toBe('DEPLOYED');
  });

  it('names the upload step when the storage keeps failing, and asks for no revision', async () => {
    const name = uniqueName('upload-down');
    sim.inject({ method: 'PUT', path: /^\/storage\//, kind: 'status', status: 500, times: 10 });
    const log = mark(sim);
    const result = await runAction({ workspace, inputs: uploadInputs(name) });
    sim.clearFaults();
    expectExit(result, 1);
    expect(
      errors(result)
        .map((e) => e.message)
        .join('\n'),
    ).toMatch(/step 3 of 4 \(upload\) failed/);
    expect(byRoute(log.since(), 'POST', REVISIONS_PATH)).toHaveLength(0);
    // The deployment was created before the upload failed: its IDs are outputs all the same
    // (set right after the create), so a cleanup step can find it.
    expect(result.outputs).toMatchObject({ 'deployment-id': idOf(sim, name), created: 'true' });
    expect(result.outputs['revision-id']).toBeUndefined();
  });

  it('refuses a bad install-command and github-only inputs before any request', async () => {
    const log = mark(sim);
    const result = await runAction({
      workspace,
      inputs: uploadInputs(uniqueName('upload-bad'), {
        'build-command': 'npm run build; rm -rf /',
        'repo-ref': 'main',
      }),
    });
    expectExit(result, 1);
    const text = errors(result)
      .map((e) => e.message)
      .join('\n');
    expect(text).toMatch(/build-command/);
    expect(text).toMatch(/repo-ref` applies only to `source: github`/);
    expect(log.since()).toHaveLength(0);
  });

  it('names the upload-url step and the revision step when those fail', async () => {
    sim.inject({ method: 'POST', path: /\/upload-url$/, kind: 'status', status: 403 });
    const urlFailed = await runAction({
      workspace,
      inputs: uploadInputs(uniqueName('upload-url')),
    });
    expectExit(urlFailed, 1);
    expect(
      errors(urlFailed)
        .map((e) => e.message)
        .join('\n'),
    ).toMatch(/step 2 of 4 \(upload-url\) failed/);

    sim.inject({ method: 'POST', path: REVISIONS_PATH, kind: 'status', status: 400 });
    const patchFailed = await runAction({
      workspace,
      inputs: uploadInputs(uniqueName('upload-patch')),
    });
    expectExit(patchFailed, 1);
    expect(
      errors(patchFailed)
        .map((e) => e.message)
        .join('\n'),
    ).toMatch(/step 4 of 4 \(revision\) failed/);
  });

  it('stops before any request when a graph file of the config would be left out of the archive', async () => {
    const ws = makeCheckout();
    writeFileSync(join(ws, 'apps/agent/.dockerignore'), 'agent.py\n');
    const log = mark(sim);
    const result = await runAction({
      workspace: ws,
      inputs: uploadInputs(uniqueName('upload-pre')),
    });
    rmSync(ws, { recursive: true, force: true });
    expectExit(result, 1);
    expect(
      errors(result)
        .map((e) => e.message)
        .join('\n'),
    ).toMatch(/apps\/agent\/agent\.py.*would not be in the `source: upload` archive/s);
    expect(log.since()).toHaveLength(0);
    expect(result.outputs['source-digest']).toBeUndefined();
  });

  it('deletes an upload deployment with `command: delete`, as any other', async () => {
    const name = uniqueName('upload-gone');
    expectExit(await runAction({ workspace, inputs: uploadInputs(name) }), 0);
    const deleted = await runAction({
      workspace,
      inputs: baseInputs(sim, { name, command: 'delete', source: 'upload' }),
    });
    expectExit(deleted, 0);
    expect(deleted.outputs['status']).toBe('DELETED');
    expect(sim.deployments().some((d) => d.name === name)).toBe(false);
  });

  it('refuses to update a deployment of another source, before any upload', async () => {
    const name = uniqueName('upload-other');
    sim.seedDeployment({ name, source: 'github' });
    const log = mark(sim);
    const result = await runAction({ workspace, inputs: uploadInputs(name) });
    expectExit(result, 1);
    expect(
      errors(result)
        .map((e) => e.message)
        .join('\n'),
    ).toMatch(/has source 'github', but the inputs say 'upload'/);
    expect(byRoute(log.since(), 'POST', /\/upload-url$/)).toHaveLength(0);
    expect(byRoute(log.since(), 'PATCH', DEPLOYMENT_PATH)).toHaveLength(0);
    expect(byRoute(log.since(), 'POST', REVISIONS_PATH)).toHaveLength(0);
  });
});
