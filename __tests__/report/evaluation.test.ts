import { describe, expect, it } from '@jest/globals';
import { evaluationSection } from '../../src/report/evaluation.js';
import { headline, renderComment, renderSummary } from '../../src/report/render.js';
import type { RunReport } from '../../src/report/record.js';
import type { EvaluationReport } from '../../src/verify/eval/index.js';
import type { KeyScore } from '../../src/verify/eval/compare.js';

const key = (overrides: Partial<KeyScore>): KeyScore => ({
  key: 'correctness',
  mean: 0.8,
  n: 20,
  baseline: 0.85,
  baselineN: 20,
  delta: -0.05,
  low: -0.12,
  high: 0.02,
  paired: 20,
  complete: true,
  verdict: 'passed',
  reasons: [],
  ...overrides,
});

const evaluation = (overrides: Partial<EvaluationReport> = {}): EvaluationReport => ({
  dataset: 'qa',
  examples: 20,
  experimentId: 'exp-1',
  experimentName: 'my-agent-abc1234-42',
  baselineName: 'my-agent-def5678-40',
  url: 'https://smith.langchain.com/o/t/datasets/d/compare?selectedSessions=exp-1%2Cexp-0',
  keys: [key({})],
  failedRuns: 0,
  errors: [],
  recorded: 0,
  gated: true,
  passed: true,
  scores: '{}',
  ...overrides,
});

describe('evaluationSection', () => {
  it('is one table with this run, baseline, difference and interval, examples scored, verdict, and the compare link', () => {
    const text = evaluationSection(evaluation());
    expect(text).toContain('#### Evaluation on `qa`: 20 examples, gate passed');
    expect(text).toContain(
      '[Compare in LangSmith](https://smith.langchain.com/o/t/datasets/d/compare?selectedSessions=exp-1%2Cexp-0)',
    );
    expect(text).toContain(
      '| Key | This run | Baseline | Difference (95% interval) | Examples scored | Verdict |',
    );
    expect(text).toContain(
      '| `correctness` | 0.800 | 0.850 | -0.050 (-0.120 to +0.020) | 20 of 20 | ✅ passed |',
    );
  });

  it('names each failing key with its reasons, and the failed runs, escaped', () => {
    const text = evaluationSection(
      evaluation({
        passed: false,
        keys: [
          key({
            key: 'a|b',
            verdict: 'failed',
            reasons: ['mean 0.100 is below min 0.5 (20 examples)'],
          }),
        ],
        failedRuns: 3,
        errors: [{ example: 'ex-1', error: '<img src=x> @team *boom*' }],
        recorded: 2,
      }),
    );
    expect(text).toContain('**gate failed**');
    expect(text).toContain('| `a\\|b` |');
    expect(text).toContain('- ❌ `a|b`: mean 0.100 is below min 0.5 &#40;20 examples&#41;');
    expect(text).toContain('3 of 20 example runs failed:');
    expect(text).toContain('&#60;img src=x&#62; @\u200bteam &#42;boom&#42;');
    expect(text).toContain('- and 2 more');
    expect(text).toContain('2 runs were recorded by the action');
  });

  it('says when there is no baseline or no score', () => {
    const text = evaluationSection(
      evaluation({
        baselineName: undefined,
        gated: false,
        keys: [key({ baseline: null, delta: null, low: null, high: null, verdict: 'reported' })],
      }),
    );
    expect(text).toContain('no gate');
    expect(text).toContain('(no baseline)');
    expect(text).toContain('| `correctness` | 0.800 | — | — | 20 of 20 | — |');
    expect(evaluationSection(evaluation({ keys: [] }))).toMatch(/No evaluator scored the runs/);
    expect(evaluationSection(undefined)).toBe('');
  });
});

describe('the evaluation in the run’s reports', () => {
  const report: RunReport = {
    command: 'deploy',
    outcome: 'failure',
    name: 'my-agent',
    status: 'DEPLOYED',
    timeline: [],
    checks: { health: 'passed', evaluation: 'failed' },
    evaluation: evaluation({ passed: false }),
  };

  it('is in the step summary and the PR comment, and a failed gate names the evaluation', () => {
    expect(headline(report)).toBe('❌ `my-agent` is deployed, but its evaluation failed');
    expect(renderSummary(report)).toContain('#### Evaluation on `qa`');
    expect(renderComment(report, '<!-- m -->')).toContain('| Key | This run | Baseline |');
  });
});
