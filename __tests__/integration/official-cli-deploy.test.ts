/**
 * The simulator accepts what the official clients send: LangChain's own JS CLI
 * (`@langchain/langgraph-cli` 1.5.1, pinned in fixtures/deploy-cli: the last release with
 * `deploy`) runs its remote build end to end against the simulator, as a new user would try
 * it: `langgraphjs deploy --remote --no-input --json --host-url <sim> --api-key <key>`.
 *
 * Loopback only: `--host-url` is the simulator, the signed upload URL it hands out is its
 * loopback storage, analytics are off (`LANGGRAPH_CLI_NO_ANALYTICS=1`), no proxy or LangSmith
 * variable is passed on, and a preloaded guard makes any `fetch` or socket to another host
 * fail the run (the test checks the guard saw none). Bounded: every run is killed after 90 s.
 *
 * Skipped (with a message) only when fixtures/deploy-cli/node_modules is missing outside CI.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { startSimulator, type Simulator } from '../../simulator/index.js';
import { BUILD_ERROR } from '../../simulator/logs.js';

const CLI_DIR = join(process.cwd(), 'fixtures', 'deploy-cli');
const CLI_PKG = join(CLI_DIR, 'node_modules', '@langchain', 'langgraph-cli');
const installed = existsSync(join(CLI_PKG, 'package.json'));
const skip = !installed && process.env['CI'] !== 'true';
if (skip) {
  console.warn(
    'Skipping the official CLI deploy test: fixtures/deploy-cli/node_modules is missing. ' +
      'Run `npm run test:setup` to run it (in CI it always runs).',
  );
}
const describeCli = skip ? describe.skip : describe;

/** Refuses every connection that is not to a loopback host, and records the attempt. */
const GUARD = `
import net from 'node:net';
import { appendFileSync } from 'node:fs';
const loopback = (h) => h === undefined || h === 'localhost' || h === '::1' || h === '[::1]' || /^127\\./.test(h);
const refuse = (what) => { appendFileSync(process.env.CLI_GUARD_LOG, what + '\\n'); throw new Error('non-loopback ' + what); };
const realFetch = globalThis.fetch;
globalThis.fetch = (input, init) => {
  const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
  if (!loopback(url.hostname)) refuse('fetch ' + url.host);
  return realFetch(input, init);
};
const realConnect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  const o = typeof args[0] === 'object' && args[0] !== null ? args[0] : { host: args[1] };
  if (o.path === undefined && !loopback(o.host)) refuse('socket ' + o.host);
  return realConnect.apply(this, args);
};
`;

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The JSON lines of `--json`. */
  events: Record<string, unknown>[];
}

