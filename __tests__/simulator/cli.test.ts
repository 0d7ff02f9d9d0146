import { afterEach, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCliArgs } from '../../simulator/cli-args.js';
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

  it('reads every flag; --speed multiplies the timeline durations', () => {
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
      '--commit-sha',
      'abc',
    ]);
    expect(options).toMatchObject({
      port: 4100,
      apiKeys: ['k1'],
      requireTenant: true,
      rateLimit: { requests: 5, windowMs: 1000 },
      deleteDelayMs: 300,
      logsEndpoint: false,
      commitSha: 'abc',
    });
    const timeline = (options as { timeline: { durationMs: number }[] }).timeline;
    expect(timeline.map((s) => s.durationMs)).toEqual(
      DEFAULT_TIMELINE.map((s) => s.durationMs * 10),
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
    expect(() => parseCliArgs(['--bogus'])).toThrow();
  });
});

describe('npm run sim (spawned)', () => {
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
    child = spawn('npx', ['tsx', 'simulator/cli.ts', '--port', '0', '--api-key', 'cli-key'], {
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

    const without = await fetch(`${ready.url}/v2/deployments`);
    expect(without.status).toBe(401);
    const withKey = await fetch(`${ready.url}/v2/deployments`, {
      headers: { 'x-api-key': ready.apiKey },
    });
    expect(withKey.status).toBe(200);
    expect(await withKey.json()).toEqual({ resources: [], offset: 0 });
    expect(stdout).toContain(`Simulator listening at ${ready.url} (API key: cli-key)`);

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
