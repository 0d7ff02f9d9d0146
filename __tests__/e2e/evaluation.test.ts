/**
 * End to end: the evaluation gate (`eval-dataset`, INTERFACE v1.3) on the built bundle, against
 * the simulator's control plane, agent servers and LangSmith API (datasets, experiments, runs,
 * an evaluator bound to the dataset): the table and the outputs, the gate passing and catching
 * a regression (with `rollback-on-failure`), the baselines, the failures each with its message.
 */
import { beforeEach, describe, expect, it } from '@jest/globals';
import {
  baseInputs,
  errors,
  expectExit,
  INTEGRATION_ID,
  mark,
  PR_EVENT,
  SHORT_TIMELINE,
  uniqueName,
  warnings,
} from './deploy-support.js';
import { runAction, type RunOptions, type RunResult } from '../../scripts/run-action.js';
import { useSimulator } from '../helpers/simulator.js';

const sim = useSimulator({ timeline: SHORT_TIMELINE });
const EXAMPLES = 12;
const PRODUCTION = { langgraph_deploy_action: true, repository: 'acme/agent', event: 'push' };

beforeEach(() => {
  sim.reset();
  sim.langsmith.seedDataset({
    name: 'qa',
    examples: Array.from({ length: EXAMPLES }, (_, i) => ({
      inputs: { input: `question ${i}` },
      outputs: { output: `echo: question ${i}` },
      splits: i < 4 ? ['smoke'] : ['base'],
    })),
    evaluators: [{ key: 'correctness', delayMs: 300 }],
  });
});

/** A production experiment recorded earlier: every answer right. */
function seedProduction(name = 'agent-main-1', startTime = Date.now() - 3_600_000) {
  return sim.langsmith.seedExperiment({
    name,
    dataset: 'qa',
    metadata: PRODUCTION,
    startTime,
    scores: { correctness: 1 },
  });
}

function deploy(inputs: Record<string, string>, options: Partial<RunOptions> = {}) {
  return runAction({
    event: PR_EVENT,
    ref: 'refs/pull/7/merge',
    ...options,
    inputs: baseInputs(sim, {
      name: uniqueName('eval'),
      'integration-id': INTEGRATION_ID,
      'eval-dataset': 'qa',
      'eval-wait': '20',
      ...inputs,
    }),
  });
}

const scores = (r: RunResult) =>
  JSON.parse(r.outputs['eval-scores'] ?? '{}') as Record<string, Record<string, number | null>>;

describe('eval-dataset on a pull request', () => {
  it('runs every example once into one experiment, compares with production and reports it', async () => {
    const production = seedProduction();
    const r = await deploy({ 'eval-gate': 'correctness: {min: 0.9, max-drop: 0.05}' });

    expectExit(r, 0);
    expect(errors(r)).toEqual([]);
    const experiment = sim.langsmith.sessions().find((s) => s.id === r.outputs['experiment-id']);
    expect(experiment?.extra?.['metadata']).toMatchObject({
      langgraph_deploy_action: true,
      repository: 'acme/agent',
      event: 'pull_request',
      pr: 7,
      sha: '9f8e7d6c5b4a39281706f5e4d3c2b1a098765432',
      deployment_id: r.outputs['deployment-id'],
      revision_id: r.outputs['revision-id'],
    });
    const roots = sim.langsmith.runs(experiment!.id).filter((run) => !run.parent_run_id);
    expect(roots).toHaveLength(EXAMPLES);
    expect(new Set(roots.map((run) => run.reference_example_id)).size).toBe(EXAMPLES);
    expect(r.outputs['eval-passed']).toBe('true');
    expect(r.outputs['experiment-url']).toMatch(
      new RegExp(`/compare\\?selectedSessions=${experiment!.id}%2C${production.id}$`),
    );
    expect(scores(r)).toEqual({
      correctness: { mean: 1, n: EXAMPLES, baseline: 1, delta: 0, low: 0, high: 0 },
    });
    expect(r.summary).toContain('#### Evaluation on `qa`: 12 examples, gate passed');
    expect(r.summary).toContain(
      '| `correctness` | 1.000 | 1.000 | 0.000 (0.000 to 0.000) | 12 of 12 | ✅ passed |',
    );
    expect(r.summary).toContain('[Compare in LangSmith](');
    // No per-example LangSmith request: the experiment is read as a whole.
    const counts = sim.langsmith.requestCounts();
    expect(Math.max(...Object.values(counts))).toBeLessThan(EXAMPLES / 2);
  });

  it('fails the step on a regression, titled as an evaluation failure, and rolls back', async () => {
    seedProduction();
    const name = uniqueName('eval-regress');
    const dep = sim.seedDeployment({ name, repoUrl: 'https://github.com/acme/agent' });
    const before = dep.active_revision_id;
    sim.queueRevisionAgent({ wrongAnswerRate: 0.6 }); // the revision this run makes
    const r = await deploy({
      name,
      'eval-gate': '"*": {max-drop: 0.1}',
      'rollback-on-failure': 'true',
    });

    expectExit(r, 1);
    expect(r.outputs['eval-passed']).toBe('false');
    const [error] = errors(r);
    expect(error?.message).toMatch(
      /The evaluation gate failed on dataset "qa" \(experiment "[^"]+"\): correctness: dropped by 0\.\d{3} from the baseline's 1\.000 \(95% interval -\d\.\d{3} to -\d\.\d{3}, 12 paired examples\), more than max-drop 0\.1/,
    );
    expect(error?.props).toBe('title=Rolled back after failed checks');
    expect(r.outputs['rolled-back-to']).toBe(before);
    expect(r.summary).toContain('its evaluation failed');
    expect(r.summary).toContain('**gate failed**');
  });

  it('fails without rollback-on-failure with the title "Evaluation failed"', async () => {
    seedProduction();
    sim.setAgentDefaults({ wrongAnswerRate: 0.6 });
    const r = await deploy({ 'eval-gate': 'correctness: {min: 0.9}' });
    expectExit(r, 1);
    expect(errors(r).map((e) => e.props)).toEqual(['title=Evaluation failed']);
    expect(errors(r)[0]?.message).toMatch(
      /correctness: mean 0\.\d{3} is below min 0\.9 \(12 examples\)/,
    );
  });

  it('without eval-gate, reports and never fails on scores', async () => {
    seedProduction();
    sim.setAgentDefaults({ wrongAnswerRate: 0.6 });
    const r = await deploy({});
    expectExit(r, 0);
    expect(r.outputs['eval-passed']).toBe('true');
    expect(scores(r)['correctness']?.['delta']).toBeLessThan(0);
    expect(r.summary).toContain('no gate');
  });
});

