/**
 * The demo's evaluation gate (`npm run demo`, after the other steps): a LangSmith dataset with
 * an evaluator bound to it and a production experiment on the simulator, then two pull-request
 * deploys with `eval-dataset` and `eval-gate`: one whose agent scores as well as production
 * (the gate passes), one whose new revision answers half the examples wrong (the gate catches
 * the regression and fails the step). True when both did what they should.
 */
import type { Simulator } from '../simulator/index.js';
import type { RunResult } from './run-action.js';
import { runAction } from './run-action.js';

export async function demoEvaluation(
  sim: Simulator,
  common: Record<string, string>,
  say: { banner(text: string): void; show(result: RunResult): void },
): Promise<boolean> {
  sim.langsmith.seedDataset({
    name: 'support-qa',
    examples: Array.from({ length: 8 }, (_, i) => ({
      inputs: { input: `question ${i}` },
      outputs: { output: `echo: question ${i}` },
    })),
    // LangSmith runs it on every new experiment of the dataset; here: exact match, after 1 s.
    evaluators: [{ key: 'correctness', delayMs: 1000 }],
  });
  sim.langsmith.seedExperiment({
    name: 'demo-agent-1a2b3c4-100',
    dataset: 'support-qa',
    metadata: { langgraph_deploy_action: true, repository: 'acme/agent', event: 'push' },
    startTime: Date.now() - 86_400_000,
    scores: { correctness: 1 },
  });
  const preview = (pr: number) =>
    runAction({
      inputs: {
        ...common,
        name: `demo-agent-pr-${pr}`,
        'eval-dataset': 'support-qa',
        'eval-gate': 'correctness: {min: 0.8, max-drop: 0.1}',
        'eval-wait': '30',
      },
      event: {
        name: 'pull_request',
        payload: {
          number: pr,
          pull_request: {
            number: pr,
            head: {
              sha: `${pr}`.repeat(40).slice(0, 40),
              ref: `feature/${pr}`,
              repo: { full_name: 'acme/agent' },
            },
            base: { sha: '0'.repeat(40), ref: 'main', repo: { full_name: 'acme/agent' } },
          },
        },
      },
      ref: `refs/pull/${pr}/merge`,
      echo: true,
    });
  const quick = [
    { status: 'QUEUED', durationMs: 300 },
    { status: 'BUILDING', durationMs: 700 },
    { status: 'DEPLOYED', durationMs: 0 },
  ] as const;

  say.banner('eval gate 1/2: a preview evaluated on a LangSmith dataset, compared with production');
  sim.queueTimeline([...quick]);
  const passed = await preview(21);
  say.show(passed);

  say.banner('eval gate 2/2: a preview that answers half the examples wrong: the gate fails it');
  sim.queueTimeline([...quick]);
  sim.queueRevisionAgent({ wrongAnswerRate: 0.5 });
  const caught = await preview(22);
  say.show(caught);
  const ok = passed.code === 0 && caught.code === 1;
  console.log(
    ok
      ? '\nEvaluation gate: the preview that scores as production passed; the regression failed the step.'
      : '\nEvaluation gate: NOT as expected (see the two runs above).',
  );
  return ok;
}
