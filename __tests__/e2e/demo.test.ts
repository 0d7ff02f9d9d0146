/**
 * `npm run demo` (scripts/demo.ts) end to end: what it promises a newcomer in the README.
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { bundleHasEvaluation } from '../../scripts/demo-eval.js';

function runDemo(): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['tsx', 'scripts/demo.ts'], {
      cwd: process.cwd(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the demo did not finish within 150 s:\n${out}`));
    }, 150_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

describe('npm run demo', () => {
  // One run of the demo for both tests (it takes most of a minute).
  let demo: Promise<{ code: number | null; out: string }>;
  beforeAll(() => {
    demo = runDemo();
  });

  it('explains the terms, runs create, update, a failed build with its PR comment, delete, prune, and the evaluation gate', async () => {
    const { code, out } = await demo;
    expect([code, out.slice(-400)]).toEqual([0, expect.any(String)]);
    expect(out).toMatch(/Control plane: .*revision: one build of your code/);
    expect(out).toMatch(/Agent server: /);
    const failed = out.slice(out.indexOf('━━ 3/5'), out.indexOf('━━ 4/5'));
    expect(failed).toContain('Exit code 1');
    expect(failed).toMatch(/Build log \(last \d+ lines\)/);
    expect(failed).toContain('ERROR: failed to solve');
    const comment = failed.slice(failed.indexOf('PR comment it posted'));
    expect(comment).toContain('<!-- langgraph-deploy:demo-agent-pr-7 -->');
    expect(comment).toContain('BUILD_FAILED');
    expect(out).toContain('━━ 5/5 prune');
    // The preview of step 3's pull request (still open) is kept, not pruned as "does not exist".
    const prune = out.slice(out.indexOf('━━ 5/5 prune'));
    const pr7 = prune.split('\n').filter((l) => l.includes('demo-agent-pr-7'));
    expect(pr7.length).toBeGreaterThan(0);
    expect(pr7.join('\n')).not.toMatch(/does not exist|deleted/i);
    expect(prune).toMatch(/demo-agent-pr-13.*does not exist/i);
    // The previews were made by the action's own pull-request runs, and prune really deletes
    // those of the closed (#12) and the vanished (#13) pull requests.
    expect(prune).toMatch(/pull_request run of #12.*demo-agent-pr-12/);
    expect(prune).toContain('deleted = ["demo-agent-pr-12","demo-agent-pr-13"]');
    expect(out).toContain('Demo finished');

    // The evaluation gate's part (scripts/demo-eval.ts) runs when the bundle has the gate.
    if (!bundleHasEvaluation()) {
      expect(out).toContain('This bundle has no evaluation gate');
      return;
    }
    const at = (step: number) => out.indexOf(`━━ Evaluation ${step}/3`);
    const production = out.slice(at(1), at(2));
    expect(production).toContain('Exit code 0');
    expect(production).toMatch(/experiment-id = [0-9a-f-]{36}/);
    const good = out.slice(at(2), at(3));
    expect(good).toContain('eval-passed = true');
    expect(good).toContain('Exit code 0');
    const bad = out.slice(at(3));
    expect(bad).toContain('eval-passed = false');
    expect(bad).toMatch(/^Error: The evaluation gate failed on dataset "demo-qa"/m);
    expect(bad).toContain('Exit code 1');
    expect(bad).toContain('<!-- langgraph-deploy:demo-eval-pr-22 -->');
    expect(bad).toMatch(/`correctness` \| 0\.667 \| 1\.000/);
  }, 160_000);

  it('prints what the runner would show: no raw workflow commands, no secret', async () => {
    const { out } = await demo;
    const lines = out.split('\n');
    // Masks applied silently, debug hidden, commands never printed as such.
    expect(lines.filter((l) => /^\s*::[a-z-]+/i.test(l))).toEqual([]);
    expect(out).not.toContain('sk-demo-not-a-real-key');
    // Annotations and groups as the runner shows them in the log.
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^Error: Revision \S+ of deployment 'demo-agent-pr-7' ended in BUILD_FAILED/,
      ),
    );
    expect(lines).toContainEqual(expect.stringMatching(/^▶ Last \d+ log lines of revision /));
    // The build log inside the group is shown as text, its stop-commands markers are not.
    expect(out).toContain('ERROR: failed to solve');
    expect(out).not.toMatch(/untrusted-[0-9a-f-]{36}/);
  }, 160_000);
});
