/** The evaluation step (steps 1 to 5) against an in-memory LangSmith and agent. */
import { afterEach, describe, expect, it } from '@jest/globals';
import type { Example } from '../../../src/api/langsmith.js';
import type { EvalConfig } from '../../../src/inputs/eval.js';
import { ActionError } from '../../../src/lib/errors.js';
import { Deadline } from '../../../src/lib/time.js';
import { resetSecretsForTests, setSecret } from '../../../src/lib/untrusted.js';
import { CheckError } from '../../../src/verify/agent-server.js';
import { evaluate, type EvalContext } from '../../../src/verify/eval/index.js';
import type { Outcome } from '../../../src/verify/eval/runs.js';
import { FakeClock, githubContext, recordingLogger } from '../../helpers/fakes.js';
import { DATASET, examples, FakeLangSmith, PRODUCTION } from '../../helpers/fake-langsmith.js';

function setup(
  options: {
    n?: number;
    evaluation?: Partial<EvalConfig>;
    pr?: boolean;
    traces?: boolean;
    outcome?: (example: Example) => Outcome;
  } = {},
) {
  const clock = new FakeClock();
  const logger = recordingLogger();
  const langsmith = new FakeLangSmith(clock, examples(options.n ?? 10));
  const ran: string[] = [];
  const runner = {
    graph: 'agent',
    run: async (example: Example, project: string): Promise<Outcome> => {
      ran.push(example.id);
      await clock.sleep(500);
      if (options.traces !== false) langsmith.trace(project, example.id);
      return options.outcome?.(example) ?? { outputs: { answer: `a-${example.id}` } };
    },
  };
  const ctx: EvalContext = {
    http: { clock, deadline: new Deadline(clock, clock.now() + 1800 * 1000), logger },
    logger,
    config: {
      apiKey: 'lsv2_pt_eval_unit_key',
      uiBaseUrl: 'https://smith.langchain.com',
      github: githubContext('https://api.github.com', { pr: options.pr ?? true }),
      evaluation: {
        dataset: 'qa',
        splits: [],
        maxExamples: 200,
        concurrency: 4,
        baseline: 'auto',
        gate: {},
        waitSeconds: 300,
        apiUrl: 'https://api.smith.langchain.com',
        ...options.evaluation,
      },
    },
  };
  const target = {
    url: 'https://agent.example.com',
    name: 'my-agent',
    deploymentId: 'dep-1',
    revisionId: 'rev-2',
  };
  const run = () => evaluate(ctx, target, { langsmith, runner });
  return { clock, logger, langsmith, ran, run };
}

afterEach(() => resetSecretsForTests());

