/**
 * The files changed between two commits from the checkout's own git history, for
 * `skip-unchanged` when GitHub's compare API cannot be read. Only when the checkout holds both
 * commits (`actions/checkout` with `fetch-depth: 0`, or deep enough) and the live commit is an
 * ancestor of this one; renames are listed as a removal and an addition (both paths count).
 * Bounded by a timeout; nothing here throws.
 */
import { execFile } from 'node:child_process';
import type { ChangedFile } from '../../deployment/agent-files.js';
import type { Comparison } from './compare.js';

const HEX = /^[0-9a-f]{7,64}$/i;
export const GIT_TIMEOUT_MS = 10_000;

/** `git diff --name-status -z` output: status, NUL, path, NUL, … (no renames: one path each). */
export function parseNameStatus(text: string): ChangedFile[] | undefined {
  const parts = text.split('\0');
  if (parts[parts.length - 1] === '') parts.pop();
  if (parts.length % 2 !== 0) return undefined;
  const files: ChangedFile[] = [];
  for (let i = 0; i < parts.length; i += 2) {
    const code = parts[i]!.charAt(0);
    const status = code === 'A' ? 'added' : code === 'D' ? 'removed' : 'modified';
    files.push({ filename: parts[i + 1]!, status });
  }
  return files;
}

function git(
  workspace: string,
  args: string[],
  timeoutMs: number,
): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile(
      'git',
      ['-C', workspace, ...args],
      {
        timeout: timeoutMs,
        maxBuffer: 32 * 1024 * 1024,
        env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0' },
      },
      (error, stdout) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout: String(stdout) });
      },
    );
  });
}

export async function gitChanges(
  workspace: string,
  base: string,
  head: string,
  timeoutMs = GIT_TIMEOUT_MS,
): Promise<Comparison> {
  if (!HEX.test(base) || !HEX.test(head)) return { unreadable: 'a commit ID is not hex' };
  const short = `${base.slice(0, 12)}..${head.slice(0, 12)}`;
  const ancestor = await git(workspace, ['merge-base', '--is-ancestor', base, head], timeoutMs);
  if (ancestor.code === 1) {
    return {
      unreadable: `in the checkout's history ${base.slice(0, 12)} is not an ancestor of ${head.slice(0, 12)}`,
    };
  }
  if (ancestor.code !== 0) {
    return {
      unreadable: `the checkout's history does not hold both commits of ${short} (a shallow checkout: \`fetch-depth: 0\` gives it the history)`,
    };
  }
  const diff = await git(
    workspace,
    ['diff', '--name-status', '--no-renames', '-z', base, head, '--'],
    timeoutMs,
  );
  const files = diff.code === 0 ? parseNameStatus(diff.stdout) : undefined;
  if (!files) return { unreadable: `\`git diff\` of ${short} in the checkout failed` };
  return { files };
}
