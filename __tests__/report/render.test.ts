import { afterEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  renderComment,
  renderInputErrorSummary,
  renderSummary,
  renderUnexpectedErrorSummary,
  tailWithin,
  testsSection,
} from '../../src/report/render.js';
import type { RunReport } from '../../src/report/record.js';
import { appendStepSummary, resetSecretsForTests, setSecret } from '../../src/lib/untrusted.js';
import { captureOutputForTests, recordingLogger } from '../helpers/fakes.js';
import { splitFences } from './support.js';

const T0 = Date.UTC(2024, 4, 1, 12, 0, 0);

function successReport(): RunReport {
  return {
    command: 'deploy',
    outcome: 'success',
    name: 'my-agent',
    deploymentId: 'dep-123',
    revisionId: 'rev-456',
    status: 'DEPLOYED',
    url: 'https://my-agent.example.com',
    uiUrl: 'https://smith.langchain.com/o/t/host/deployments/dep-123',
    created: true,
    source: { kind: 'github', repoUrl: 'https://github.com/octo/app', repoRef: 'main' },
    commitSha: 'c'.repeat(40),
    checks: { health: 'passed' },
    timeline: [
      { status: 'QUEUED', at: T0 },
      { status: 'BUILDING', at: T0 + 30_000 },
      { status: 'DEPLOYING', at: T0 + 150_000 },
      { status: 'DEPLOYED', at: T0 + 215_000 },
    ],
    finishedAt: T0 + 220_000,
  };
}

function failureReport(logTail: string[]): RunReport {
  return {
    command: 'deploy',
    outcome: 'failure',
    name: 'my-agent',
    deploymentId: 'dep-123',
    revisionId: 'rev-456',
    status: 'BUILD_FAILED',
    created: false,
    timeline: [
      { status: 'QUEUED', at: T0 },
      { status: 'BUILD_FAILED', at: T0 + 45_000 },
    ],
    error: 'Revision rev-456 ended in BUILD_FAILED. Fix the build and push again.',
    logKind: 'build',
    logTail,
  };
}

afterEach(() => resetSecretsForTests());

