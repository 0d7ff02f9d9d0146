/**
 * `npm run demo`: the whole job against the bundled simulator, nothing to sign up for.
 * Starts the local control plane on a free loopback port and runs `node dist/index.js` as
 * the GitHub runner would, five times: create and wait, update, a pull request whose build
 * fails (the log tail and the PR comment it posts), delete, prune (of previews the action's own
 * pull-request runs made); then the evaluation gate (scripts/demo-eval.ts): a production
 * baseline, a pull request that passes, one that regresses. Each run's log is printed as the
 * runner shows it (`RUNNER_DEBUG=1` adds the debug lines): masked values as `***`, no raw
 * workflow commands.
 */
import { FakeGithub } from '../__tests__/helpers/fake-github.js';
import { startSimulator } from '../simulator/index.js';
import { bundleHasEvaluation, evaluationDemo } from './demo-eval.js';
import { runAction, type RunResult } from './run-action.js';

const bold = (s: string) => (process.stdout.isTTY ? `\x1b[1m${s}\x1b[0m` : s);

function banner(text: string): void {
  console.log(`\n${bold(`━━ ${text} ${'━'.repeat(Math.max(0, 70 - text.length))}`)}`);
}

function quote(text: string): string {
  return text
    .trim()
    .split('\n')
    .map((l) => `  │ ${l}`)
    .join('\n');
}

function show(result: RunResult): void {
  console.log(bold('\nOutputs (GITHUB_OUTPUT):'));
  for (const [k, v] of Object.entries(result.outputs)) console.log(`  ${k} = ${v}`);
  console.log(bold('\nStep summary (GITHUB_STEP_SUMMARY):'));
  console.log(quote(result.summary));
  console.log(`\nExit code ${result.code} after ${(result.elapsedMs / 1000).toFixed(1)} s.`);
}

const sim = await startSimulator({
  // About 10 s from QUEUED to DEPLOYED, so each status is visible.
  timeline: [
    { status: 'QUEUED', durationMs: 1000 },
    { status: 'AWAITING_BUILD', durationMs: 1000 },
    { status: 'BUILDING', durationMs: 4000 },
    { status: 'AWAITING_DEPLOY', durationMs: 1000 },
    { status: 'DEPLOYING', durationMs: 3000 },
    { status: 'DEPLOYED', durationMs: 0 },
  ],
  // As on the platform, a deleted deployment takes a moment to disappear (AWAITING_DELETE).
  deleteDelayMs: 2000,
});
console.log(
  [
    bold('What is what:'),
    '  Control plane: LangSmith’s deployment API. Each deploy asks it for a new revision: one build of your code at one commit.',
    '  Agent server: the HTTP API of your graphs (threads, runs, /ok) that a DEPLOYED revision serves.',
    '',
    `Control-plane simulator at ${sim.url} (API key: ${sim.apiKey})`,
  ].join('\n'),
);

const common = {
  'api-key': sim.apiKey,
  'control-plane-url': sim.url,
  name: 'demo-agent',
  'integration-id': '5c1a4b2e-8f3d-4e6a-9b7c-0d1e2f3a4b5c',
  'poll-interval': '2',
  timeout: '120',
  secrets: 'OPENAI_API_KEY=sk-demo-not-a-real-key\nFEATURE_FLAGS=beta-search',
};

/** A `pull_request` (synchronize) event of acme/agent, from a branch of that repository. */
function pullRequestEvent(number: number, branch: string) {
  const repo = { full_name: 'acme/agent' };
  const pullRequest = {
    number,
    head: { sha: 'f'.repeat(40), ref: branch, repo },
    base: { sha: '0'.repeat(40), ref: 'main', repo },
  };
  return {
    name: 'pull_request',
    payload: { action: 'synchronize', number, pull_request: pullRequest },
  };
}

