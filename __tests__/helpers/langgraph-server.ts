/**
 * Starts a REAL LangGraph agent server (`langgraphjs dev` from @langchain/langgraph-cli,
 * installed in fixtures/agent-app) on 127.0.0.1 with a port chosen by the system.
 *
 * What the server does that we have to work around (measured on CLI 2.0.0):
 * - it posts analytics to an outside host at every start unless LANGGRAPH_CLI_NO_ANALYTICS=1;
 * - it writes `.gitignore` and `.langgraph_api/` into the graph's folder: we run it on a
 *   temporary copy of the fixture (its node_modules linked, not copied);
 * - it spawns children (`tsx watch`, the server, esbuild): it runs in its own process group
 *   (detached) and `stop()` signals the whole group;
 * - with `--port 0` the chosen port appears only in its log line
 *   `Server running at 127.0.0.1:<port>`, which is how readiness is detected (no fixed sleep).
 *
 * Graphs (fixtures/agent-app/langgraph.json): `echo` answers `{output: "echo: <input>"}`,
 * `boom` throws "boom: this graph always fails", `ask` waits for human input (interrupt).
 */
import { describe } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';

export const FIXTURE_DIR = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'fixtures',
  'agent-app',
);

export interface LangGraphServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Milliseconds from spawn to the "Server running" line. */
  startupMs: number;
  /** What the server printed so far (ANSI colours removed). */
  logs(): string;
  /** Stops the whole process group and removes the temporary copy. Idempotent. */
  stop(): Promise<void>;
}

export interface StartOptions {
  /** How long to wait for the "Server running" line; default 90 s (2 shared cores). */
  readyTimeoutMs?: number;
  /**
   * Variables set over the defaults, e.g. tracing pointed at the simulator
   * (`LANGSMITH_TRACING: 'true'`, `LANGSMITH_ENDPOINT`, `LANGSMITH_API_KEY`).
   */
  env?: Record<string, string>;
}

/** Whether `npm ci --prefix fixtures/agent-app` has been run. */
export function fixtureInstalled(): boolean {
  return existsSync(
    join(FIXTURE_DIR, 'node_modules', '@langchain', 'langgraph-cli', 'package.json'),
  );
}

/**
 * Whether a test needing the server should be skipped: only when the fixture is not
 * installed AND this is not CI (in CI a missing install must fail, not hide the tests).
 */
function skipWithoutFixture(): boolean {
  return !fixtureInstalled() && process.env['CI'] !== 'true';
}

const SKIP_MESSAGE =
  'Skipping the LangGraph agent server tests: fixtures/agent-app/node_modules is missing. ' +
  'Run `npm run test:setup` (npm ci --prefix fixtures/agent-app) to run them (in CI they always run).';

/**
 * `describe` for tests that need the real agent server, or `describe.skip` (saying why and
 * how to enable them) when the fixture app is not installed; in CI they always run.
 */
export function describeWithServer(): typeof describe.skip {
  const skip = skipWithoutFixture();
  if (skip) console.warn(SKIP_MESSAGE);
  return skip ? describe.skip : describe;
}

const READY_LINE = /Server running at (127\.0\.0\.1):(\d+)/;

function cliPath(): string {
  const pkgDir = join(FIXTURE_DIR, 'node_modules', '@langchain', 'langgraph-cli');
  const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as {
    bin: Record<string, string>;
  };
  const bin = pkg.bin['langgraphjs'];
  if (!bin) throw new Error('@langchain/langgraph-cli has no `langgraphjs` bin');
  return join(pkgDir, bin);
}

/**
 * The server's environment: no analytics, and unless `extra` says otherwise no tracing and no
 * key that could reach LangSmith.
 */
function serverEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) {
    if (/^(LANGSMITH|LANGCHAIN|LANGGRAPH)_/.test(name) || name.startsWith('INPUT_')) {
      delete env[name];
    }
  }
  return {
    ...env,
    LANGSMITH_TRACING: 'false',
    LANGCHAIN_TRACING_V2: 'false',
    LANGGRAPH_CLI_NO_ANALYTICS: '1',
    BROWSER: 'none',
    NO_COLOR: '1',
    FORCE_COLOR: '0',
    ...extra,
  };
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/** Waits (bounded) until every process of the group has exited. */
async function waitGroupGone(pid: number, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (groupAlive(pid)) {
    if (Date.now() >= until) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

export async function startLangGraphServer(options: StartOptions = {}): Promise<LangGraphServer> {
  if (!fixtureInstalled()) {
    throw new Error(
      'fixtures/agent-app/node_modules is missing: run `npm ci --prefix fixtures/agent-app`.',
    );
  }
  const readyTimeoutMs = options.readyTimeoutMs ?? 90_000;
  const dir = await mkdtemp(join(tmpdir(), 'langgraph-agent-'));
  await cp(join(FIXTURE_DIR, 'langgraph.json'), join(dir, 'langgraph.json'));
  await cp(join(FIXTURE_DIR, 'package.json'), join(dir, 'package.json'));
  await cp(join(FIXTURE_DIR, 'src'), join(dir, 'src'), { recursive: true });
  await symlink(join(FIXTURE_DIR, 'node_modules'), join(dir, 'node_modules'), 'dir');

  const started = performance.now();
  const child: ChildProcess = spawn(
    process.execPath,
    [
      cliPath(),
      'dev',
      '--port',
      '0',
      '--host',
      '127.0.0.1',
      '--no-browser',
      '--config',
      join(dir, 'langgraph.json'),
    ],
    { cwd: dir, env: serverEnv(options.env), detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const pid = child.pid;
  if (pid === undefined) {
    await rm(dir, { recursive: true, force: true });
    throw new Error('Could not spawn `langgraphjs dev`.');
  }

  let output = '';
  let stopped = false;
  // If the test process dies without calling stop(), do not leave the server behind.
  const onExit = () => signalGroup(pid, 'SIGKILL');
  process.on('exit', onExit);

  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    signalGroup(pid, 'SIGTERM');
    if (!(await waitGroupGone(pid, 5000))) {
      signalGroup(pid, 'SIGKILL');
      await waitGroupGone(pid, 5000);
    }
    child.stdout?.destroy();
    child.stderr?.destroy();
    process.off('exit', onExit);
    await rm(dir, { recursive: true, force: true });
  };

  try {
    const port = await new Promise<number>((resolvePort, reject) => {
      const timer = setTimeout(() => {
        finish(
          new Error(
            `langgraphjs dev printed no "Server running at" line within ${readyTimeoutMs} ms. ` +
              `Its log:\n${output.slice(-4000)}`,
          ),
        );
      }, readyTimeoutMs);
      const onData = (chunk: Buffer) => {
        output += stripVTControlCharacters(chunk.toString('utf8'));
        const match = READY_LINE.exec(output);
        if (match) finish(undefined, Number(match[2]));
      };
      const onChildExit = (code: number | null, signal: NodeJS.Signals | null) => {
        finish(
          new Error(
            `langgraphjs dev exited (${signal ?? `code ${code}`}) before it was ready. ` +
              `Its log:\n${output.slice(-4000)}`,
          ),
        );
      };
      const finish = (error?: Error, value?: number) => {
        clearTimeout(timer);
        child.off('exit', onChildExit);
        if (error) reject(error);
        else resolvePort(value as number);
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
      child.once('exit', onChildExit);
      child.once('error', (error) => finish(error));
    });
    return {
      url: `http://127.0.0.1:${port}`,
      startupMs: Math.round(performance.now() - started),
      logs: () => output,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
