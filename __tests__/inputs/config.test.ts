import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getInput, readGithubContext } from '../../src/inputs/config.js';

const dir = mkdtempSync(join(tmpdir(), 'context-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function eventFile(name: string, payload: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof payload === 'string' ? payload : JSON.stringify(payload));
  return path;
}

const prPayload = (headRepo: string | null) => ({
  number: 7,
  pull_request: {
    number: 7,
    head: {
      ref: 'feature/x',
      sha: 'abc123',
      repo: headRepo === null ? null : { full_name: headRepo },
    },
    base: { ref: 'main', repo: { full_name: 'acme/agent' } },
  },
});

describe('readGithubContext', () => {
  it('reads the GITHUB_* variables', () => {
    const context = readGithubContext({
      GITHUB_EVENT_NAME: 'push',
      GITHUB_REF: 'refs/heads/main',
      GITHUB_SHA: 'deadbeef',
      GITHUB_REPOSITORY: 'acme/agent',
      GITHUB_SERVER_URL: 'https://ghe.example.com/',
      GITHUB_API_URL: 'https://ghe.example.com/api/v3',
      GITHUB_RUN_ID: '42',
      GITHUB_RUN_ATTEMPT: '2',
      GITHUB_WORKSPACE: '/work/space',
    }).github;
    expect(context).toEqual({
      eventName: 'push',
      ref: 'refs/heads/main',
      sha: 'deadbeef',
      repository: 'acme/agent',
      serverUrl: 'https://ghe.example.com',
      apiUrl: 'https://ghe.example.com/api/v3',
      runId: '42',
      runAttempt: '2',
      workspace: '/work/space',
    });
  });

  it('defaults server URL, API URL and workspace', () => {
    const context = readGithubContext({}).github;
    expect(context.serverUrl).toBe('https://github.com');
    expect(context.apiUrl).toBe('https://api.github.com');
    expect(context.workspace).toBe(process.cwd());
    expect(context.pullRequest).toBeUndefined();
  });

  it.each(['pull_request', 'pull_request_target', 'pull_request_review'])(
    'reads the pull request of a %s event',
    (event) => {
      const context = readGithubContext({
        GITHUB_EVENT_NAME: event,
        GITHUB_EVENT_PATH: eventFile(`${event}.json`, prPayload('acme/agent')),
      }).github;
      expect(context.pullRequest).toEqual({
        number: 7,
        headRef: 'feature/x',
        headSha: 'abc123',
        headRepoFullName: 'acme/agent',
        baseRepoFullName: 'acme/agent',
      });
    },
  );

  it('keeps the head repository of a fork, and empty for a deleted fork', () => {
    const fork = readGithubContext({
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_EVENT_PATH: eventFile('fork.json', prPayload('someone/agent')),
    }).github;
    expect(fork.pullRequest?.headRepoFullName).toBe('someone/agent');
    const deleted = readGithubContext({
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_EVENT_PATH: eventFile('deleted.json', prPayload(null)),
    }).github;
    expect(deleted.pullRequest?.headRepoFullName).toBe('');
  });

  it('ignores the payload of other events', () => {
    const context = readGithubContext({
      GITHUB_EVENT_NAME: 'push',
      GITHUB_EVENT_PATH: eventFile('push.json', prPayload('acme/agent')),
    }).github;
    expect(context.pullRequest).toBeUndefined();
  });

  it.each([
    ['a missing file', join(dir, 'does-not-exist.json')],
    ['a file that is not JSON', eventFile('broken.json', '{not json')],
    ['a payload without pull_request', eventFile('empty.json', {})],
  ])('gives no pull request, and does not throw, for %s', (_label, path) => {
    const context = readGithubContext({
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_EVENT_PATH: path,
    }).github;
    expect(context.pullRequest).toBeUndefined();
    expect(context.eventName).toBe('pull_request');
  });
});

describe('getInput', () => {
  it('reads INPUT_ variables as the runner names them (upper-cased, dash kept), trimmed', () => {
    expect(getInput('api-key', { 'INPUT_API-KEY': '  k  ' })).toBe('k');
    expect(getInput('smoke test', { INPUT_SMOKE_TEST: 'x' })).toBe('x');
    expect(getInput('api-key', { 'INPUT_api-key': 'k' })).toBe('');
    expect(getInput('api-key', {})).toBe('');
  });
});
