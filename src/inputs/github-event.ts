/**
 * The workflow's GitHub context, read from the runner's `GITHUB_*` variables and the event
 * payload file, before any input check.
 */
import { readFileSync } from 'node:fs';
import type { GithubContext } from './config.js';
import { isRecord } from '../lib/text.js';

/**
 * Events whose payload carries `pull_request` (with `head` and `base`). The contract names
 * `pull_request` and `pull_request_target`; the review events carry the same object, and
 * their `GITHUB_REF` (`refs/pull/N/merge`) is no branch, so the PR is the only way to know it.
 */
export const PULL_REQUEST_EVENTS: ReadonlySet<string> = new Set([
  'pull_request',
  'pull_request_target',
  'pull_request_review',
  'pull_request_review_comment',
]);

/**
 * The context, and on a pull-request event whose payload gives no pull request (file not
 * set, missing, unreadable, empty, not JSON, or without a PR number) why: the fork check and
 * the PR comment cannot run without it, so this is worth a warning.
 */
export function readGithubContext(env: NodeJS.ProcessEnv = process.env): {
  github: GithubContext;
  payloadProblem?: string;
} {
  const github: GithubContext = {
    eventName: env['GITHUB_EVENT_NAME'] ?? '',
    ref: env['GITHUB_REF'] ?? '',
    sha: env['GITHUB_SHA'] ?? '',
    repository: env['GITHUB_REPOSITORY'] ?? '',
    serverUrl: (env['GITHUB_SERVER_URL'] || 'https://github.com').replace(/\/+$/, ''),
    apiUrl: (env['GITHUB_API_URL'] || 'https://api.github.com').replace(/\/+$/, ''),
    runId: env['GITHUB_RUN_ID'] ?? '',
    runAttempt: env['GITHUB_RUN_ATTEMPT'] ?? '',
    workspace: env['GITHUB_WORKSPACE'] || process.cwd(),
  };
  if (!PULL_REQUEST_EVENTS.has(github.eventName)) return { github };
  const found = readPullRequest(env['GITHUB_EVENT_PATH'] ?? '');
  if (typeof found !== 'string') return { github: { ...github, pullRequest: found } };
  const payloadProblem =
    `This is a ${github.eventName} event, but ${found}: the fork check and the ` +
    'pull-request comment cannot run. On GitHub the runner writes this file; when running the ' +
    'action elsewhere (act, a local runner), point GITHUB_EVENT_PATH at the event payload.';
  return { github, payloadProblem };
}

/** The pull request of the event payload at `path`, or why there is none. */
function readPullRequest(path: string): NonNullable<GithubContext['pullRequest']> | string {
  if (path === '') return 'GITHUB_EVENT_PATH is not set';
  let payload: unknown;
  try {
    const raw = readFileSync(path, 'utf8');
    if (raw.trim() === '') return 'the file in GITHUB_EVENT_PATH is empty';
    payload = JSON.parse(raw);
  } catch (error) {
    if (error instanceof SyntaxError) return 'the file in GITHUB_EVENT_PATH is not JSON';
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    return `the file in GITHUB_EVENT_PATH cannot be read (${code})`;
  }
  const pr = at(payload, 'pull_request');
  const number = at(pr, 'number') ?? at(payload, 'number');
  if (typeof number !== 'number') return 'the payload in GITHUB_EVENT_PATH names no pull request';
  return {
    number,
    headRef: text(at(pr, 'head', 'ref')),
    headSha: text(at(pr, 'head', 'sha')),
    // `head.repo` is null when the fork has been deleted.
    headRepoFullName: text(at(pr, 'head', 'repo', 'full_name')),
    baseRepoFullName: text(at(pr, 'base', 'repo', 'full_name')),
  };
}

/** The value at `path` in `value`; `undefined` from the first step that is not an object. */
function at(value: unknown, ...path: string[]): unknown {
  return path.reduce((v, key) => (isRecord(v) ? v[key] : undefined), value);
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
