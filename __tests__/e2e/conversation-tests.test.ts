/**
 * End to end: the `tests` input on the built bundle, against the simulator's agent server:
 * verdicts in the outputs, the step summary and the log; feedback posted without the API key;
 * an invalid file is an input error before any request.
 */
import { afterAll, beforeEach, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tempWorkspaces } from './deploy-support.js';
import { runAction, type RunResult } from '../../scripts/run-action.js';
import { useSimulator } from '../helpers/simulator.js';

const workspaces = tempWorkspaces('e2e-tests');
const outsideDir = mkdtempSync(join(tmpdir(), 'e2e-tests-outside-'));
const secretFile = join(outsideDir, 'secret.yaml');
writeFileSync(secretFile, 'cases: [{name: OUTSIDE-SECRET, turns: [{input: {}}]}]\n');

const sim = useSimulator({
  timeline: [
    { status: 'QUEUED', durationMs: 30 },
    { status: 'DEPLOYED', durationMs: 0 },
  ],
});
afterAll(async () => {
  workspaces.removeAll();
  rmSync(outsideDir, { recursive: true, force: true });
});
beforeEach(() => sim.reset());

/** A checkout with a LangGraph app and the given tests file. */
function checkout(tests: Record<string, string>): string {
  return workspaces.make({
    'langgraph.json': JSON.stringify({
      dependencies: ['.'],
      graphs: { agent: './src/agent.py:graph' },
    }),
    'requirements.txt': 'langgraph\n',
    'src/agent.py': 'graph = None\n',
    ...tests,
  });
}

function deploy(name: string, ws: string, inputs: Record<string, string> = {}): Promise<RunResult> {
  return runAction({
    workspace: ws,
    inputs: {
      'api-key': sim.apiKey,
      'control-plane-url': sim.url,
      name,
      'integration-id': '5c1a4b2e-8f3d-4e6a-9b7c-0d1e2f3a4b5c',
      'poll-interval': '0.2',
      timeout: '20',
      tests: '.github/agent-tests.yaml',
      ...inputs,
    },
  });
}

const errors = (r: RunResult) => r.annotations.filter((a) => a.kind === 'error');

const TESTS = `
cases:
  - name: greets the user
    turns:
      - input: {messages: [{role: user, content: "I am Ada"}]}
        expect: {contains: "You said: I am Ada"}
      - input: {messages: [{role: user, content: "What is my name?"}]}
        expect:
          matches: "^Hello from agent\\\\."
          values: {messages: [{content: "I am Ada"}, {}, {}, {type: ai}]}
    checkpoints: 4
  - name: answers in French
    turns:
      - input: {messages: [{role: user, content: "::warning::injected"}]}
        expect: {contains: Bonjour}
`;

