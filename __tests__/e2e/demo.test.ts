/**
 * `npm run demo` (scripts/demo.ts) end to end: what it promises a newcomer in the README.
 */
import { describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';

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
  it('explains the terms, runs create, update, a failed build with its PR comment, delete, prune', async () => {
    const { code, out } = await runDemo();
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
    // The evaluation gate: one preview passes it, the one with wrong answers is caught.
    const gate = out.slice(out.indexOf('━━ eval gate 1/2'));
    const [pass, regression] = gate.split('━━ eval gate 2/2');
    expect(pass).toContain('Exit code 0');
    expect(pass).toMatch(/\| `correctness` \| 1\.000 \| 1\.000 \| .* \| 8 of 8 \| ✅ passed \|/);
    expect(pass).toContain('[Compare in LangSmith](');
    expect(regression).toContain('Exit code 1');
    expect(regression).toMatch(
      /title=Evaluation failed::The evaluation gate failed on dataset "support-qa"/,
    );
    expect(regression).toMatch(/\| `correctness` \| 0\.\d{3} \| 1\.000 \| .* \| ❌ failed \|/);
    expect(out).toContain('Demo finished');
  }, 160_000);
});