let exitCode = 0;
try {
  banner('1/5 deploy: creates demo-agent from acme/agent@main and waits for DEPLOYED');
  const created = await runAction({ inputs: { ...common, 'repo-ref': 'main' }, echo: true });
  show(created);

  banner('2/5 deploy again: updates demo-agent (a new revision) from a release tag');
  sim.queueTimeline([
    { status: 'QUEUED', durationMs: 500 },
    { status: 'BUILDING', durationMs: 2000 },
    { status: 'DEPLOYING', durationMs: 1500 },
    { status: 'DEPLOYED', durationMs: 0 },
  ]);
  const updated = await runAction({
    inputs: { ...common },
    ref: 'refs/tags/v1.0.0',
    echo: true,
  });
  show(updated);

  banner('3/5 a pull request whose build fails: the log tail, and the PR comment it posts');
  const github = await FakeGithub.start();
  let failed: RunResult;
  try {
    sim.queueTimeline([
      { status: 'QUEUED', durationMs: 500 },
      { status: 'BUILDING', durationMs: 2000 },
      { status: 'BUILD_FAILED', durationMs: 0 },
    ]);
    failed = await runAction({
      inputs: { ...common, name: 'demo-agent-pr-7', 'github-token': 'ghs_demo' },
      event: pullRequestEvent(7, 'feature/new-tool'),
      ref: 'refs/pull/7/merge',
      env: { GITHUB_API_URL: github.url },
      echo: true,
    });
    show(failed);
    const comment = github.comments.at(-1)?.body;
    console.log(bold('\nPR comment it posted on pull request #7 (a fake GitHub API here):'));
    console.log(comment ? quote(comment) : '  (none)');
  } finally {
    await github.close();
  }

  banner(
    '4/5 delete: removes demo-agent and waits until it is gone (what a pull_request: closed job does)',
  );
  const deleted = await runAction({
    inputs: {
      'api-key': sim.apiKey,
      'control-plane-url': sim.url,
      command: 'delete',
      name: 'demo-agent',
      // As the README recommends for preview cleanup: a reopened PR can create the name again.
      'delete-tracing-project': 'true',
    },
    echo: true,
  });
  show(deleted);

  banner('5/5 prune: removes the previews of closed PRs (what a nightly schedule does)');
  // The previews are made the way a preview workflow makes them: by this action's own runs on
  // pull_request events (so each carries whatever record such a run leaves).
  for (const pr of [11, 12, 13]) {
    sim.queueTimeline([
      { status: 'QUEUED', durationMs: 100 },
      { status: 'BUILDING', durationMs: 200 },
      { status: 'DEPLOYING', durationMs: 100 },
      { status: 'DEPLOYED', durationMs: 0 },
    ]);
    const preview = await runAction({
      inputs: { ...common, name: `demo-agent-pr-${pr}`, 'poll-interval': '0.2' },
      event: pullRequestEvent(pr, `feature/change-${pr}`),
      ref: `refs/pull/${pr}/merge`,
    });
    console.log(
      `The pull_request run of #${pr} deployed demo-agent-pr-${pr}: ` +
        `${preview.outputs['status'] ?? 'no status'} (exit code ${preview.code}).`,
    );
  }
  sim.github.setPullRequest('acme/agent', 11, { state: 'open', title: 'Add search tool' });
  sim.github.setPullRequest('acme/agent', 12, { state: 'closed', merged: true, title: 'Memory' });
  // #7 is the pull request of step 3, still open: its preview is kept.
  sim.github.setPullRequest('acme/agent', 7, { state: 'open', title: 'New tool' });
  // #13 does not exist any more.
  const pruned = await runAction({
    inputs: {
      'api-key': sim.apiKey,
      'control-plane-url': sim.url,
      command: 'prune',
      name: 'demo-agent-pr-{pr}',
      'github-token': 'demo-github-token',
    },
    env: { GITHUB_API_URL: `${sim.url}/github` },
    echo: true,
  });
  show(pruned);

  // The evaluation gate (scripts/demo-eval.ts), when the bundle has it.
  const gate = bundleHasEvaluation();
  if (!gate)
    console.log('\n(This bundle has no evaluation gate: its part of the demo is skipped.)');
  const evaluated = !gate || (await evaluationDemo(sim, common, { banner, show, quote, bold }));

  // The failed build is meant to fail (exit code 1); the others must succeed, and prune must
  // delete the previews of the closed (#12) and the vanished (#13) pull requests.
  const codes = [created.code, updated.code, deleted.code, pruned.code];
  const prunedBoth = pruned.outputs['deleted'] === '["demo-agent-pr-12","demo-agent-pr-13"]';
  exitCode = codes.every((c) => c === 0) && failed.code === 1 && prunedBoth && evaluated ? 0 : 1;
  banner(
    exitCode === 0
      ? 'Demo finished: create, update, delete and prune succeeded (prune deleted the previews of ' +
          'PRs #12 and #13); the broken build failed as it should' +
          (gate
            ? '; the evaluation gate passed the good pull request and caught the regression'
            : '')
      : 'Demo failed',
  );
  console.log(`Requests the simulator received: ${sim.requests.length}`);
} finally {
  await sim.close();
}
process.exitCode = exitCode;
