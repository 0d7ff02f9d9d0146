/** Temporary workspaces for the pre-flight tests. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Finding } from '../../src/preflight/index.js';
import { preflightConfig } from '../../src/preflight/index.js';

const created: string[] = [];

/** A workspace holding `files` (path → content; objects are written as JSON). */
export function makeWorkspace(files: Record<string, string | object>): string {
  const root = mkdtempSync(join(tmpdir(), 'preflight-'));
  created.push(root);
  for (const [path, content] of Object.entries(files)) {
    const target = join(root, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  }
  return root;
}

export function removeWorkspaces(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A config that passes every check, with the file its graph names. */
export const VALID = { dependencies: ['.'], graphs: { agent: './src/agent.py:graph' } };
export const VALID_FILES = { 'src/agent.py': 'graph = None\n' };

/** Runs the checks on `config` (object → pretty JSON, string → as is) at langgraph.json. */
export function check(
  config: object | string,
  options: {
    files?: Record<string, string | object>;
    secretNames?: string[];
    configPath?: string;
  } = {},
) {
  const configPath = options.configPath ?? 'langgraph.json';
  const workspace = makeWorkspace({ ...VALID_FILES, ...options.files, [configPath]: config });
  const secrets = options.secretNames?.map((name) => ({ name, value: 'x' }));
  return { workspace, ...preflightConfig({ github: { workspace }, configPath, secrets }) };
}

export const errors = (r: { findings: Finding[] }): Finding[] =>
  r.findings.filter((f) => f.level === 'error');
export const warnings = (r: { findings: Finding[] }): Finding[] =>
  r.findings.filter((f) => f.level === 'warning');
export const keys = (findings: Finding[]): (string | undefined)[] => findings.map((f) => f.key);