describe('baselines', () => {
  it('a deploy that is not a pull request records the next baseline, which auto then finds', async () => {
    seedProduction('agent-main-old', Date.now() - 7_200_000);
    const push = await deploy(
      { name: 'agent-main' },
      { event: { name: 'push' }, ref: 'refs/heads/main' },
    );
    expectExit(push, 0);
    const recorded = sim.langsmith.sessions().find((s) => s.id === push.outputs['experiment-id']);
    expect(recorded?.extra?.['metadata']).toMatchObject({ ...PRODUCTION, ref: 'refs/heads/main' });
    expect(recorded?.extra?.['metadata']).not.toHaveProperty('pr');
    // The push run compared with the production experiment before it.
    expect(push.summary).toContain('compared with `agent-main-old`');

    // A pull-request experiment recorded since is no baseline.
    sim.langsmith.seedExperiment({
      name: 'a-newer-preview',
      dataset: 'qa',
      metadata: { ...PRODUCTION, event: 'pull_request' },
      scores: { correctness: 0 },
    });
    const pr = await deploy({});
    expectExit(pr, 0);
    expect(pr.outputs['experiment-url']).toContain(`%2C${push.outputs['experiment-id']}`);
  });

  it('none compares with nothing; a name picks that experiment; an unknown one is an error before any run', async () => {
    const old = seedProduction('agent-main-old', Date.now() - 7_200_000);
    seedProduction('agent-main-new');
    const none = await deploy({ 'eval-baseline': 'none' });
    expectExit(none, 0);
    expect(none.outputs['experiment-url']).toMatch(/selectedSessions=[0-9a-f-]+$/);
    expect(scores(none)['correctness']?.['baseline']).toBeNull();

    const named = await deploy({ 'eval-baseline': 'agent-main-old' });
    expectExit(named, 0);
    expect(named.outputs['experiment-url']).toContain(`%2C${old.id}`);

    const sessions = sim.langsmith.sessions().length;
    const missing = await deploy({ 'eval-baseline': 'no-such-experiment' });
    expectExit(missing, 1);
    expect(errors(missing)[0]?.props).toBe('title=Evaluation not run');
    expect(errors(missing)[0]?.message).toMatch(
      /no experiment "no-such-experiment" \(input `eval-baseline`\)/,
    );
    expect(sim.langsmith.sessions()).toHaveLength(sessions);
  });
});

