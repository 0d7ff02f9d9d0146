import { afterEach, describe, expect, it } from '@jest/globals';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FLAGS, parseCliArgs, parseFault, USAGE } from '../../simulator/cli-args.js';
import { DEFAULT_TIMELINE } from '../../simulator/index.js';

describe('CLI flags', () => {
  it('defaults to a free loopback port and the default timeline', () => {
    expect(parseCliArgs([])).toMatchObject({
      port: 0,
      host: '127.0.0.1',
      timeline: DEFAULT_TIMELINE,
      requireTenant: false,
      logsEndpoint: true,
    });
  });

  it('reads every flag; --speed 10 runs the timeline ten times faster', () => {
    const options = parseCliArgs([
      '--port=4100',
      '--api-key',
      'k1',
      '--speed',
      '10',
      '--require-tenant',
      '--rate-limit',
      '5/1000',
      '--delete-delay',
      '300',
      '--no-logs',
      '--no-revisions-endpoint',
      '--no-interruption-path',
      '--commit-sha',
      'abc',
      '--no-supersede',
      '--graphs',
      'agent,other',
      '--agent-run',
      'error',
      '--unhealthy',
      '2',
      '--fault',
      'status=503,method=get,times=3',
      '--evaluator-delay',
      '2000',
      '--langsmith-seed',
      'seed.json',
    ]);
    expect(options).toMatchObject({
      port: 4100,
      apiKeys: ['k1'],
      requireTenant: true,
      rateLimit: { requests: 5, windowMs: 1000 },
      deleteDelayMs: 300,
      logsEndpoint: false,
      revisionsEndpoint: false,
      interruptionPath: false,
      commitSha: 'abc',
      supersede: false,
      agent: { graphs: ['agent', 'other'], run: 'error', unhealthyCount: 2 },
      faults: [{ kind: 'status', status: 503, method: 'GET', times: 3 }],
      langsmith: { evaluatorDelayMs: 2000 },
      langsmithSeed: 'seed.json',
    });
    const timeline = (options as { timeline: { durationMs: number }[] }).timeline;
    expect(timeline.map((s) => s.durationMs)).toEqual(
      DEFAULT_TIMELINE.map((s) => Math.round(s.durationMs / 10)),
    );
    const slower = parseCliArgs(['--speed', '0.5']) as { timeline: { durationMs: number }[] };
    expect(slower.timeline.map((s) => s.durationMs)).toEqual(
      DEFAULT_TIMELINE.map((s) => s.durationMs * 2),
    );
    expect(parseCliArgs(['--timeline', 'QUEUED:1000,BUILDING:3000,DEPLOYED:0'])).toMatchObject({
      timeline: [
        { status: 'QUEUED', durationMs: 1000 },
        { status: 'BUILDING', durationMs: 3000 },
        { status: 'DEPLOYED', durationMs: 0 },
      ],
    });
  });

  it('names the flag of a wrong value', () => {
    expect(() => parseCliArgs(['--rate-limit', '5'])).toThrow(/--rate-limit/);
    expect(() => parseCliArgs(['--speed', 'fast'])).toThrow(/--speed/);
    expect(() => parseCliArgs(['--port', '-1'])).toThrow(/--port/);
    expect(() => parseCliArgs(['--speed', '0'])).toThrow(/--speed/);
    expect(() => parseCliArgs(['--agent-run', 'crash'])).toThrow(/--agent-run/);
    expect(() => parseCliArgs(['--fault', 'explode'])).toThrow(/--fault "explode"/);
    expect(() => parseCliArgs(['--fault', 'status=abc'])).toThrow(/status code/);
    expect(() => parseCliArgs(['--fault', 'reset,where=x'])).toThrow(/unknown part/);
    expect(() => parseCliArgs(['--bogus'])).toThrow();
    expect(() => parseCliArgs(['--evaluator-delay', 'soon'])).toThrow(/--evaluator-delay/);
  });

  it('parses every fault kind, with method, exact or regular-expression path and times', () => {
    expect(parseFault('reset')).toEqual({ kind: 'reset' });
    expect(parseFault('commit-then-reset,method=POST,path=/v2/deployments')).toEqual({
      kind: 'commit-then-reset',
      method: 'POST',
      path: '/v2/deployments',
    });
    expect(parseFault('commit-then-status=500')).toEqual({
      kind: 'commit-then-status',
      status: 500,
    });
    expect(parseFault('delay=2000,times=2')).toEqual({ kind: 'delay', ms: 2000, times: 2 });
    expect(parseFault('malformed-json,path=~^/v2/deployments/[^/]+$')).toEqual({
      kind: 'malformed-json',
      path: /^\/v2\/deployments\/[^/]+$/,
    });
  });

  it('--help documents every flag and every fault kind', () => {
    for (const flag of Object.keys(FLAGS)) expect(USAGE).toContain(`--${flag}`);
    for (const kind of ['status=', 'reset', 'commit-then-reset', 'commit-then-status=', 'delay=']) {
      expect(USAGE).toContain(kind);
    }
    expect(USAGE).toContain('malformed-json');
    expect(USAGE).toMatch(/--speed X .*faster/);
    expect(USAGE).toContain('SIM_READY_FILE');
    expect(parseCliArgs(['--help'])).toBe('help');
  });
});

