/**
 * `npm run demo`: the whole job against the bundled simulator, nothing to sign up for.
 * Starts the local control plane on a free loopback port and runs `node dist/index.js` as
 * the GitHub runner would, four times: create and wait, update, delete, prune.
 */
import { startSimulator } from '../simulator/index.js';
import { runAction, type RunResult } from './run-action.js';

const bold = (s: string) => (process.stdout.isTTY ? `\x1b[1m${s}\x1b[0m` : s);

function banner(text: string): void {
  console.log(`\n${bold(`━━ ${text} ${'━'.repeat(Math.max(0, 70 - text.length))}`)}`);
}

function show(result: RunResult): void {
  console.log(bold('\nOutputs (GITHUB_OUTPUT):'));
  for (const [k, v] of Object.entries(result.outputs)) console.log(`  ${k} = ${v}`);
  console.log(bold('\nStep summary (GITHUB_STEP_SUMMARY):'));
  console.log(
    result.summary
      .trim()
      .split('\n')
      .map((l) => `  │ ${l}`)
      .join('\n'),
  );
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
});
console.log(`Control-plane simulator at ${sim.url} (API key: ${sim.apiKey})`);

const common = {
  'api-key': sim.apiKey,
  'control-plane-url': sim.url,
  name: 'demo-agent',
  'integration-id': '5c1a4b2e-8f3d-4e6a-9b7c-0d1e2f3a4b5c',
  'poll-interval': '2',
  timeout: '120',
  secrets: 'OPENAI_API_KEY=sk-demo-not-a-real-key\nFEATURE_FLAGS=beta-search',
};

let exitCode = 0;
try {
  banner('1/4 deploy: creates demo-agent from acme/agent@main and waits for DEPLOYED');
  const created = await runAction({ inputs: { ...common, 'repo-ref': 'main' }, echo: true });
  show(created);

  banner('2/4 deploy again: updates demo-agent (a new revision) from a release tag');
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

  banner('3/4 delete: removes demo-agent (what a pull_request: closed job does)');
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

  banner('4/4 prune: removes the previews of closed PRs (what a nightly schedule does)');
  for (const pr of [11, 12, 13]) sim.seedDeployment({ name: `demo-agent-pr-${pr}` });
  sim.github.setPullRequest('acme/agent', 11, { state: 'open', title: 'Add search tool' });
  sim.github.setPullRequest('acme/agent', 12, { state: 'closed', merged: true, title: 'Memory' });
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

  const codes = [created.code, updated.code, deleted.code, pruned.code];
  exitCode = codes.every((c) => c === 0) ? 0 : 1;
  banner(
    exitCode === 0
      ? 'Demo finished: create, update, delete and prune all succeeded'
      : 'Demo failed',
  );
  console.log(`Requests the simulator received: ${sim.requests.length}`);
} finally {
  await sim.close();
}
process.exitCode = exitCode;
