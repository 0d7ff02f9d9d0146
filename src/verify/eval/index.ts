/**
 * The evaluation gate (`eval-dataset`, INTERFACE v1.3 "Evaluation gate"), steps 1 to 5: read
 * the dataset and its examples, find the baseline, create the experiment, run every example on
 * the deployed agent (`./runs.ts`), wait for the dataset's evaluators to score the runs, and
 * compare per key (`./compare.ts`). Anything that can be known before a run (no dataset, no
 * example, too many, no such baseline, the key refused, no graph to run) is an error before
 * any run, titled "Evaluation not run"; a failed gate is a `CheckError` the caller treats like
 * any failed check. The report (step 6) is `report/evaluation.ts`.
 */
import { langsmithClient, type Experiment, type LangSmith } from '../../api/langsmith.js';
import { PULL_REQUEST_EVENTS, type BaseConfig } from '../../inputs/config.js';
import type { EvalConfig } from '../../inputs/eval.js';
import { inert } from '../../lib/untrusted.js';
import { CheckError, type VerifyContext } from '../agent-server.js';
import { compareScores, figure, interval, scoresOf, scoresOutput } from './compare.js';
import { agentRunner, notRun, pollWithin, recordUntraced, runAll } from './runs.js';

export interface EvalContext extends VerifyContext {
  config: Pick<BaseConfig, 'apiKey' | 'workspaceId' | 'uiBaseUrl' | 'github'> & {
    evaluation: EvalConfig;
  };
}

/** What the evaluation found, for the outputs, the step summary and the PR comment. */
export type EvaluationReport = Awaited<ReturnType<typeof evaluate>>['report'];

/** `target`: the deployment evaluated, its agent server and the IDs its experiment records. */
export async function evaluate(
  ctx: EvalContext,
  target: { url: string | undefined; name: string; deploymentId: string; revisionId?: string },
  deps: { langsmith?: LangSmith; runner?: Awaited<ReturnType<typeof agentRunner>> } = {},
) {
  const { config, logger, http } = ctx;
  const { evaluation: ev, apiKey, workspaceId, github } = config;
  const langsmith =
    deps.langsmith ?? (await langsmithClient({ apiUrl: ev.apiUrl, apiKey, workspaceId, http }));

  // 1. The dataset and its examples.
  const dataset = await langsmith.dataset(ev.dataset);
  if (!dataset) {
    throw notRun(
      `LangSmith (${ev.apiUrl}) has no dataset "${inert(ev.dataset, 200)}" (input ` +
        '`eval-dataset`): check its name or ID under Datasets & Experiments in LangSmith, and ' +
        'that `api-key` (and `workspace-id`) is of the workspace that holds it.',
    );
  }
  const name = `"${inert(dataset.name, 200)}"`;
  const inSplits =
    ev.splits.length > 0 ? ` in the splits ${ev.splits.join(', ')} (input \`eval-splits\`)` : '';
  const examples = await langsmith.examples(dataset.id, ev.splits, ev.maxExamples);
  if (examples.length === 0) {
    throw notRun(
      `Dataset ${name} (input \`eval-dataset\`) has no examples${inSplits}, so there is nothing ` +
        'to evaluate. Add examples to it in LangSmith, or fix the dataset or splits named.',
    );
  }
  if (examples.length > ev.maxExamples) {
    throw notRun(
      `Dataset ${name} has more than ${ev.maxExamples} examples${inSplits}, the most one ` +
        'evaluation runs (input `eval-max-examples`, the bound on its cost). Raise ' +
        '`eval-max-examples`, or run a smaller split with `eval-splits`.',
    );
  }
  const baseline = await findBaseline(ctx, langsmith, dataset.id);
  const cap = examples.length * 10 + 100;
  const baselineRuns = baseline && (await langsmith.rootRuns(baseline.id, cap));
  const runner = deps.runner ?? (await agentRunner(ctx, target.url, ev.assistant, ev.concurrency));

  // 2. The experiment, with what a later run finds its baseline by.
  const sha = github.pullRequest?.headSha ?? github.sha;
  const attempt = Number(github.runAttempt) > 1 ? `-${github.runAttempt}` : '';
  const experimentName = `${target.name}-${sha.slice(0, 7)}-${github.runId}${attempt}`;
  const experiment = await langsmith.createExperiment(experimentName, dataset.id, {
    repository: github.repository,
    sha,
    ref: github.ref,
    event: github.eventName,
    ...(github.pullRequest && { pr: github.pullRequest.number }),
    deployment: target.name,
    deployment_id: target.deploymentId,
    ...(target.revisionId && { revision_id: target.revisionId }),
    langgraph_deploy_action: true,
  });
  const tenant = experiment.tenant_id;
  const sessions = [experiment.id, ...(baseline ? [baseline.id] : [])].join('%2C');
  const url =
    tenant &&
    `${config.uiBaseUrl}/o/${tenant}/datasets/${dataset.id}/compare?selectedSessions=${sessions}`;
  logger.info(
    `Evaluating on dataset ${name}: ${examples.length} examples, ${ev.concurrency} at a time, ` +
      `in experiment "${inert(experimentName, 200)}"` +
      `${baseline ? `, compared with "${inert(baseline.name ?? baseline.id, 200)}"` : ''}.`,
  );

  // 3. One run per example, traced into the experiment (or recorded by the action).
  const outcomes = await runAll(ctx, examples, experimentName, ev.concurrency, runner.run);
  const errors = [...outcomes].flatMap(([example, o]) =>
    'error' in o ? [{ example, error: o.error }] : [],
  );
  if (errors.length > 0) {
    logger.warning(
      `${errors.length} of ${examples.length} example runs failed; they stay in the experiment ` +
        `as failed runs. First: ${errors
          .slice(0, 3)
          .map((e) => `${inert(e.example, 100)}: ${inert(e.error, 300)}`)
          .join('; ')}`,
      { title: 'Evaluation runs failed' },
    );
  }
  const traced = { id: experiment.id, name: experimentName, graph: runner.graph };
  const recorded = await recordUntraced(ctx, langsmith, traced, examples, outcomes, ev.waitSeconds);

  // 4. The dataset's evaluators score the runs: the experiment's feedback, read as a whole.
  const expected = new Set([
    ...(baselineRuns ? scoresOf(baselineRuns).keys() : []),
    ...Object.keys(ev.gate).filter((key) => key !== '*'),
  ]);
  let stats: Awaited<ReturnType<LangSmith['feedbackStats']>> = {};
  const scored = (key: string) => (stats[key]?.n ?? 0) >= examples.length;
  const done = await pollWithin(http, ev.waitSeconds * 1000, 10_000, async () => {
    stats = await langsmith.feedbackStats(experiment.id);
    const keys = expected.size > 0 ? [...expected] : Object.keys(stats);
    return keys.length > 0 && keys.every(scored);
  });
  if (!done) {
    const keys = [...new Set([...expected, ...Object.keys(stats)])];
    logger.warning(
      keys.length === 0
        ? `No evaluator scored the experiment within ${ev.waitSeconds} s (\`eval-wait\`): bind ` +
            `an evaluator to dataset ${name} in LangSmith (docs/evaluation.md), or raise \`eval-wait\`.`
        : `Not every run was scored within ${ev.waitSeconds} s (\`eval-wait\`): ` +
            keys
              .map((k) => `${inert(k, 100)} ${stats[k]?.n ?? 0} of ${examples.length}`)
              .join(', ') +
            '. These keys are reported as incomplete; raise `eval-wait` if the evaluators need longer.',
      { title: 'Evaluation incomplete' },
    );
  }

  // 5. Per-example scores of both experiments, compared per key.
  const keys = compareScores({
    current: await langsmith.rootRuns(experiment.id, cap),
    baseline: baselineRuns,
    gate: ev.gate,
    complete: new Set(Object.keys(stats).filter(scored)),
  });
  for (const k of keys) {
    const compared = baseline ? `, baseline ${figure(k.baseline)}, difference ${interval(k)}` : '';
    logger.info(
      `  ${inert(k.key, 100)}: ${figure(k.mean)} (${k.n} examples)${compared}: ${k.verdict}`,
    );
  }
  const failed = keys.filter((k) => k.verdict === 'failed');
  const report = {
    dataset: dataset.name,
    examples: examples.length,
    experimentId: experiment.id,
    experimentName,
    ...(baseline && { baselineName: baseline.name ?? baseline.id }),
    // The compare view of the experiment and its baseline (else the experiment alone).
    ...(url && { url }),
    keys,
    // Example runs that failed, the first 10 of them (example ID, inert and cut error).
    failedRuns: errors.length,
    errors: errors.slice(0, 10),
    // Runs the action recorded itself (the agent server did not trace them).
    recorded,
    gated: Object.keys(ev.gate).length > 0,
    passed: failed.length === 0,
    scores: scoresOutput(keys), // `eval-scores`
  };
  if (failed.length === 0) return { report, failure: undefined };
  const why = failed.map((k) => `${inert(k.key, 100)}: ${k.reasons.join('; ')}`).join('. ');
  const failure = new CheckError(
    `The evaluation gate failed on dataset ${name} (experiment "${inert(experimentName, 200)}"): ` +
      `${why}. ${url ? `Compare the runs in LangSmith: ${url}. ` : ''}Fix the agent, or change ` +
      '`eval-gate` if the change is intended.',
    'Evaluation failed',
  );
  return { report, failure };
}

