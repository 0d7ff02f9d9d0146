/** Shared fixtures for the report tests. */
import type { GithubContext } from '../../src/config.js';
import type { AnnotationProperties, Logger } from '../../src/runner.js';

export interface LogEntry {
  level: 'info' | 'debug' | 'notice' | 'warning' | 'error';
  message: string;
  properties?: AnnotationProperties;
}

export function recordingLogger(): Logger & { entries: LogEntry[]; warnings(): LogEntry[] } {
  const entries: LogEntry[] = [];
  const add = (level: LogEntry['level']) => (message: string, properties?: AnnotationProperties) =>
    entries.push({ level, message, properties });
  return {
    entries,
    warnings: () => entries.filter((e) => e.level === 'warning'),
    info: add('info'),
    debug: add('debug'),
    notice: add('notice'),
    warning: add('warning'),
    error: add('error'),
  };
}

export const HEAD_SHA = 'b'.repeat(40);
export const PUSH_SHA = 'a'.repeat(40);

export function githubContext(apiUrl: string, options: { pr?: boolean } = {}): GithubContext {
  const pr = options.pr ?? true;
  return {
    eventName: pr ? 'pull_request' : 'push',
    ref: pr ? 'refs/pull/7/merge' : 'refs/heads/main',
    sha: PUSH_SHA,
    repository: 'octo/app',
    serverUrl: 'https://github.com',
    apiUrl,
    runId: '42',
    runAttempt: '1',
    workspace: '/tmp',
    ...(pr
      ? {
          pullRequest: {
            number: 7,
            headRef: 'feature',
            headSha: HEAD_SHA,
            headRepoFullName: 'octo/app',
            baseRepoFullName: 'octo/app',
          },
        }
      : {}),
  };
}

/**
 * The text of a Markdown document outside fenced code blocks (CommonMark rule: a fence closes
 * on a line of at least as many backticks as opened it). `fenced` holds each block's lines.
 */
export function splitFences(markdown: string): { outside: string; fenced: string[][] } {
  const outside: string[] = [];
  const fenced: string[][] = [];
  let open = 0;
  let current: string[] = [];
  for (const line of markdown.split('\n')) {
    if (open === 0) {
      const start = line.match(/^ {0,3}(`{3,})[^`]*$/);
      if (start) {
        open = start[1]!.length;
        current = [];
      } else outside.push(line);
    } else {
      const end = line.match(/^ {0,3}(`{3,})\s*$/);
      if (end && end[1]!.length >= open) {
        open = 0;
        fenced.push(current);
      } else current.push(line);
    }
  }
  if (open !== 0) throw new Error('unclosed fence');
  return { outside: outside.join('\n'), fenced };
}
