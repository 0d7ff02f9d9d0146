/**
 * The evaluation gate part of `npm run demo` (scripts/demo.ts): a LangSmith dataset with an
 * evaluator bound to it in the simulator; a production deploy on `main` that records the
 * baseline experiment; then two pull requests deployed with `eval-dataset` and `eval-gate`:
 * one scores as well as production (the gate passes), one answers 4 of the 12 examples wrong
 * (the gate catches the regression and fails the step, with the table in the PR comment).
 */
import { readFileSync } from 'node:fs';
import { FakeGithub } from '../__tests__/helpers/fake-github.js';
import type { Simulator } from '../simulator/index.js';
import { DIST, runAction, type RunResult } from './run-action.js';

/** Whether the bundle the demo runs has the evaluation gate (its `eval-dataset` input). */
export function bundleHasEvaluation(): boolean {
  try {
    return readFileSync(DIST, 'utf8').includes('eval-dataset');
  } catch {
    return false;
  }
}

const QUESTIONS = [
  'What is LangGraph?',
  'How do I deploy an agent?',
  'What is a revision?',
  'What does the smoke test do?',
  'How do previews get cleaned up?',
  'What is a thread?',
  'What is an assistant?',
  'What does rollback do?',
  'Where do traces go?',
  'What is a dataset split?',
  'What is an experiment?',
  'What is a baseline?',
];

const FAST = [
  { status: 'QUEUED', durationMs: 300 },
  { status: 'BUILDING', durationMs: 1000 },
  { status: 'DEPLOYING', durationMs: 700 },
  { status: 'DEPLOYED', durationMs: 0 },
];

export interface DemoHelpers {
  banner(text: string): void;
  show(result: RunResult): void;
  quote(text: string): string;
  bold(text: string): string;
}

/** Runs the three steps; true when the production deploy and the good PR passed and the bad one failed. */
export async function evaluationDemo(
  sim: Simulator,
  common: Record<string, string>,
  ui: DemoHelpers,
): Promise<boolean> {
  sim.langsmith.seedDataset({
    name: 'demo-qa',
    examples: QUESTIONS.map((q) => ({ inputs: { input: q }, outputs: { output: `echo: ${q}` } })),
    // Bound to the dataset in LangSmith: it scores every new experiment's runs (here 1.5 s later).
    evaluators: [{ key: 'correctness', delayMs: 1500 }],
  });
  const evaluation = {
    'eval-dataset': 'demo-qa',
    'eval-gate': 'correctness: {min: 0.8, max-drop: 0.1}',
    'eval-wait': '60',
  };
  const github = await FakeGithub.start();
  try {
    ui.banner('Evaluation 1/3: production deploy on main records the baseline experiment');
    sim.queueTimeline(FAST);
    const production = await runAction({
      inputs: { ...common, name: 'demo-eval', ...evaluation },
      echo: true,
    });
    ui.show(production);

    const pullRequest = async (pr: number, wrongAnswerRate: number) => {
      sim.queueTimeline(FAST);
      // The agent server of the deployment this PR creates.
      sim.setAgentDefaults({ wrongAnswerRate });
      const result = await runAction({
        inputs: {
          ...common,
          name: `demo-eval-pr-${pr}`,
          'github-token': 'ghs_demo',
          ...evaluation,
        },
        event: {
          name: 'pull_request',
          payload: {
            action: 'synchronize',
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
        env: { GITHUB_API_URL: github.url },
        echo: true,
      });
      ui.show(result);
      const comment = github.comments.at(-1)?.body;
      console.log(
        ui.bold(`\nPR comment it posted on pull request #${pr} (a fake GitHub API here):`),
      );
      console.log(comment ? ui.quote(comment) : '  (none)');
      return result;
    };

    ui.banner('Evaluation 2/3: a pull request that scores like production: the gate passes');
    const good = await pullRequest(21, 0);
    ui.banner('Evaluation 3/3: a pull request that answers 4 of 12 wrong: the gate catches it');
    // wrongAnswerRate picks the wrong answers by a hash of the input: 0.23 is 4 of these 12.
    const bad = await pullRequest(22, 0.23);
    sim.setAgentDefaults({ wrongAnswerRate: 0 });
    return production.code === 0 && good.code === 0 && bad.code === 1;
  } finally {
    await github.close();
  }
}