describeCli('the official JS CLI (langgraphjs deploy --remote) against the simulator', () => {
  let sim: Simulator;
  let project: string;
  let guardLog: string;

  function runCli(name: string): Promise<CliRun> {
    const bin = join(CLI_PKG, 'dist', 'cli', 'cli.mjs');
    const env: Record<string, string> = {
      PATH: process.env['PATH'] ?? '',
      HOME: project,
      LANGGRAPH_CLI_NO_ANALYTICS: '1',
      CLI_GUARD_LOG: guardLog,
      NODE_OPTIONS: `--import=${join(project, '..', 'guard.mjs')}`,
      NO_COLOR: '1',
    };
    const args = [
      bin,
      'deploy',
      '--remote',
      '--no-input',
      '--json',
      '--host-url',
      sim.url,
      '--api-key',
      sim.apiKey,
      '--name',
      name,
      '-c',
      'langgraph.json',
    ];
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, args, { cwd: project, env, stdio: 'pipe' });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`langgraphjs deploy did not finish within 90 s:\n${stdout}\n${stderr}`));
      }, 90_000);
      child.on('error', reject);
      child.on('exit', (code) => {
        clearTimeout(timer);
        const events = stdout
          .split('\n')
          .filter((l) => l.trim().startsWith('{'))
          .map((l) => JSON.parse(l) as Record<string, unknown>);
        resolve({ code, stdout, stderr, events });
      });
    });
  }

  beforeAll(async () => {
    sim = await startSimulator({ host: '127.0.0.1' });
    const root = mkdtempSync(join(tmpdir(), 'official-cli-'));
    project = join(root, 'agent');
    guardLog = join(root, 'guard.log');
    writeFileSync(join(root, 'guard.mjs'), GUARD);
    writeFileSync(guardLog, '');
    rmSync(project, { recursive: true, force: true });
    const { mkdirSync } = await import('node:fs');
    mkdirSync(project);
    writeFileSync(
      join(project, 'langgraph.json'),
      JSON.stringify({ node_version: '20', graphs: { agent: './graph.mjs:graph' }, env: '.env' }),
    );
    writeFileSync(join(project, 'graph.mjs'), 'export const graph = {};\n');
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'cli-agent', private: true, type: 'module' }),
    );
    writeFileSync(join(project, '.env'), 'OPENAI_API_KEY=sk-cli-test\n');
  }, 30_000);

  afterAll(async () => {
    await sim?.close();
    if (project) rmSync(join(project, '..'), { recursive: true, force: true });
  });

  beforeEach(() => {
    sim.setTimeline([
      { status: 'QUEUED', durationMs: 20 },
      { status: 'BUILDING', durationMs: 20 },
      { status: 'DEPLOYED', durationMs: 0 },
    ]);
  });

  it('creates the deployment, uploads the source to the signed URL and follows it to DEPLOYED', async () => {
    const run = await runCli('cli-agent');
    expect([run.code, run.stderr.slice(-600), run.stdout.slice(-600)]).toEqual([
      0,
      expect.any(String),
      expect.any(String),
    ]);
    const [dep] = sim.deployments().filter((d) => d.name === 'cli-agent');
    expect(dep).toMatchObject({ source: 'internal_source' });
    expect(dep!.secrets).toEqual([{ name: 'OPENAI_API_KEY', value: 'sk-cli-test' }]);
    expect(sim.revisions(dep!.id)[0]).toMatchObject({ status: 'DEPLOYED' });
    // The PUT carried fetch's own unsigned headers, and the stand-in took it as GCS does.
    const put = sim.storage.requests.find((r) => r.method === 'PUT');
    expect(put).toMatchObject({ status: 200 });
    expect(put!.headers).toEqual(expect.arrayContaining(['user-agent', 'accept']));
    expect(put!.headers).not.toContain('x-api-key');
    expect(run.events.at(-1)).toMatchObject({ event: 'result', status: 'succeeded' });
    expect(readFileSync(guardLog, 'utf8')).toBe('');
  }, 120_000);

  it('reports a failed build of an update with the tail of its build log', async () => {
    sim.setTimeline([
      { status: 'QUEUED', durationMs: 20 },
      { status: 'BUILDING', durationMs: 20 },
      { status: 'BUILD_FAILED', durationMs: 0 },
    ]);
    const run = await runCli('cli-agent');
    expect(run.code).not.toBe(0);
    expect(run.events.at(-1)).toMatchObject({ event: 'result', status: 'failed' });
    const logs = run.events.filter((e) => e['event'] === 'log').map((e) => e['message']);
    expect(run.events).toContainEqual({ event: 'error', message: 'Last build log lines:' });
    expect(logs).toContain(
      'Unpacking the uploaded source ' + sim.storage.requests.at(-1)!.objectPath,
    );
    expect(logs.at(-1)).toBe(BUILD_ERROR);
    const [dep] = sim.deployments().filter((d) => d.name === 'cli-agent');
    expect(sim.revisions(dep!.id).map((r) => r.status)).toEqual(['BUILD_FAILED', 'DEPLOYED']);
    expect(readFileSync(guardLog, 'utf8')).toBe('');
  }, 120_000);
});