describe('conversation tests on the built bundle', () => {
  it('runs the cases after the health check, reports verdicts, fails the step', async () => {
    const r = await deploy('tests-mixed', checkout({ '.github/agent-tests.yaml': TESTS }));

    expect(r.code).toBe(1);
    expect(r.outputs).toMatchObject({
      'tests-passed': '1',
      'tests-failed': '1',
      status: 'DEPLOYED',
    });
    expect(errors(r)).toHaveLength(1);
    expect(errors(r)[0]).toMatchObject({ props: 'title=Conversation tests failed' });
    expect(errors(r)[0]!.message).toContain(
      '1 of 2 conversation tests failed on http://127.0.0.1:',
    );
    expect(errors(r)[0]!.message).toContain('"answers in French" (turn 1 (run ');
    expect(errors(r)[0]!.message).toContain('the last message does not contain "Bonjour"');

    // After the health check; every thread deleted.
    const paths = sim.requests.map((q) => `${q.method} ${q.path}`);
    const ok = paths.findIndex((p) => p.endsWith('/ok'));
    const firstThread = paths.findIndex((p) => /POST \/agents\/[^/]+\/threads$/.test(p));
    expect(ok).toBeGreaterThanOrEqual(0);
    expect(firstThread).toBeGreaterThan(ok);
    expect(
      sim.requests.filter((q) => q.method === 'DELETE' && /\/threads\//.test(q.path)),
    ).toHaveLength(2);

    // Feedback under the default key `ci`, one verdict per run, never with the API key.
    const feedback = sim.feedback();
    expect(feedback).toHaveLength(3);
    expect(feedback.every((f) => !f.hadApiKey && f.status === 200 && f.key === 'ci')).toBe(true);
    expect(feedback.map((f) => (f.body as { score: number }).score).sort()).toEqual([0, 1, 1]);

    // The table in the summary.
    expect(r.summary).toContain('#### Conversation tests: 1 of 2 passed');
    expect(r.summary).toMatch(
      /\| greets the user \| 2\/2 \| ✅ passed \| 2 turns as expected, at least 4 checkpoints \| \d+\.\d s \|/,
    );
    expect(r.summary).toMatch(/\| answers in French \| 1\/1 \| ❌ failed \| turn 1 /);
    expect(r.summary).toMatch(/\| Conversation tests \| failed \|/);

    // The agent's reply (it quotes the input) is printed inert, inside stop-commands.
    expect(r.annotations.filter((a) => a.kind === 'warning')).toEqual([]);
    expect(r.stdout).toMatch(
      /::stop-commands::untrusted-[0-9a-f-]+\nHello from agent\. You said: ::warning::injected\n::untrusted-/,
    );
    expect(r.stdout.replace(/^::add-mask::.*$/gm, '')).not.toContain(sim.apiKey);
    expect(r.summary).not.toContain(sim.apiKey);
  });

  it('passes when every case passes; an empty feedback key asks for no feedback', async () => {
    const passing = TESTS.split('  - name: answers in French')[0] as string;
    const r = await deploy('tests-pass', checkout({ '.github/agent-tests.yaml': passing }), {
      'tests-feedback-key': '',
    });
    expect(r.code).toBe(0);
    expect(errors(r)).toEqual([]);
    expect(r.outputs).toMatchObject({ 'tests-passed': '1', 'tests-failed': '0' });
    const streams = sim.requests.filter((q) => q.path.endsWith('/runs/stream'));
    expect(streams).toHaveLength(2);
    for (const s of streams)
      expect((s.body as Record<string, unknown>)['feedback_keys']).toBeUndefined();
    expect(sim.feedback()).toEqual([]);
    expect(r.stdout).toContain('✓ greets the user: passed (2/2 turns');
  });

  it('an invalid tests file is an input error naming file, case and key, before any request', async () => {
    const bad =
      'cases:\n  - name: typo\n    turns: [{input: {}, expect: {contain: x, matches: "["}}]\n';
    const r = await deploy('tests-invalid', checkout({ '.github/agent-tests.yaml': bad }));
    expect(r.code).toBe(1);
    expect(sim.requests).toEqual([]);
    const found = errors(r);
    expect(found.map((e) => e.props)).toEqual([
      'title=Invalid input: tests',
      'title=Invalid input: tests',
    ]);
    expect(found[0]!.message).toBe(
      'Tests file .github/agent-tests.yaml, case "typo", turn 1, key `expect`: unknown key `contain`; the keys here are `contains`, `matches`, `values`.',
    );
    expect(found[1]!.message).toContain(
      'case "typo", turn 1, key `expect.matches`: is not a regular expression in RE2 syntax',
    );
  });

  it('a missing tests file is an input error too', async () => {
    const r = await deploy('tests-missing', checkout({}));
    expect(r.code).toBe(1);
    expect(sim.requests).toEqual([]);
    expect(errors(r)[0]!.message).toContain(
      'Input `tests` is ".github/agent-tests.yaml", which does not exist in the checkout',
    );
  });

  it.each([
    ['a symlink to a file outside the checkout', 'out', /outside the checkout/],
    ['a symlink to /dev/zero', 'zero', /outside the checkout/],
    ['a FIFO', 'fifo', /not a regular file/],
  ])('%s is an input error before any request, showing nothing of it', async (_what, kind, why) => {
    const ws = checkout({});
    const path = join(ws, '.github', 'agent-tests.yaml');
    mkdirSync(join(ws, '.github'), { recursive: true });
    if (kind === 'out') symlinkSync(secretFile, path);
    else if (kind === 'zero') symlinkSync('/dev/zero', path);
    else execFileSync('mkfifo', [path]);
    const r = await deploy(`tests-path-${kind}`, ws);
    expect(r.code).toBe(1);
    expect(sim.requests).toEqual([]);
    const [error] = errors(r);
    expect(error?.props).toBe('title=Invalid input: tests');
    expect(error?.message).toMatch(/^Input `tests` is "\.github\/agent-tests\.yaml", which /);
    expect(error?.message).toMatch(why);
    expect(r.stdout).not.toContain('OUTSIDE-SECRET');
  });

  it('sends no verdict to a feedback URL on another host than the configured one, with a warning', async () => {
    // The control plane is named by "localhost"; the agent stream hands out 127.0.0.1 URLs.
    const ws = checkout({
      '.github/agent-tests.yaml': 'cases: [{name: one, turns: [{input: {messages: []}}]}]\n',
    });
    const controlPlane = sim.url.replace('127.0.0.1', 'localhost');
    const r = await deploy('tests-feedback-host', ws, { 'control-plane-url': controlPlane });
    expect(r.code).toBe(0);
    const streams = sim.requests.filter((q) => q.path.endsWith('/runs/stream'));
    expect(streams.length).toBeGreaterThan(0);
    expect(sim.feedback()).toEqual([]);
    expect(sim.requests.filter((q) => q.path.includes('/feedback/'))).toEqual([]);
    const warned = r.annotations.filter((a) => a.kind === 'warning').map((a) => a.message);
    expect(warned.join('\n')).toMatch(
      new RegExp(
        `was not called \\(not the LangSmith API host localhost:${new URL(sim.url).port}\\)`,
      ),
    );
  });
});