describe('renderSummary', () => {
  it('shows name, IDs, status, the URL as a link, created/updated and the source', () => {
    const md = renderSummary(successReport());
    expect(md).toContain('`my-agent`');
    expect(md).toContain('| Deployment ID | `dep-123` |');
    expect(md).toContain('| Revision ID | `rev-456` |');
    expect(md).toContain('| Status | **`DEPLOYED`** |');
    expect(md).toContain(
      '| Agent server | [https://my-agent.example.com](https://my-agent.example.com/) |',
    );
    expect(md).toContain('| Action | created |');
    expect(md).toContain('[github.com/octo/app](https://github.com/octo/app) at `main`');
    expect(md).toContain('| Health check | passed |');
    expect(md).toMatch(/^### ✅ `my-agent` is deployed/);
  });

  it('says "updated" and shows an image source', () => {
    const md = renderSummary({
      ...successReport(),
      created: false,
      source: { kind: 'external_docker', imageUri: 'ghcr.io/octo/app:1' },
    });
    expect(md).toContain('| Action | updated |');
    expect(md).toContain('| Source | image `ghcr.io/octo/app:1` |');
  });

  it('has a status timeline of what the checks saw: first and last sighting, no durations', () => {
    const md = renderSummary({
      ...successReport(),
      timeline: [
        { status: 'QUEUED', at: T0, lastSeenAt: T0 + 15_000 },
        { status: 'BUILDING', at: T0 + 30_000, lastSeenAt: T0 + 135_000 },
        { status: 'DEPLOYED', at: T0 + 150_000, lastSeenAt: T0 + 150_000 },
      ],
    });
    expect(md).toContain('| Status | First seen | Last seen |');
    expect(md).toContain('| `QUEUED` | 2024-05-01 12:00:00 UTC | 2024-05-01 12:00:15 UTC |');
    expect(md).toContain('| `BUILDING` | 2024-05-01 12:00:30 UTC | 2024-05-01 12:02:15 UTC |');
    expect(md).toContain('| `DEPLOYED` | 2024-05-01 12:02:30 UTC | 2024-05-01 12:02:30 UTC |');
    expect(md).toContain(
      'between 2024-05-01 12:00:00 UTC and 2024-05-01 12:02:30 UTC (2 min 30 s)',
    );
    // Statuses no check saw (AWAITING_BUILD, DEPLOYING) are not invented.
    expect(md).not.toContain('DEPLOYING');
    expect(md).not.toContain('AWAITING_BUILD');
  });

  it('never states a time spent in a status (the 15 s poll of issue #19)', () => {
    // One check saw QUEUED, the next, 15 s later, saw DEPLOYED: how long QUEUED lasted, and
    // what came between, is unknown.
    const md = renderSummary({
      ...successReport(),
      timeline: [
        { status: 'QUEUED', at: T0 },
        { status: 'DEPLOYED', at: T0 + 15_000 },
      ],
      finishedAt: T0 + 16_000,
    });
    expect(md).toContain('| `QUEUED` | 2024-05-01 12:00:00 UTC | 2024-05-01 12:00:00 UTC |');
    expect(md).not.toMatch(/15\.0 s in|after 15\.0 s|Time in status|Since/);
    expect(md).not.toContain('BUILDING');
  });

  it('ends a status that was still current at the last check that saw it', () => {
    const md = renderSummary({
      ...successReport(),
      outcome: 'failure',
      status: 'BUILDING',
      timeline: [{ status: 'BUILDING', at: T0, lastSeenAt: T0 + 85_000 }],
      finishedAt: T0 + 90_000,
    });
    expect(md).toContain('| `BUILDING` | 2024-05-01 12:00:00 UTC | 2024-05-01 12:01:25 UTC |');
    // The timeline claims no time in a status; the durations say the phase was not over.
    const [timeline, durations] = md.split('#### Durations');
    expect(timeline).not.toContain('1 min 30 s');
    expect(durations).toContain('| Build | 1 min 30 s so far (the wait stopped) |');
  });

  it('puts the error and the log tail of a failure in a collapsed block', () => {
    const md = renderSummary(failureReport(['step 1', 'ERROR: no module named foo']));
    expect(md).toMatch(/^### ❌ The build of `my-agent` failed/);
    expect(md).toContain('| Action | updated |');
    expect(md).toContain(
      '<details>\n<summary>Build log (last 2 lines)</summary>\n\n```text\nstep 1\nERROR: no module named foo\n```\n\n</details>',
    );
    const { fenced } = splitFences(md);
    expect(fenced).toContainEqual([
      'Revision rev-456 ended in BUILD_FAILED. Fix the build and push again.',
    ]);
  });

  it('shows the hint when the install offers no logs', () => {
    const md = renderSummary({
      ...failureReport([]),
      logsUnavailableHint: 'Logs are not available here: open <ui-url>.',
    });
    expect(md).toContain('> Logs are not available here: open &#60;ui-url&#62;.');
    expect(md).not.toContain('<details>');
  });

  it('keeps hostile log lines inside the code block', () => {
    const hostile = [
      '</details><script>alert(1)</script>',
      '```',
      'x ```````` y',
      '<img src=x onerror=alert(1)>',
    ];
    const md = renderSummary({
      ...failureReport(hostile),
      error: 'bad ``` </details><script>alert(2)</script>',
      warnings: ['warned </details><script>alert(3)</script> `x`'],
    });
    const { outside, fenced } = splitFences(md);
    // The log lines (and the error) are each intact inside one fenced block.
    expect(fenced).toContainEqual(hostile);
    expect(fenced).toContainEqual(['bad ``` </details><script>alert(2)</script>']);
    // Outside code blocks: no HTML but ours, and <details> is balanced.
    expect(outside).not.toMatch(/<script|<img/);
    expect(outside.match(/<details>/g)).toHaveLength(1);
    expect(outside.match(/<\/details>/g)).toHaveLength(1);
    expect(outside).toContain('warned &#60;/details&#62;&#60;script&#62;alert&#40;3&#41;');
    // The fence of the log block is longer than the longest backtick run (8).
    expect(md).toContain('\n`````````text\n</details><script>');
  });

  it('describes a delete', () => {
    const md = renderSummary({
      command: 'delete',
      outcome: 'deleted',
      name: 'pr-7-agent',
      deploymentId: 'dep-9',
      status: 'DELETED',
      deletedTracingProject: true,
      timeline: [],
    });
    expect(md).toMatch(/^### 🗑️ `pr-7-agent` was deleted/);
    expect(md).toContain('| Deployment ID | `dep-9` |');
    expect(md).toContain('| Status | **`DELETED`** |');
    expect(md).toContain('| Tracing project | deleted |');
    expect(md).not.toContain('Status timeline');
    expect(md).not.toContain('| Action |');
  });

  it('says when the revision was superseded, and when there was nothing to delete', () => {
    expect(renderSummary({ ...successReport(), outcome: 'skipped', status: 'SKIPPED' })).toMatch(
      /^### ⚠️ The revision of `my-agent` was superseded/,
    );
    expect(
      renderSummary({ command: 'delete', outcome: 'not_found', name: 'gone', timeline: [] }),
    ).toMatch(/^### 🗑️ Nothing to delete: there is no deployment `gone`/);
  });

  it('escapes a status with backticks and pipes in the table', () => {
    const md = renderSummary({ ...successReport(), status: 'WEIRD|`X`' });
    expect(md).toContain('| Status | **`` WEIRD\\|`X` ``** |');
  });
});

describe('the step summary, as appendStepSummary writes it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'summary-'));

  it('appends to GITHUB_STEP_SUMMARY', () => {
    const file = join(dir, 'append.md');
    writeFileSync(file, 'before\n');
    appendStepSummary(renderSummary(successReport()), { GITHUB_STEP_SUMMARY: file });
    appendStepSummary(renderSummary(failureReport(['x'])), { GITHUB_STEP_SUMMARY: file });
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith('before\n### ✅')).toBe(true);
    expect(text).toContain('### ❌ The build of `my-agent` failed');
  });

  it('redacts registered secrets', () => {
    const restore = captureOutputForTests(() => {});
    try {
      setSecret('sup3r-s3cret-value');
    } finally {
      restore();
    }
    const file = join(dir, 'redact.md');
    appendStepSummary(
      renderSummary({
        ...failureReport(['env TOKEN=sup3r-s3cret-value']),
        error: 'bad sup3r-s3cret-value',
      }),
      { GITHUB_STEP_SUMMARY: file },
    );
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('sup3r-s3cret-value');
    expect(text).toContain('env TOKEN=***');
  });

  it('does nothing without GITHUB_STEP_SUMMARY and warns (never throws) when it cannot write', () => {
    const logger = recordingLogger();
    expect(() => appendStepSummary(renderSummary(successReport()), {}, logger)).not.toThrow();
    expect(logger.warnings()).toHaveLength(0);
    expect(() =>
      appendStepSummary(renderSummary(successReport()), { GITHUB_STEP_SUMMARY: dir }, logger),
    ).not.toThrow();
    expect(logger.warnings()).toHaveLength(1);
    expect(logger.warnings()[0]!.message).toContain('Could not write the step summary');
  });
});

describe('status_message', () => {
  it('is shown after the status, escaped (it is the platform’s text)', () => {
    const report: RunReport = {
      ...successReport(),
      outcome: 'failure',
      status: 'INTERRUPTED',
      statusMessage: 'Stopped by <b>ada</b> | see `ui`',
    };
    const md = renderSummary(report);
    const row = md.split('\n').find((l) => l.startsWith('| Status |'));
    expect(row).toContain('**`INTERRUPTED`** Stopped by &#60;b&#62;ada&#60;/b&#62; &#124; see');
    expect(row).not.toContain('<b>');
    // INTERRUPTED is final: the timeline does not say "when the run ended" for it.
    const timed = renderSummary({
      ...report,
      timeline: [...report.timeline.slice(0, 2), { status: 'INTERRUPTED', at: T0 + 60_000 }],
    });
    expect(timed).not.toContain('when the run ended');
  });
});

/* The conversation tests table in the step summary and the PR comment. */
describe('the conversation tests table', () => {
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
});

describe('input-error step summary', () => {
  it('names every input and its problem, and says nothing was deployed', () => {
    const md = renderInputErrorSummary([
      { input: 'api-key', message: '`api-key` is empty: forks and Dependabot get no secrets.' },
      { input: 'timeout', message: '`timeout` must be a number of seconds, got "ten".' },
    ]);
    expect(md).toMatch(/^### ❌ 2 input errors: nothing was deployed/);
    expect(md).toContain('nothing was sent to the control plane');
    expect(md).toContain(
      '| `api-key` | `api-key` is empty: forks and Dependabot get no secrets. |',
    );
    expect(md).toContain(
      '| `timeout` | `timeout` must be a number of seconds, got &#34;ten&#34;. |',
    );
  });

  it('is appended to GITHUB_STEP_SUMMARY, with secret values redacted', () => {
    const dir = mkdtempSync(join(tmpdir(), 'input-summary-'));
    try {
      const file = join(dir, 'summary.md');
      setSecret('hunter2-secret');
      appendStepSummary(
        renderInputErrorSummary([{ input: 'secrets', message: 'bad line hunter2-secret' }]),
        { GITHUB_STEP_SUMMARY: file },
      );
      const text = readFileSync(file, 'utf8');
      expect(text).toContain('1 input error');
      expect(text).not.toContain('hunter2-secret');
      // Without GITHUB_STEP_SUMMARY nothing is written and nothing throws.
      expect(() =>
        appendStepSummary(renderInputErrorSummary([{ input: 'x', message: 'y' }]), {}),
      ).not.toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an unexpected error gets a summary that says it is a bug', () => {
    const md = renderUnexpectedErrorSummary('Unexpected error: boom');
    expect(md).toContain('unexpected error');
    expect(md).toContain('boom');
    expect(md).toContain('bug in the action');
  });
});

describe('tailWithin', () => {
  it('keeps the newest lines that fit', () => {
    expect(tailWithin(['aaaa', 'bbbb', 'cccc'], 10)).toEqual({
      lines: ['bbbb', 'cccc'],
      omitted: 1,
    });
  });
});