describe('npm run sim (spawned)', () => {
  it('--help prints the whole usage and exits 0', () => {
    const r = spawnSync('npx', ['tsx', 'simulator/cli.ts', '--help'], {
      cwd: process.cwd(),
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe(USAGE);
  }, 30_000);

  let child: ChildProcess | undefined;
  let dir: string | undefined;
  afterEach(() => {
    if (child && child.exitCode === null && child.signalCode === null) {
      process.kill(-child.pid!, 'SIGKILL');
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('announces its URL, writes SIM_READY_FILE, checks the key and stops on SIGTERM', async () => {
    dir = mkdtempSync(join(tmpdir(), 'sim-cli-'));
    const readyFile = join(dir, 'ready.json');
    const seed = join(dir, 'seed.json');
    const example = { inputs: { input: 'hi' }, outputs: { output: 'echo: hi' } };
    const dataset = { name: 'qa', examples: [example], evaluators: [{ key: 'correctness' }] };
    const experiment = { name: 'prod', dataset: 'qa', scores: { correctness: 1 } };
    writeFileSync(seed, JSON.stringify({ datasets: [dataset], experiments: [experiment] }));
    const args = ['--port', '0', '--api-key', 'cli-key', '--fault', 'status=503,method=GET'];
    args.push('--langsmith-seed', seed);
    child = spawn('npx', ['tsx', 'simulator/cli.ts', ...args], {
      cwd: process.cwd(),
      env: { ...process.env, SIM_READY_FILE: readyFile },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // its own process group, so the whole npx → tsx → node chain is stopped
    });
    let stdout = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child!.once('exit', resolve));

    const deadline = Date.now() + 20_000;
    while (!existsSync(readyFile)) {
      if (Date.now() > deadline) throw new Error(`No ready file within 20 s; stdout: ${stdout}`);
      if (child.exitCode !== null) throw new Error(`The CLI exited early; stdout: ${stdout}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const ready = JSON.parse(readFileSync(readyFile, 'utf8')) as { url: string; apiKey: string };
    expect(ready.apiKey).toBe('cli-key');
    expect(ready.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    // The --fault from the command line answers the first GET.
    const faulted = await fetch(`${ready.url}/v2/deployments`, {
      headers: { 'x-api-key': ready.apiKey },
    });
    expect(faulted.status).toBe(503);
    const without = await fetch(`${ready.url}/v2/deployments`);
    expect(without.status).toBe(401);
    const withKey = await fetch(`${ready.url}/v2/deployments`, {
      headers: { 'x-api-key': ready.apiKey },
    });
    expect(withKey.status).toBe(200);
    expect(await withKey.json()).toEqual({ resources: [], offset: 0 });
    expect(stdout).toContain(`Simulator listening at ${ready.url} (API key: cli-key)`);
    // The --langsmith-seed file: its dataset and its experiment with the scores.
    const sessions = await fetch(`${ready.url}/api/v1/sessions?include_stats=true`, {
      headers: { 'x-api-key': ready.apiKey },
    });
    expect(await sessions.json()).toMatchObject([
      { name: 'prod', run_count: 1, feedback_stats: { correctness: { n: 1, avg: 1 } } },
    ]);

    process.kill(-child.pid!, 'SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const stopped = await Promise.race([
      exited.then(() => true),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), 10_000))),
    ]);
    clearTimeout(timer);
    expect(stopped).toBe(true);
    await expect(fetch(`${ready.url}/v2/deployments`)).rejects.toThrow();
  }, 40_000);
});
