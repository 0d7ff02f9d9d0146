/**
 * Feedback goes only to `https://<LangSmith API host>/api/v1/feedback/tokens/<id>` (plain http
 * only on loopback), the host being the region's, or the control plane's own when
 * `control-plane-url` is set.
 */
import { describe, expect, it } from '@jest/globals';
import { feedbackHostFor, feedbackTarget } from '../../src/verify/feedback-url.js';

describe('feedbackHostFor', () => {
  it.each([
    ['https://api.host.langchain.com', 'us', 'api.smith.langchain.com'],
    ['https://eu.api.host.langchain.com', 'eu', 'eu.api.smith.langchain.com'],
    ['https://apac.api.host.langchain.com', 'apac', 'apac.api.smith.langchain.com'],
    ['https://aws.api.host.langchain.com', 'aws-us', 'aws.api.smith.langchain.com'],
    ['https://langsmith.corp.example/api-host', 'us', 'langsmith.corp.example'],
    ['http://127.0.0.1:4010', 'eu', '127.0.0.1:4010'],
  ] as const)('%s (%s) → %s', (controlPlane, region, host) => {
    expect(feedbackHostFor(controlPlane, region)).toBe(host);
  });
});

describe('feedbackTarget', () => {
  const host = 'api.smith.langchain.com';
  it.each([
    ['https://api.smith.langchain.com/api/v1/feedback/tokens/0b1c-2d', host, undefined],
    ['http://127.0.0.1:4010/api/v1/feedback/tokens/abc', '127.0.0.1:4010', undefined],
    ['http://api.smith.langchain.com/api/v1/feedback/tokens/abc', host, 'not https'],
    ['https://evil.example/api/v1/feedback/tokens/abc', host, 'not the LangSmith API host'],
    ['https://api.smith.langchain.com.evil.example/api/v1/feedback/tokens/a', host, 'not the'],
    ['https://api.smith.langchain.com:8443/api/v1/feedback/tokens/abc', host, 'not the'],
    ['https://u:p@api.smith.langchain.com/api/v1/feedback/tokens/abc', host, 'credentials'],
    ['https://api.smith.langchain.com/api/v1/runs', host, 'not a /api/v1/feedback/tokens/'],
    ['https://api.smith.langchain.com/api/v1/feedback/tokens/a?x=1', host, 'not a /api/v1'],
    ['http://127.0.0.1:9999/api/v1/feedback/tokens/abc', '127.0.0.1:4010', 'not the'],
  ])('%s for %s: %s', (url, allowed, problem) => {
    const found = feedbackTarget(url, allowed);
    if (problem === undefined) expect(found).toEqual({ ok: true, url: new URL(url) });
    else expect(found).toMatchObject({ ok: false, problem: expect.stringContaining(problem) });
  });
});
