/**
 * Cold start: wall time of `node dist/index.js` failing on an input error (an empty
 * `api-key`, every other input at its action.yml default), and failing in pre-flight on a
 * broken `langgraph.json` (valid inputs; no request is sent), interleaved with runs of a bare
 * `node -e 0`, the floor no action can go under. Plus the size of the bundle: `dist/index.js`
 * (ncc's one entry) and its whole folder (the lazily loaded chunks, licenses.txt).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { actionDefaults, DIST } from '../scripts/run-action.js';
import { median } from './stats.js';

export interface ColdStartOptions {
  rounds: number;
  /** Rounds run first and not counted (file cache, JIT of the parent). */
  warmup: number;
  progress?: (line: string) => void;
}

export interface ColdStartResults {
  rounds: number;
  actionMs: number[];
  nodeMs: number[];
  /** `node empty.mjs`: the floor plus Node's ESM loader (for information). */
  esmMs: number[];
  /** Valid inputs, a `langgraph.json` with a syntax error: the pre-flight failure path. */
  preflightMs: number[];
  medianActionMs: number;
  medianNodeMs: number;
  /** median(action) / median(node -e 0). */
  ratio: number;
  indexBytes: number;
  distBytes: number;
  distFiles: number;
  /**
   * Node variables of the bench's own environment that change Node's start-up (e.g.
   * NODE_EXTRA_CA_CERTS, which loads certificates first: ~40 ms here), and the same two runs
   * with them set, for information. Absent when the environment has none.
   */
  inherited?: { names: string[]; actionMs: number[]; nodeMs: number[] };
  /** Set when a run did not fail the way it should (exit 1 with an error naming api-key). */
  problem?: string;
}

interface Timed {
  ms: number;
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Spawn → exit, in milliseconds; stdout and stderr are piped, as the runner does. */
function timeRun(args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<Timed> {
  const node = process.env.E2E_NODE || process.execPath;
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(node, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ ms: performance.now() - started, code, stdout, stderr }));
  });
}

