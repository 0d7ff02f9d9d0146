/**
 * Runs `node dist/index.js` the way the GitHub runner does: inputs in `INPUT_<NAME>` variables
 * (upper-cased, `-` kept) with the defaults of action.yml filled in, outputs appended to the
 * file named by GITHUB_OUTPUT, the summary to GITHUB_STEP_SUMMARY, the event payload in the
 * file named by GITHUB_EVENT_PATH.
 *
 * E2E_NODE selects the Node binary (.ci/run sets it to Node 24); default: this process's.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readActionYml, ROOT } from './action-yml.js';
import { runnerView } from './runner-view.js';

export { ROOT };

/** The bundle to run: dist/index.js, or E2E_DIST (a bundle built with `--outdir`). */
export const DIST = process.env.E2E_DIST
  ? resolve(process.env.E2E_DIST)
  : join(ROOT, 'dist', 'index.js');

/** Default values of action.yml's inputs, as the runner would fill them in. */
export function actionDefaults(): Record<string, string> {
  const defaults: Record<string, string> = {};
  for (const [name, entry] of Object.entries(readActionYml().sections['inputs'] ?? {})) {
    if (entry['default'] !== undefined) defaults[name] = entry['default'];
  }
  return defaults;
}

export interface RunOptions {
  inputs: Record<string, string>;
  /** Extra or overriding environment variables. */
  env?: Record<string, string | undefined>;
  /**
   * The action's saved state (`STATE_<name>`), as the runner passes it to the post step: give
   * the `state` of the main step's result to run its post step.
   */
  state?: Record<string, string>;
  event?: { name: string; payload?: unknown };
  /** GITHUB_REF, default refs/heads/main. */
  ref?: string;
  sha?: string;
  workspace?: string;
  /** Sends this signal once `when(stdout)` is true. */
  signal?: { name: NodeJS.Signals; when: (stdout: string) => boolean };
  timeoutMs?: number;
  /**
   * Also print the action's stdout and stderr as they come, as the runner shows them in the
   * job's log (the demo; `RUNNER_DEBUG=1` shows the debug lines too).
   */
  echo?: boolean;
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  /** What the step saved for its post step (`core.saveState`, the GITHUB_STATE file). */
  state: Record<string, string>;
  summary: string;
  /** Milliseconds from spawn to exit. */
  elapsedMs: number;
  /** Milliseconds from the signal to exit, when one was sent. */
  afterSignalMs?: number;
  /** The `::error` / `::warning` / `::notice` lines, decoded. */
  annotations: { kind: string; props: string; message: string }[];
}

export function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^([^<]+)<<(.+)$/.exec(lines[i]!);
    if (!m) continue;
    const [, name, delimiter] = m;
    const value: string[] = [];
    for (i++; i < lines.length && lines[i] !== delimiter; i++) value.push(lines[i]!);
    outputs[name!] = value.join('\n');
  }
  return outputs;
}

function decode(s: string): string {
  return s
    .replace(/%0D/g, '\r')
    .replace(/%0A/g, '\n')
    .replace(/%3A/g, ':')
    .replace(/%2C/g, ',')
    .replace(/%25/g, '%');
}

export function parseAnnotations(stdout: string): RunResult['annotations'] {
  const out: RunResult['annotations'] = [];
  for (const line of stdout.split('\n')) {
    const m = /^::(error|warning|notice)( [^:]*)?::(.*)$/.exec(line);
    if (m) out.push({ kind: m[1]!, props: decode(m[2]?.trim() ?? ''), message: decode(m[3]!) });
  }
  return out;
}

export async function runAction(options: RunOptions): Promise<RunResult> {
  const dir = mkdtempSync(join(tmpdir(), 'e2e-'));
  const outputFile = join(dir, 'output');
  const summaryFile = join(dir, 'summary');
  const stateFile = join(dir, 'state');
  const eventFile = join(dir, 'event.json');
  writeFileSync(outputFile, '');
  writeFileSync(summaryFile, '');
  writeFileSync(stateFile, '');
  writeFileSync(eventFile, JSON.stringify(options.event?.payload ?? {}));
  const workspace = options.workspace ?? mkdtempSync(join(tmpdir(), 'ws-'));

  const inputs = { ...actionDefaults(), 'github-token': '', ...options.inputs };
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? dir,
    GITHUB_ACTIONS: 'true',
    GITHUB_OUTPUT: outputFile,
    GITHUB_STEP_SUMMARY: summaryFile,
    GITHUB_STATE: stateFile,
    GITHUB_EVENT_PATH: eventFile,
    GITHUB_EVENT_NAME: options.event?.name ?? 'push',
    GITHUB_REF: options.ref ?? 'refs/heads/main',
    GITHUB_SHA: options.sha ?? '0123456789abcdef0123456789abcdef01234567',
    GITHUB_REPOSITORY: 'acme/agent',
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_API_URL: 'https://api.github.invalid',
    GITHUB_RUN_ID: '4242',
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_WORKSPACE: workspace,
    RUNNER_TEMP: dir,
  };
  for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.toUpperCase()}`] = value;
  for (const [name, value] of Object.entries(options.state ?? {})) env[`STATE_${name}`] = value;
  for (const [k, v] of Object.entries(options.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }

  const node = process.env.E2E_NODE || process.execPath;
  if (!existsSync(DIST)) throw new Error(`${DIST} is missing: run \`npm run package\` first`);
  const started = performance.now();
  const child = spawn(node, [DIST], { env, cwd: workspace, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let signalledAt: number | undefined;
  const view = options.echo
    ? runnerView((text) => process.stdout.write(text), { debug: process.env.RUNNER_DEBUG === '1' })
    : undefined;
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
    view?.push(d);
    if (options.signal && signalledAt === undefined && options.signal.when(stdout)) {
      signalledAt = performance.now();
      child.kill(options.signal.name);
    }
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
    if (view) process.stderr.write(view.mask(d));
  });
  const timeoutMs = options.timeoutMs ?? 60000;
  const code = await new Promise<number | null>((resolveExit, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`action did not exit within ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    // 'close', not 'exit': only then has all of stdout and stderr been read from the pipes.
    child.on('close', (c) => {
      clearTimeout(timer);
      view?.end();
      resolveExit(c);
    });
  });
  const ended = performance.now();
  return {
    code,
    stdout,
    stderr,
    outputs: parseOutputs(readFileSync(outputFile, 'utf8')),
    state: parseOutputs(readFileSync(stateFile, 'utf8')),
    summary: readFileSync(summaryFile, 'utf8'),
    elapsedMs: ended - started,
    afterSignalMs: signalledAt === undefined ? undefined : ended - signalledAt,
    annotations: parseAnnotations(stdout),
  };
}
