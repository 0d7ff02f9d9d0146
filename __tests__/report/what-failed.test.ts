/**
 * What a reviewer reads first: the title names what failed (build, deploy, a check, the
 * pre-flight checks), the PR comment links the deployment once, offers a `curl` only when it
 * can answer, and a failed conversation test shows the reply that failed it.
 */
import { describe, expect, it } from '@jest/globals';
import { accessSection, headline, renderComment, renderSummary } from '../../src/report/render.js';
import type { RunReport } from '../../src/report/record.js';
import { splitFences } from './support.js';

const UI = 'https://smith.langchain.com/o/t-1/host/deployments/dep-1';
const URL = 'https://pr-7-agent.example.com';

function report(fields: Partial<RunReport> = {}): RunReport {
  return {
    command: 'deploy',
    outcome: 'failure',
    name: 'pr-7-agent',
    deploymentId: 'dep-1',
    revisionId: 'rev-1',
    status: 'DEPLOYED',
    url: URL,
    uiUrl: UI,
    created: false,
    timeline: [],
    ...fields,
  };
}

function count(text: string, part: string): number {
  return text.split(part).length - 1;
}

describe('headline: titled by what failed', () => {
  it.each([
    [{ status: 'BUILD_FAILED' }, '❌ The build of `pr-7-agent` failed'],
    [{ status: 'CREATE_FAILED' }, '❌ The build of `pr-7-agent` failed'],
    [{ status: 'DEPLOY_FAILED' }, '❌ The deploy of `pr-7-agent` failed'],
    [
      { checks: { health: 'passed', tests: 'failed' } },
      '❌ `pr-7-agent` is deployed, but its conversation tests failed',
    ],
    [{ checks: { health: 'failed' } }, '❌ `pr-7-agent` is deployed, but its health check failed'],
    [
      { checks: { health: 'passed', smoke: 'failed' } },
      '❌ `pr-7-agent` is deployed, but its smoke test failed',
    ],
    [
      { status: undefined, preflightErrors: [{ message: 'no graphs' }] },
      '❌ The pre-flight checks of `pr-7-agent` failed: nothing was deployed',
    ],
    [{ status: 'BUILDING' }, '❌ Deployment of `pr-7-agent` failed'],
  ] as [Partial<RunReport>, string][])('%j → %s', (fields, title) => {
    expect(headline(report(fields))).toBe(title);
  });

  it('says what failed before the rollback that followed', () => {
    const r = report({
      checks: { health: 'passed', tests: 'failed' },
      rollback: { to: 'rev-0', reason: 'tests failed', outcome: 'restored', timeline: [] },
    });
    expect(headline(r)).toBe(
      '❌ `pr-7-agent` is deployed, but its conversation tests failed; rolled back to revision `rev-0`',
    );
  });
});

describe('the PR comment: one link each, commands only when they can work', () => {
  it('a DEPLOYED revision: one LangSmith link, the agent URL once (in the curl)', () => {
    const body = renderComment(report({ outcome: 'success' }), 'm');
    expect(count(body, UI)).toBe(1);
    expect(count(body, URL)).toBe(1);
    const { fenced } = splitFences(body);
    expect(fenced).toContainEqual([`curl -H "X-Api-Key: $LANGSMITH_API_KEY" '${URL}/ok'`]);
  });

  it('a failed build: no agent URL (nothing answers there) and no curl', () => {
    const body = renderComment(report({ status: 'BUILD_FAILED' }), 'm');
    expect(count(body, UI)).toBe(1);
    expect(count(body, URL)).toBe(0);
    expect(body).not.toContain('curl');
    expect(renderSummary(report({ status: 'BUILD_FAILED' }))).not.toContain('Agent server');
    expect(accessSection(report({ status: 'BUILD_FAILED' }))).not.toContain('Agent server');
  });

  it('the step summary keeps its table rows (it has no access section)', () => {
    const md = renderSummary(report({ outcome: 'success' }));
    expect(md).toContain('| LangSmith | [Open in LangSmith]');
    expect(md).toContain(`| Agent server | [${URL}]`);
  });
});

describe('a failed conversation test shows the reply that failed it', () => {
  const failed = report({
    checks: { health: 'passed', tests: 'failed' },
    tests: [
      {
        name: 'greets',
        turnsRun: 1,
        turns: 1,
        verdict: 'passed',
        reason: '1 turn as expected',
        reply: 'never shown: the case passed',
        durationMs: 10,
      },
      {
        name: 'says <b>hi</b> @team',
        turnsRun: 1,
        turns: 1,
        verdict: 'failed',
        reason: 'turn 1: the last message does not contain "Ada"',
        reply: 'Hello ```\n</details><script>x</script>\n::error::boom\u001b[31m @team',
        durationMs: 10,
      },
      {
        name: 'errored',
        turnsRun: 1,
        turns: 1,
        verdict: 'failed',
        reason: 'turn 1 ended with an error',
        durationMs: 10,
      },
    ],
  });

  it.each([
    ['summary', renderSummary(failed)],
    ['PR comment', renderComment(failed, 'm')],
  ])('in the %s, fenced and inert', (_where, md) => {
    const { outside, fenced } = splitFences(md);
    expect(fenced).toContainEqual([
      'Hello ```',
      '</details><script>x</script>',
      '::error::boom @team',
    ]);
    expect(md).toContain(
      '<summary>The reply that failed “says &#60;b&#62;hi&#60;/b&#62; @\u200bteam”</summary>',
    );
    expect(outside).not.toContain('<script');
    expect(outside).not.toContain('@team');
    expect(md).not.toContain('never shown');
    expect(md).not.toContain('\u001b');
    expect(outside.match(/<\/details>/g)?.length).toBe(outside.match(/<details>/g)?.length);
  });

  it('cuts a long reply', () => {
    const long = report({
      tests: [{ ...failed.tests![1]!, reply: 'y'.repeat(5000) }],
    });
    const { fenced } = splitFences(renderSummary(long));
    const block = fenced.find((lines) => lines[0]?.startsWith('yyy'));
    expect(block?.join('').length).toBe(1000);
  });
});