/** The environment the runner gives the step, with an empty `api-key`. */
function runnerEnv(): { env: NodeJS.ProcessEnv; cwd: string } {
  const dir = mkdtempSync(join(tmpdir(), 'bench-cold-'));
  for (const file of ['output', 'summary']) writeFileSync(join(dir, file), '');
  writeFileSync(join(dir, 'event.json'), '{}');
  writeFileSync(join(dir, 'empty.mjs'), '');
  writeFileSync(join(dir, 'langgraph.json'), '{ "graphs": { "agent": "./agent.py:graph", } ');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? dir,
    GITHUB_ACTIONS: 'true',
    GITHUB_OUTPUT: join(dir, 'output'),
    GITHUB_STEP_SUMMARY: join(dir, 'summary'),
    GITHUB_EVENT_PATH: join(dir, 'event.json'),
    GITHUB_EVENT_NAME: 'push',
    GITHUB_REF: 'refs/heads/main',
    GITHUB_SHA: '0123456789abcdef0123456789abcdef01234567',
    GITHUB_REPOSITORY: 'acme/agent',
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_WORKSPACE: dir,
    RUNNER_TEMP: dir,
  };
  const inputs = { ...actionDefaults(), 'github-token': '', 'api-key': '' };
  for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.toUpperCase()}`] = value;
  return { env, cwd: dir };
}

/** Valid inputs for a deploy; the broken `langgraph.json` stops it before any request. */
function preflightEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return {
    ...env,
    'INPUT_API-KEY': 'lsv2_pt_bench_cold_start_key',
    // A loopback port nothing listens on: pre-flight must fail before anything is sent.
    'INPUT_CONTROL-PLANE-URL': 'http://127.0.0.1:9',
    INPUT_NAME: 'bench-cold',
    'INPUT_INTEGRATION-ID': '5c1a4b2e-8f3d-4e6a-9b7c-0d1e2f3a4b5c',
  };
}

function firstLine(text: string): string {
  return text.split('\n').find((line) => line.trim() !== '') ?? '(no output)';
}

function sizeOf(path: string): { bytes: number; files: number } {
  const stat = statSync(path);
  if (!stat.isDirectory()) return { bytes: stat.size, files: 1 };
  let bytes = 0;
  let files = 0;
  for (const entry of readdirSync(path)) {
    const sub = sizeOf(join(path, entry));
    bytes += sub.bytes;
    files += sub.files;
  }
  return { bytes, files };
}

/** Variables that change how Node starts; the runner-like environment leaves them out. */
const START_UP_VARIABLES = ['NODE_EXTRA_CA_CERTS', 'NODE_OPTIONS', 'NODE_USE_ENV_PROXY'];

export async function benchColdStart(options: ColdStartOptions): Promise<ColdStartResults> {
  const { env, cwd } = runnerEnv();
  const inheritedNames = START_UP_VARIABLES.filter((name) => process.env[name]);
  const inheritedEnv = { ...env };
  for (const name of inheritedNames) inheritedEnv[name] = process.env[name];
  const inherited =
    inheritedNames.length > 0
      ? { names: inheritedNames, actionMs: [] as number[], nodeMs: [] as number[] }
      : undefined;
  const actionMs: number[] = [];
  const nodeMs: number[] = [];
  const esmMs: number[] = [];
  const preflightMs: number[] = [];
  const broken = preflightEnv(env);
  let problem: string | undefined;
  for (let round = -options.warmup; round < options.rounds; round++) {
    // Alternate which goes first, so neither always runs right after the other.
    const action = async () => {
      const run = await timeRun([DIST], env, cwd);
      if (run.code !== 1 || !/^::error .*api-key/im.test(run.stdout)) {
        problem ??=
          `\`node dist/index.js\` with an empty api-key exited ${String(run.code)} ` +
          `(expected 1 with an ::error naming api-key): ${firstLine(run.stdout + run.stderr)}`;
      }
      if (round >= 0) actionMs.push(run.ms);
    };
    const preflight = async () => {
      const run = await timeRun([DIST], broken, cwd);
      if (run.code !== 1 || !/^::error .*langgraph\.json/im.test(run.stdout)) {
        problem ??=
          `\`node dist/index.js\` with a broken langgraph.json exited ${String(run.code)} ` +
          `(expected 1 with an ::error naming langgraph.json): ${firstLine(run.stdout + run.stderr)}`;
      }
      if (round >= 0) preflightMs.push(run.ms);
    };
    const bare = async () => {
      const run = await timeRun(['-e', '0'], env, cwd);
      if (round >= 0) nodeMs.push(run.ms);
    };
    const esm = async () => {
      const run = await timeRun([join(cwd, 'empty.mjs')], env, cwd);
      if (round >= 0) esmMs.push(run.ms);
    };
    const withInherited = async () => {
      if (!inherited) return;
      const a = await timeRun([DIST], inheritedEnv, cwd);
      const n = await timeRun(['-e', '0'], inheritedEnv, cwd);
      if (round >= 0) {
        inherited.actionMs.push(a.ms);
        inherited.nodeMs.push(n.ms);
      }
    };
    const order =
      round % 2 === 0
        ? [action, preflight, bare, esm, withInherited]
        : [withInherited, esm, bare, preflight, action];
    for (const step of order) await step();
    if (round >= 0 && (round + 1) % 10 === 0) {
      options.progress?.(`cold start: ${round + 1}/${options.rounds} rounds`);
    }
  }
  const index = sizeOf(DIST);
  const dist = sizeOf(dirname(DIST));
  const medianActionMs = median(actionMs);
  const medianNodeMs = median(nodeMs);
  return {
    rounds: options.rounds,
    actionMs,
    nodeMs,
    esmMs,
    preflightMs,
    medianActionMs,
    medianNodeMs,
    ratio: medianActionMs / medianNodeMs,
    indexBytes: index.bytes,
    distBytes: dist.bytes,
    distFiles: dist.files,
    ...(inherited && { inherited }),
    ...(problem !== undefined && { problem }),
  };
}
