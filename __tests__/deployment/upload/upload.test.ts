/**
 * Integration over loopback HTTP: the PUT of the archive (`putArchive`) against the
 * simulator's storage server, and what the storage and the control plane refuse: a credential
 * or a missing or changed signed header on the signed URL (unsigned extras pass), an expired URL, a PATCH naming an object that was not
 * uploaded. Retry waits go through a FakeClock, so nothing sleeps for real.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { ActionError, DeadlineError } from '../../../src/lib/errors.js';
import type { Logger } from '../../../src/lib/untrusted.js';
import { putArchive, uploadHeaders } from '../../../src/deployment/upload/upload.js';
import { Deadline } from '../../../src/lib/time.js';
import { FakeClock } from '../../helpers/fakes.js';
import { startSimulator, type Simulator } from '../../../simulator/index.js';
import { call } from '../../simulator/helpers.js';

const quiet: Logger = { info() {}, debug() {}, notice() {}, warning() {}, error() {} };

let sim: Simulator;
let dir: string;
let file: string;
const body = randomBytes(100_000);

beforeAll(async () => {
  sim = await startSimulator();
  dir = mkdtempSync(join(tmpdir(), 'upload-int-'));
  file = join(dir, 'source.tar.gz');
  writeFileSync(file, body);
});

afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => sim.reset());

async function uploadDeployment(): Promise<{ id: string; url: string; objectPath: string }> {
  const created = await call(sim, 'POST', '/v2/deployments', {
    body: {
      name: `up-${Math.random().toString(36).slice(2, 8)}`,
      source: 'internal_source',
      source_config: { deployment_type: 'dev' },
      source_revision_config: { langgraph_config_path: 'langgraph.json' },
      secrets: [],
    },
  });
  expect(created.status).toBe(201);
  const { id, latest_revision_id } = created.body as { id: string; latest_revision_id: null };
  expect(latest_revision_id).toBeNull(); // the build starts with the PATCH
  const issued = await call(sim, 'POST', `/v2/deployments/${id}/upload-url`);
  expect(issued.status).toBe(200);
  const { upload_url, object_path } = issued.body as { upload_url: string; object_path: string };
  return { id, url: upload_url, objectPath: object_path };
}

function ctx(clock = new FakeClock(), seconds = 60) {
  return {
    clock,
    deadline: new Deadline(clock, clock.now() + seconds * 1000),
    logger: quiet,
    random: () => 0.5,
  };
}

describe('putArchive', () => {
  it('uploads the file with exactly the three headers and no credential', async () => {
    const { url, objectPath } = await uploadDeployment();
    await putArchive(ctx(), url, file, body.length);
    const stored = sim.storage.objects.get(objectPath);
    expect(stored?.bytes).toBe(body.length);
    expect(stored?.body?.equals(body)).toBe(true);
    const put = sim.storage.requests.at(-1)!;
    expect(put.headers.filter((h) => h !== 'host' && h !== 'connection').sort()).toEqual([
      'content-length',
      'content-type',
      'x-goog-content-length-range',
    ]);
  });

  it('retries 5xx and resets within the budget', async () => {
    const { url, objectPath } = await uploadDeployment();
    sim.inject({ method: 'PUT', path: /^\/storage\//, kind: 'status', status: 503 });
    sim.inject({ method: 'PUT', path: /^\/storage\//, kind: 'reset' });
    const clock = new FakeClock();
    await putArchive(ctx(clock), url, file, body.length);
    expect(clock.sleeps).toHaveLength(2);
    expect(sim.storage.objects.has(objectPath)).toBe(true);
  });

  it('gives up with a deadline error rather than retrying past the timeout', async () => {
    const { url } = await uploadDeployment();
    sim.inject({ method: 'PUT', path: /^\/storage\//, kind: 'status', status: 503, times: 10 });
    const clock = new FakeClock();
    await expect(putArchive(ctx(clock, 0.001), url, file, body.length)).rejects.toBeInstanceOf(
      DeadlineError,
    );
    sim.clearFaults();
  });

  it('reports an expired URL clearly, without retrying it', async () => {
    const { url } = await uploadDeployment();
    sim.storage.expireAll();
    const before = sim.storage.requests.length;
    const error = await putArchive(ctx(), url, file, body.length).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ActionError);
    expect((error as Error).message).toMatch(/HTTP 400 ExpiredToken.*expired/s);
    expect(sim.storage.requests.length - before).toBe(1);
  });

  it('reports a refused signature (a URL not issued) as a refusal', async () => {
    const { url } = await uploadDeployment();
    const forged = url.replace(/X-Goog-Signature=[0-9a-f]+/, 'X-Goog-Signature=00');
    await expect(putArchive(ctx(), forged, file, body.length)).rejects.toThrow(
      /HTTP 403 SignatureDoesNotMatch/,
    );
  });
});

describe('the simulated storage and control plane', () => {
  it('refuses an API key or a missing or changed signed header, and accepts unsigned extras', async () => {
    const { url } = await uploadDeployment();
    const withKey = await fetch(url, {
      method: 'PUT',
      headers: { ...uploadHeaders(body.length), 'X-Api-Key': sim.apiKey },
      body,
    });
    expect(withKey.status).toBe(400);
    expect(await withKey.text()).toContain('CredentialsNotAllowed');
    const { 'X-Goog-Content-Length-Range': _range, ...unsignedRange } = uploadHeaders(body.length);
    const missing = await fetch(url, { method: 'PUT', headers: unsignedRange, body });
    expect(missing.status).toBe(403);
    expect(await missing.text()).toContain('x-goog-content-length-range');
    const changed = await fetch(url, {
      method: 'PUT',
      headers: { ...uploadHeaders(body.length), 'Content-Type': 'application/octet-stream' },
      body,
    });
    expect(changed.status).toBe(403);
    // fetch adds headers of its own (accept, user-agent, accept-encoding, …): they are not
    // signed, so a real signed URL accepts them, and so does the stand-in.
    const extra = await fetch(url, {
      method: 'PUT',
      headers: { ...uploadHeaders(body.length), 'X-Client': 'langgraph-cli' },
      body,
    });
    expect(extra.status).toBe(200);
  });

  it('accepts the PATCH only for an object path issued to this deployment and uploaded', async () => {
    const { id, url, objectPath } = await uploadDeployment();
    const patch = (path: string) =>
      call(sim, 'PATCH', `/v2/deployments/${id}`, {
        body: {
          revision_source: 'internal_source',
          source_revision_config: {
            source_tarball_path: path,
            langgraph_config_path: 'langgraph.json',
          },
        },
      });
    expect((await patch(objectPath)).status).toBe(400); // issued, not uploaded yet
    expect((await patch('uploads/other/file.tar.gz')).status).toBe(400);
    await putArchive(ctx(), url, file, body.length);
    const ok = await patch(objectPath);
    expect(ok.status).toBe(200);
    expect((ok.body as { latest_revision_id: string | null }).latest_revision_id).not.toBeNull();
  });
});
