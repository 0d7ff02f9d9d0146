/**
 * How long each phase took, from the status checks (INTERFACE.md v1.3, "Durations").
 */
import { describe, expect, it } from '@jest/globals';
import { durationsTable } from '../../src/report/durations.js';
import { headline } from '../../src/report/render.js';
import type { RunReport } from '../../src/report/record.js';

const T0 = Date.UTC(2024, 4, 1, 12, 0, 0);
const s = (seconds: number) => T0 + seconds * 1000;

function report(overrides: Partial<RunReport> = {}): RunReport {
  return {
    command: 'deploy',
    outcome: 'success',
    name: 'my-agent',
    revisionId: 'rev-1',
    status: 'DEPLOYED',
    startedAt: s(-3),
    timeline: [
      { status: 'QUEUED', at: s(0) },
      { status: 'AWAITING_BUILD', at: s(15) },
      { status: 'BUILDING', at: s(30) },
      { status: 'AWAITING_DEPLOY', at: s(220) },
      { status: 'DEPLOYING', at: s(235) },
      { status: 'DEPLOYED', at: s(330) },
    ],
    finishedAt: s(342),
    ...overrides,
  };
}

const rows = (table: string) => table.split('\n').filter((l) => /^\| [^P|-]/.test(l));

describe('durationsTable', () => {
  it('sums each phase from the checks that first saw its statuses, then checks and total', () => {
    expect(rows(durationsTable(report()))).toEqual([
      '| Queued | 15.0 s |',
      '| Build | 3 min 25 s |',
      '| Deploy | 1 min 50 s |',
      '| Checks | 12.0 s |',
      '| **Total** | **5 min 45 s** |',
    ]);
  });

  it('marks the phase a stopped wait ended in, and has no checks without DEPLOYED', () => {
    const stopped = report({
      outcome: 'failure',
      status: 'BUILDING',
      timeline: [
        { status: 'QUEUED', at: s(0) },
        { status: 'BUILDING', at: s(10) },
      ],
      finishedAt: s(70),
    });
    expect(rows(durationsTable(stopped))).toEqual([
      '| Queued | 10.0 s |',
      '| Build | 1 min 00 s so far (the wait stopped) |',
      '| **Total** | **1 min 13 s** |',
    ]);
    expect(durationsTable(stopped)).not.toMatch(/checks:/i);
    expect(durationsTable(report())).toContain('checks: from `DEPLOYED` to the end of the run.');
  });

  it('is empty when the run followed no revision (delete, input errors)', () => {
    expect(durationsTable(report({ timeline: [] }))).toBe('');
  });
});

describe('the headline of a run stopped by timeout', () => {
  it('says the wait stopped and the revision goes on, not that the deployment failed', () => {
    const stopped = report({ outcome: 'failure', status: 'BUILDING', timedOut: true });
    expect(headline(stopped)).toBe(
      '⏱️ Deployment of `my-agent` not finished: this run stopped waiting at its `timeout` ' +
        '(the wait stopped; the revision goes on on the platform)',
    );
    // A timeout during the checks of a live revision is a failed check, as before.
    const live = report({ outcome: 'failure', timedOut: true, checks: { health: 'failed' } });
    expect(headline(live)).toMatch(/^❌ `my-agent` is deployed, but its health check failed/);
  });

  it('is only for a deploy whose revision was still in progress: no wait of another command, no revision that already failed', () => {
    const at = (o: Partial<RunReport>) =>
      headline(report({ outcome: 'failure', timedOut: true, status: undefined, ...o }));
    expect(at({ command: 'registry-login' })).toBe('❌ Registry login for `my-agent` failed');
    expect(at({ command: 'delete', revisionId: undefined })).not.toMatch(/not finished|goes on/);
    expect(at({ status: 'BUILD_FAILED' })).toBe('❌ The build of `my-agent` failed');
    // A deploy stopped before any status was seen is still not finished.
    expect(at({})).toMatch(/^⏱️ Deployment of `my-agent` not finished/);
  });
});