describe('what goes wrong, each with its message', () => {
  it('refuses bad eval inputs before any request', async () => {
    const since = mark(sim);
    const r = await deploy({
      'eval-gate': 'correctness: {max_drop: 0.1}',
      'eval-max-examples': 'many',
    });
    expectExit(r, 1);
    const messages = errors(r)
      .map((e) => e.message)
      .join('\n');
    expect(messages).toMatch(
      /`eval-gate` names the rule "max_drop" for key "correctness", which does not exist/,
    );
    expect(messages).toMatch(/`eval-max-examples` is "many"/);
    expect(since.since()).toEqual([]);
  });

  it('names eval-max-examples when the split has more examples, and eval-splits when it has none', async () => {
    const tooMany = await deploy({ 'eval-max-examples': '3', 'eval-splits': 'smoke' });
    expectExit(tooMany, 1);
    expect(errors(tooMany)[0]?.message).toMatch(
      /more than 3 examples in the splits smoke .*`eval-max-examples`/,
    );
    const none = await deploy({ 'eval-splits': 'nothing' });
    expectExit(none, 1);
    expect(errors(none)[0]?.message).toMatch(
      /has no examples in the splits nothing \(input `eval-splits`\)/,
    );
    const unknown = await deploy({ 'eval-dataset': 'no-such-dataset' });
    expect(errors(unknown)[0]?.message).toMatch(
      /no dataset "no-such-dataset" \(input `eval-dataset`\)/,
    );
    expect(sim.langsmith.sessions()).toEqual([]);
  });

  it('says so when LangSmith refuses the key, without rolling back', async () => {
    sim.langsmith.refuseKey(401);
    const r = await deploy({ 'rollback-on-failure': 'true' });
    expectExit(r, 1);
    expect(errors(r)[0]?.props).toBe('title=LangSmith refused the API key');
    expect(errors(r)[0]?.message).toMatch(/refused the API key \(HTTP 401\).*Check `api-key`/);
    expect(r.stdout.replace(/^::add-mask::.*$/gm, '')).not.toContain(sim.apiKey);
    expect(r.outputs['rolled-back-to']).toBeUndefined();
  });

  it('reports an evaluator that never scores as incomplete, failing only a key the gate names', async () => {
    // The baseline has both keys, so both are expected of this run.
    sim.langsmith.seedExperiment({
      name: 'agent-main-1',
      dataset: 'qa',
      metadata: PRODUCTION,
      startTime: Date.now() - 3_600_000,
      scores: { correctness: 1, tone: 1 },
    });
    sim.langsmith.setEvaluators('qa', [
      { key: 'correctness', delayMs: 0 },
      { key: 'tone', never: true },
    ]);
    const reported = await deploy({ 'eval-wait': '2' });
    expectExit(reported, 0);
    expect(
      warnings(reported)
        .map((w) => w.message)
        .join('\n'),
    ).toMatch(/tone 0 of 12/);
    expect(reported.summary).toMatch(/\| `tone` \| .* \| ⚠️ incomplete \|/);

    const gated = await deploy({ 'eval-wait': '2', 'eval-gate': 'tone: {min: 0.5}' });
    expectExit(gated, 1);
    expect(errors(gated)[0]?.message).toMatch(/tone: not scored on every run/);
  });

  it('records the runs an agent server that ignores langsmith_tracer did not trace', async () => {
    sim.setAgentDefaults({ ignoreTracer: true });
    const r = await deploy({ 'eval-wait': '2' });
    expectExit(r, 0);
    expect(
      r.annotations
        .filter((a) => a.kind === 'notice')
        .map((a) => a.message)
        .join('\n'),
    ).toMatch(
      /12 of 12 example runs did not show up in the experiment .* the action recorded them itself/,
    );
    const runs = sim.langsmith.runs(r.outputs['experiment-id']!);
    expect(runs).toHaveLength(EXAMPLES);
    expect(runs.every((run) => run.reference_example_id && run.outputs)).toBe(true);
    expect(scores(r)['correctness']).toMatchObject({ mean: 1, n: EXAMPLES });
  });

  it('counts and shows runs that error, inert', async () => {
    sim.setAgentDefaults({ run: 'error', errorMessage: 'graph exploded ::warning::forged' });
    const r = await deploy({});
    expectExit(r, 0);
    const warning = warnings(r).find((w) => w.props.includes('Evaluation runs failed'));
    expect(warning?.message).toMatch(/12 of 12 example runs failed/);
    expect(r.stdout).not.toMatch(/^::warning::forged/m);
    expect(r.annotations.some((a) => a.message === 'forged')).toBe(false);
    expect(r.summary).toContain('12 of 12 example runs failed:');
    expect(r.summary).toContain('Error: graph exploded');
  });
});
