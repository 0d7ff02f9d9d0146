/**
 * docs/examples/ is what the action really writes: regenerate it from real runs of the built
 * bundle and compare with the committed files (IDs, times and durations normalised). Fails
 * when a change to the reports was not followed by `npm run examples`.
 */
import { describe, expect, it } from '@jest/globals';
import { readdirSync } from 'node:fs';
import {
  EXAMPLES_DIR,
  exampleFiles,
  generateExamples,
  normalizeForComparison,
  readCommittedExamples,
  stabilize,
} from '../../scripts/examples.js';

describe('docs/examples', () => {
  it('matches what the action writes today (run `npm run examples` when this fails)', async () => {
    const fresh = exampleFiles(await generateExamples());
    const names = Object.keys(fresh).sort();
    expect(readdirSync(EXAMPLES_DIR).sort()).toEqual(names);
    const committed = readCommittedExamples(names);
    for (const name of names) {
      const stale = `docs/examples/${name} is stale: run \`npm run examples\` and commit it`;
      expect([stale, normalizeForComparison(committed[name] ?? '')]).toEqual([
        stale,
        normalizeForComparison(fresh[name]!),
      ]);
    }
    // What the issue asks to be visible before installing.
    expect(fresh['build-failure-summary.md']).toMatch(/Build log \(last \d+ lines\)/);
    expect(fresh['build-failure-pr-comment.md']).toContain('ERROR: failed to solve');
    // Titled by what failed; no curl on a failed build; one link each.
    expect(fresh['build-failure-pr-comment.md']).toContain('### ❌ The build of `my-agent-pr-43`');
    expect(fresh['build-failure-pr-comment.md']).not.toContain('curl');
    expect(
      fresh['success-pr-comment.md']!.match(/Open (the deployment )?in LangSmith/g),
    ).toHaveLength(1);
    expect(fresh['tests-failure-summary.md']).toContain(
      '### ❌ `my-agent-pr-45` is deployed, but its conversation tests failed',
    );
    for (const file of ['tests-failure-summary.md', 'tests-failure-pr-comment.md']) {
      expect(fresh[file]).toContain('Hello from agent. You said: What is my name?');
    }
    expect(fresh['preflight-failure-summary.md']).toContain('#### Pre-flight errors');
    expect(fresh['preflight-failure-pr-comment.md']).toContain('`langgraph.json:3:');
    expect(fresh['success-pr-comment.md']).toContain('<!-- langgraph-deploy:my-agent-pr-42 -->');
    expect(fresh['input-errors-summary.md']).toContain('| `timeout` |');
  }, 120_000);
});

describe('stabilize', () => {
  it('maps IDs consistently, fixes the port and shifts times keeping their gaps', () => {
    const [a, b] = stabilize([
      'id 6f1c2e3a-1111-4222-8333-944455566677 at 2025-03-04 10:00:05 UTC via http://127.0.0.1:40123/x',
      'again 6f1c2e3a-1111-4222-8333-944455566677, then 2025-03-04 10:00:07 UTC, log 2025-03-04T10:00:06.250Z',
    ]);
    expect(a).toBe(
      'id 00000001-aaaa-4bbb-8ccc-000000000001 at 2026-01-15 09:30:00 UTC via http://127.0.0.1:8123/x',
    );
    expect(b).toBe(
      'again 00000001-aaaa-4bbb-8ccc-000000000001, then 2026-01-15 09:30:02 UTC, log 2026-01-15T09:30:01.250Z',
    );
  });

  it('the comparison ignores times and durations, not words', () => {
    expect(normalizeForComparison('seen at 2026-01-15 09:30:02 UTC for 2.7 s')).toBe(
      normalizeForComparison('seen at 2026-01-15 09:31:07 UTC for 1 min 05 s'),
    );
    expect(normalizeForComparison('`QUEUED`')).not.toBe(normalizeForComparison('`BUILDING`'));
  });
});