describe('evaluate', () => {
  it('runs every example once in one experiment, compares with production, and passes the gate', async () => {
    const { langsmith, ran, run } = setup({
      evaluation: { gate: { correctness: { min: 0.5, maxDrop: 0.1 } } },
    });
    langsmith.past('prod-old', PRODUCTION, '2026-01-01T00:00:00Z', () => 0);
    langsmith.past('prod-new', PRODUCTION, '2026-02-01T00:00:00Z', () => 1);
    langsmith.past(
      'a-pr',
      { ...PRODUCTION, event: 'pull_request' },
      '2026-03-01T00:00:00Z',
      () => 0,
    );
    langsmith.past(
      'other-repo',
      { ...PRODUCTION, repository: 'x/y' },
      '2026-03-01T00:00:00Z',
      () => 0,
    );
    const { report, failure } = await run();
    expect(failure).toBeUndefined();
    expect(ran.sort()).toEqual(
      examples(10)
        .map((e) => e.id)
        .sort(),
    );
    expect(report).toMatchObject({
      dataset: 'qa',
      examples: 10,
      experimentName: `my-agent-bbbbbbb-42`,
      baselineName: 'prod-new',
      passed: true,
      gated: true,
      recorded: 0,
      failedRuns: 0,
    });
    expect(report.url).toBe(
      `https://smith.langchain.com/o/tenant-1/datasets/${DATASET}/compare?selectedSessions=${report.experimentId}%2Cpast-prod-new`,
    );
    expect(report.keys).toEqual([
      expect.objectContaining({
        key: 'correctness',
        mean: 1,
        n: 10,
        baseline: 1,
        delta: 0,
        low: 0,
        high: 0,
        verdict: 'passed',
      }),
    ]);
    expect(JSON.parse(report.scores)).toEqual({
      correctness: { mean: 1, n: 10, baseline: 1, delta: 0, low: 0, high: 0 },
    });
    const created = langsmith.session(report.experimentId);
    expect(created.extra?.metadata).toEqual({
      repository: 'octo/app',
      sha: 'b'.repeat(40),
      ref: 'refs/pull/7/merge',
      event: 'pull_request',
      pr: 7,
      deployment: 'my-agent',
      deployment_id: 'dep-1',
      revision_id: 'rev-2',
      langgraph_deploy_action: true,
    });
  });

  it('reads the experiment as a whole while waiting: LangSmith calls grow with polls, not examples', async () => {
    const { langsmith, run } = setup({ n: 200 });
    await run();
    const count = (call: string) => langsmith.calls.filter((c) => c === call).length;
    expect(count('createExperiment')).toBe(1);
    expect(count('rootRuns')).toBe(2); // traces found at once; the final scores
    expect(count('feedbackStats')).toBeLessThanOrEqual(5);
    expect(langsmith.calls.length).toBeLessThan(15);
  });

  it('fails the gate on a significant drop beyond max-drop, naming the key and its figures', async () => {
    const { langsmith, run } = setup({ evaluation: { gate: { '*': { maxDrop: 0.1 } } } });
    langsmith.past('prod', PRODUCTION, '2026-02-01T00:00:00Z', () => 1);
    langsmith.score = (e) => ({ correctness: Number(e.slice(3)) % 2 === 0 ? 0 : 1 }); // mean 0.5
    const { report, failure } = await run();
    expect(failure).toBeInstanceOf(CheckError);
    expect((failure as CheckError).title).toBe('Evaluation failed');
    expect((failure as Error).message).toMatch(
      /correctness: dropped by 0\.500 from the baseline's 1\.000 \(95% interval -0\.877 to -0\.123, 10 paired examples\), more than max-drop 0\.1/,
    );
    expect(report.passed).toBe(false);
    expect(report.keys[0]?.verdict).toBe('failed');
  });

  it('does not fail a drop whose interval reaches zero (noise, not a regression)', async () => {
    const { langsmith, run } = setup({
      n: 4,
      evaluation: { gate: { correctness: { maxDrop: 0.1 } } },
    });
    langsmith.past('prod', PRODUCTION, '2026-02-01T00:00:00Z', () => 1);
    langsmith.score = (e) => ({ correctness: e === 'ex-0' ? 0 : 1 }); // one of four dropped
    const { report, failure } = await run();
    expect(failure).toBeUndefined();
    expect(report.keys[0]).toMatchObject({ delta: -0.25, verdict: 'passed' });
    expect(report.keys[0]?.high).toBeGreaterThan(0);
  });

  it('fails a mean below min', async () => {
    const { langsmith, run } = setup({
      evaluation: { baseline: 'none', gate: { correctness: { min: 0.95 } } },
    });
    langsmith.score = (e) => ({ correctness: e === 'ex-0' ? 0 : 1 });
    const { failure } = await run();
    expect((failure as Error).message).toMatch(
      /correctness: mean 0\.900 is below min 0\.95 \(10 examples\)/,
    );
  });

  it('reports a key never scored as incomplete, failing only when the gate names it', async () => {
    const { langsmith, run, logger } = setup({
      evaluation: { waitSeconds: 60, gate: { tone: { min: 0 } } },
    });
    langsmith.score = (e) => ({ correctness: 1, helpfulness: e === 'ex-0' ? undefined : 1 });
    const { report, failure } = await run();
    const verdicts = Object.fromEntries(report.keys.map((k) => [k.key, k.verdict]));
    expect(verdicts).toEqual({
      correctness: 'reported',
      helpfulness: 'incomplete',
      tone: 'failed',
    });
    expect((failure as Error).message).toMatch(
      /tone: not scored on every run \(0 examples scored\)/,
    );
    expect(logger.messages('warning').join('\n')).toMatch(/tone 0 of 10/);
  });

  it('waits at most eval-wait for an evaluator that never scores, polling the experiment', async () => {
    const { langsmith, run, clock } = setup({ evaluation: { waitSeconds: 120 } });
    langsmith.score = () => ({});
    const started = clock.now();
    const { report, failure } = await run();
    expect(failure).toBeUndefined();
    expect(report.keys).toEqual([]);
    expect(clock.now() - started).toBeLessThanOrEqual(120_000 + 5 * 500);
    expect(langsmith.calls.filter((c) => c === 'feedbackStats').length).toBeLessThan(20);
  });

  it('records the runs an agent server did not trace, with a notice', async () => {
    const { langsmith, run, logger } = setup({ n: 3, traces: false });
    const { report } = await run();
    expect(report.recorded).toBe(3);
    expect(langsmith.created).toEqual(
      examples(3).map((e) =>
        expect.objectContaining({
          project_name: report.experimentName,
          reference_example_id: e.id,
          inputs: e.inputs,
          outputs: { answer: `a-${e.id}` },
        }),
      ),
    );
    expect(logger.messages('notice').join('\n')).toMatch(/3 of 3 example runs did not show up/);
    expect(report.keys[0]).toMatchObject({ key: 'correctness', n: 3, verdict: 'reported' });
  });

  it('counts and shows the runs that failed, masked and inert', async () => {
    setSecret('hunter2-secret');
    const { run, logger } = setup({
      n: 4,
      outcome: (e) =>
        e.id === 'ex-1' ? { error: 'ValueError: boom hunter2-secret ::error::x' } : { outputs: {} },
    });
    const { report } = await run();
    expect(report.failedRuns).toBe(1);
    expect(report.errors).toEqual([
      { example: 'ex-1', error: 'ValueError: boom hunter2-secret ::error::x' },
    ]);
    const warning = logger.messages('warning').join('\n');
    expect(warning).toMatch(/1 of 4 example runs failed/);
    expect(warning).not.toContain('hunter2-secret');
    expect(warning).not.toContain('::error');
  });

  it('finds an explicit baseline by name, and none with `none`', async () => {
    const named = setup({ evaluation: { baseline: 'prod-old' } });
    named.langsmith.past('prod-old', PRODUCTION, '2026-01-01T00:00:00Z', () => 0);
    named.langsmith.past('prod-new', PRODUCTION, '2026-02-01T00:00:00Z', () => 1);
    expect((await named.run()).report).toMatchObject({ baselineName: 'prod-old' });

    const none = setup({ evaluation: { baseline: 'none' } });
    none.langsmith.past('prod-new', PRODUCTION, '2026-02-01T00:00:00Z', () => 1);
    const { report } = await none.run();
    expect(report.baselineName).toBeUndefined();
    expect(report.keys[0]?.delta).toBeNull();
    expect(none.langsmith.calls).not.toContain('experiments');
  });

  it('on a run that is not a pull request, records production metadata and compares with the one before', async () => {
    const { langsmith, run } = setup({ pr: false });
    langsmith.past('prod', PRODUCTION, '2026-02-01T00:00:00Z', () => 1);
    const { report } = await run();
    expect(report.baselineName).toBe('prod');
    const metadata = langsmith.session(report.experimentId).extra?.metadata;
    expect(metadata).toMatchObject({
      event: 'push',
      sha: 'a'.repeat(40),
      langgraph_deploy_action: true,
    });
    expect(metadata).not.toHaveProperty('pr');
  });

  it.each([
    [{ dataset: 'nope' }, 10, /no dataset "nope" \(input `eval-dataset`\)/],
    [{ splits: ['test'] }, 0, /has no examples in the splits test \(input `eval-splits`\)/],
    [{ maxExamples: 5 }, 10, /more than 5 examples.*`eval-max-examples`/],
    [{ baseline: 'missing' }, 10, /There is no experiment "missing" \(input `eval-baseline`\)/],
  ])('stops before any run on %j', async (evaluation, n, message) => {
    const { run, ran, langsmith } = setup({ n, evaluation });
    const error = await run().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ActionError);
    expect((error as ActionError).title).toBe('Evaluation not run');
    expect((error as Error).message).toMatch(message);
    expect(ran).toEqual([]);
    expect(langsmith.calls).not.toContain('createExperiment');
  });

  it('refuses a baseline of another dataset', async () => {
    const { run, langsmith } = setup({ evaluation: { baseline: 'elsewhere' } });
    langsmith.sessions.push({
      id: 'x',
      name: 'elsewhere',
      reference_dataset_id: 'other',
      runs: [],
    });
    await expect(run()).rejects.toThrow(
      /"elsewhere" \(input `eval-baseline`\) is not an experiment on this dataset/,
    );
  });
});
