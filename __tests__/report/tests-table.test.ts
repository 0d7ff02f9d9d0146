/** The conversation tests table in the step summary and the PR comment. */
import { describe, expect, it } from '@jest/globals';
import { renderComment } from '../../src/report/github/pr-comment.js';
import { renderSummary } from '../../src/report/step-summary.js';
import { testsSection } from '../../src/report/tests-table.js';
import type { RunReport } from '../../src/report/record.js';

const report: RunReport = {
  command: 'deploy',
  outcome: 'failure',
  name: 'my-agent',
  timeline: [],
  checks: { health: 'passed', tests: 'failed' },
  tests: [
    {
      name: 'greets',
      turnsRun: 2,
      turns: 2,
      verdict: 'passed',
      reason: '2 turns as expected',
      durationMs: 1234,
    },
    {
      name: 'pipes | and <b>html</b> @team',
      turnsRun: 1,
      turns: 3,
      verdict: 'failed',
      reason: 'turn 1: the last message does not contain "x" | <script>',
      durationMs: 61_000,
    },
  ],
};

describe('testsSection', () => {
  it('renders one row per case: case, turns, verdict, reason, time', () => {
    const table = testsSection(report);
    const lines = table.split('\n');
    expect(lines[0]).toBe('#### Conversation tests: 1 of 2 passed');
    expect(lines[2]).toBe('| Case | Turns | Verdict | Reason | Time |');
    expect(lines[4]).toBe('| greets | 2/2 | ✅ passed | 2 turns as expected | 1.2 s |');
    expect(lines[5]).toMatch(
      /^\| pipes &#124; and &#60;b&#62;html&#60;\/b&#62; @\u200bteam \| 1\/3 \| ❌ failed \| /,
    );
    expect(lines[5]).toContain('1 min 01 s |');
    // Untrusted text cannot end a cell or open HTML.
    expect(lines[5]?.split(' | ')).toHaveLength(5);
    expect(table).not.toContain('<script>');
    // An @mention from a test name notifies nobody.
    expect(table).not.toContain('@team');
    expect(table).toContain('@\u200bteam');
  });

  it('is empty without tests, and appears in the summary and the comment', () => {
    expect(testsSection({ ...report, tests: [] })).toBe('');
    expect(renderSummary(report)).toContain('#### Conversation tests: 1 of 2 passed');
    expect(renderSummary(report)).toContain('| Conversation tests | failed |');
    expect(renderComment(report, '<!-- m -->')).toContain('| greets | 2/2 | ✅ passed |');
  });

  it('keeps the comment short: at most the given number of rows', () => {
    const many: RunReport = {
      ...report,
      tests: Array.from({ length: 60 }, (_, i) => ({
        name: `c${i}`,
        turnsRun: 1,
        turns: 1,
        verdict: 'passed' as const,
        reason: 'ok',
        durationMs: 1,
      })),
    };
    const table = testsSection(many, 50);
    expect(table.split('\n').filter((l) => l.startsWith('| c'))).toHaveLength(50);
    expect(table).toContain('10 more cases in the log.');
  });
});
