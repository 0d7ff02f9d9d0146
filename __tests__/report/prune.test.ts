/** The record of a prune run: what each row's action counts as, and the summary table. */
import { describe, expect, it } from '@jest/globals';
import { isFailed, isRemoved, renderPruneSummary, type PruneRow } from '../../src/report/prune.js';

describe("a row's action", () => {
  it('counts removals and failures', () => {
    expect(isRemoved({ kind: 'deleted' })).toBe(true);
    expect(isRemoved({ kind: 'already_gone' })).toBe(true);
    expect(isRemoved({ kind: 'would_delete' })).toBe(true);
    expect(isRemoved({ kind: 'kept' })).toBe(false);
    expect(isRemoved({ kind: 'delete_failed', reason: 'x' })).toBe(false);
    expect(isFailed({ kind: 'delete_unconfirmed', reason: 'x' })).toBe(true);
    expect(isFailed({ kind: 'kept_unknown', reason: 'x' })).toBe(false);
    // Left for deletion when the run stopped: neither reported deleted nor silently kept.
    expect(isRemoved({ kind: 'pending' })).toBe(false);
    expect(isFailed({ kind: 'pending' })).toBe(true);
  });
});

describe('renderPruneSummary', () => {
  const rows: PruneRow[] = [
    {
      name: 'agent-pr-1',
      id: 'i1',
      pr: 1,
      state: { kind: 'open', title: 'Open one' },
      action: { kind: 'kept' },
    },
    {
      name: 'agent-pr-2',
      id: 'i2',
      pr: 2,
      state: { kind: 'merged', title: 'x' },
      action: { kind: 'deleted' },
    },
    {
      name: 'agent-pr-3',
      id: 'i3',
      pr: 3,
      state: { kind: 'missing' },
      action: { kind: 'delete_failed', reason: 'busy' },
    },
    {
      name: 'agent-pr-4',
      id: 'i4',
      pr: 4,
      state: { kind: 'unknown', reason: 'HTTP 500' },
      action: { kind: 'kept_unknown', reason: 'HTTP 500' },
    },
  ];

  it('one table: deployment, linked PR, state, action taken', () => {
    const md = renderPruneSummary({
      template: 'agent-pr-{pr}',
      rows,
      dryRun: false,
      repositoryUrl: 'https://github.com/octo/app',
    });
    expect(md).toContain('| Deployment | PR | State | Action |');
    expect(md.match(/^\| Deployment/gm)).toHaveLength(1);
    expect(md).toContain(
      '| `agent-pr-1` | [&#35;1](https://github.com/octo/app/pull/1) Open one | open | kept |',
    );
    expect(md).toContain(
      '| `agent-pr-2` | [&#35;2](https://github.com/octo/app/pull/2) x | merged | deleted |',
    );
    expect(md).toContain('| does not exist | **delete failed: busy** |');
    expect(md).toContain('| unknown | kept: the pull request could not be read (HTTP 500) |');
    expect(md).toContain('4 matching deployments: 1 deleted, 2 kept, 1 not deleted (failed).');
    expect(md).toMatch(/^### ❌/);
  });

  it('a dry run says so; no match says so', () => {
    const dry = renderPruneSummary({
      template: 'agent-pr-{pr}',
      rows: [{ ...rows[1]!, action: { kind: 'would_delete' } }],
      dryRun: true,
      repositoryUrl: 'https://github.com/octo/app',
    });
    expect(dry).toContain('dry run: nothing changed');
    expect(dry).toContain('1 would be deleted, 0 kept');
    expect(dry).toContain('would be deleted (dry run)');
    const none = renderPruneSummary({
      template: 'a-{pr}',
      rows: [],
      dryRun: false,
      repositoryUrl: 'https://github.com/o/r',
    });
    expect(none).toContain('No deployment matches `a-{pr}`.');
    expect(none).not.toContain('| Deployment |');
  });

  it('untrusted titles and reasons cannot break the table or inject HTML', () => {
    const md = renderPruneSummary({
      template: 'agent-pr-{pr}',
      rows: [
        {
          name: 'agent-pr-9',
          id: 'i9',
          pr: 9,
          state: {
            kind: 'closed',
            title: 'x | <img src=x onerror=alert(1)> [link](javascript:1)\n| new row |',
          },
          action: { kind: 'delete_failed', reason: '</td><script>|' },
        },
      ],
      dryRun: false,
      repositoryUrl: 'https://github.com/octo/app',
    });
    const row = md.split('\n').find((l) => l.includes('agent-pr-9'))!;
    expect(row.split(/(?<!\\)\|/).length - 2).toBe(4);
    expect(md).not.toMatch(/<img|<script|\]\(javascript/);
    expect(md.split('\n').filter((l) => l.startsWith('|'))).toHaveLength(3);
  });
});