/** `eval-baseline`: none, the experiment named, or the newest production experiment (`auto`). */
async function findBaseline(ctx: EvalContext, langsmith: LangSmith, datasetId: string) {
  const { baseline } = ctx.config.evaluation;
  const repository = ctx.config.github.repository;
  if (baseline === 'none') return undefined;
  if (baseline !== 'auto') {
    const found = await langsmith.experiment(baseline);
    const other = found?.reference_dataset_id && found.reference_dataset_id !== datasetId;
    if (!found || other) {
      throw notRun(
        `${other ? 'The experiment' : 'There is no experiment'} "${inert(baseline, 200)}" (input ` +
          `\`eval-baseline\`)${other ? ' is not an experiment on this dataset' : ' in LangSmith'}: ` +
          'give the name or ID of an experiment on the dataset, `auto` (the newest production ' +
          'experiment this action recorded) or `none`.',
      );
    }
    return found;
  }
  const recorded = await langsmith.experiments(datasetId, {
    langgraph_deploy_action: true,
    repository,
  });
  const production = recorded.filter((e) => {
    const meta = e.extra?.metadata ?? {};
    return (
      meta['langgraph_deploy_action'] === true &&
      meta['repository'] === repository &&
      !PULL_REQUEST_EVENTS.has(String(meta['event']))
    );
  });
  const time = (e: Experiment) => new Date(e.start_time ?? 0).getTime() || 0;
  const newest = production.sort((a, b) => time(b) - time(a))[0];
  if (!newest) {
    ctx.logger.notice(
      `No baseline yet: this action has recorded no experiment on the dataset for ${inert(repository, 200)} ` +
        'on a run that was not a pull request. A deploy on push or release with `eval-dataset` ' +
        'records one; until then the scores are reported without a comparison.',
      { title: 'No evaluation baseline' },
    );
  }
  return newest;
}
