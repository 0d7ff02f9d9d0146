/**
 * `npm run examples`: writes docs/examples/, the step summaries and pull-request comments the
 * action really writes, from real runs of the built bundle (`node dist/index.js`, as the
 * runner runs it) against the local simulator and a fake GitHub API, on a pull_request event:
 * a success, a build failure (with the log tail), a pre-flight failure and input errors.
 *
 * IDs, the simulator's port and times are made stable (`stabilize`), so the files change only
 * when what the action writes changes; `__tests__/e2e/examples.test.ts` regenerates them and
 * fails when the committed ones are stale.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FakeGithub } from '../__tests__/helpers/fake-github.js';
import { startSimulator, type Simulator } from '../simulator/index.js';
import { ROOT, runAction, type RunResult } from './run-action.js';

export const EXAMPLES_DIR = join(ROOT, 'docs', 'examples');

const PR_EVENT = {
  name: 'pull_request',
  payload: {
    action: 'synchronize',
    number: 42,
    pull_request: {
      number: 42,
      head: {
        sha: '3f2c9a1b7d4e5f60718293a4b5c6d7e8f9012345',
        ref: 'feature/better-answers',
        repo: { full_name: 'acme/agent' },
      },
      base: { sha: '0'.repeat(40), ref: 'main', repo: { full_name: 'acme/agent' } },
    },
  },
};

const AGENT_FILES: Record<string, string> = {
  'src/agent.py': 'graph = None\n',
};

const GOOD_CONFIG = `{
  "dependencies": ["."],
  "graphs": { "agent": "./src/agent.py:graph" },
  "env": ".env"
}
`;

/** Two mistakes the pre-flight checks catch: a graph file that is not there, a webhook header variable without the prefix. */
const BROKEN_CONFIG = `{
  "dependencies": ["."],
  "graphs": { "agent": "./src/agnet.py:graph" },
  "webhooks": {
    "url": { "allowed_domains": ["hooks.example.com"] },
    "headers": { "Authorization": "Bearer \${{ env.HOOK_TOKEN }}" }
  }
}
`;

export interface Example {
  /** File name stem in docs/examples/. */
  slug: string;
  title: string;
  summary: string;
  /** The PR comment, when the run posts one. */
  comment?: string;
}

function checkout(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'examples-ws-'));
  mkdirSync(join(root, '.git'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

/**
 * Stable text: every UUID becomes a fixed one (by order of appearance, so the same ID stays
 * the same across files of one run), the loopback port becomes 8123, and times are shifted so
 * the first one is 2026-01-15 09:30:00 UTC (the gaps between them are kept).
 */
export function stabilize(texts: string[]): string[] {
  const ids = new Map<string, string>();
  const uuid = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
  const time = /\b(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}) UTC\b/g;
  // Timestamps of log lines (ISO 8601), shifted the same way.
  const iso = /\b(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2}(?:\.\d+)?)Z\b/g;
  const base = Date.UTC(2026, 0, 15, 9, 30, 0);
  let first: number | undefined;
  for (const text of texts) {
    for (const m of [...text.matchAll(time), ...text.matchAll(iso)]) {
      const t = Math.floor(Date.parse(`${m[1]}T${m[2]}Z`) / 1000) * 1000;
      if (first === undefined || t < first) first = t;
    }
  }
  return texts.map((text) =>
    text
      .replace(uuid, (id) => {
        const key = id.toLowerCase();
        if (!ids.has(key)) {
          const n = ids.size + 1;
          ids.set(
            key,
            `${String(n).padStart(8, '0')}-aaaa-4bbb-8ccc-${String(n).padStart(12, '0')}`,
          );
        }
        return ids.get(key)!;
      })
      .replace(/\/\/127\.0\.0\.1:\d+/g, '//127.0.0.1:8123')
      .replace(time, (_m, d: string, t: string) => {
        const shifted = base + (Date.parse(`${d}T${t}Z`) - (first ?? base));
        return new Date(shifted)
          .toISOString()
          .replace('T', ' ')
          .replace(/\.\d+Z$/, ' UTC');
      })
      .replace(iso, (_m, d: string, t: string) =>
        new Date(base + (Date.parse(`${d}T${t}Z`) - (first ?? base))).toISOString(),
      ),
  );
}

/** Looser still, for the staleness test: times and durations vary from run to run. */
export function normalizeForComparison(text: string): string {
  return text
    .replace(/\b\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC\b/g, '<time>')
    .replace(/\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z\b/g, '<time>')
    .replace(/\b\d+(\.\d+)? s\b|\b\d+ min \d{2} s\b|\b\d+ h \d{2} min\b/g, '<duration>')
    .replace(/\r\n/g, '\n')
    .trimEnd();
}

async function runOne(
  sim: Simulator,
  github: FakeGithub,
  inputs: Record<string, string>,
  workspace: string,
): Promise<{ result: RunResult; comment?: string }> {
  const result = await runAction({
    event: PR_EVENT,
    ref: 'refs/pull/42/merge',
    sha: 'b'.repeat(40),
    workspace,
    env: { GITHUB_API_URL: github.url },
    inputs: {
      'api-key': sim.apiKey,
      'control-plane-url': sim.url,
      'integration-id': '5c1a4b2e-8f3d-4e6a-9b7c-0d1e2f3a4b5c',
      'github-token': 'ghs_example',
      'poll-interval': '0.15',
      timeout: '60',
      ...inputs,
    },
  });
  const comment = github.comments.at(-1)?.body;
  return comment === undefined ? { result } : { result, comment };
}

/** Runs the scenarios; each gets a fresh fake GitHub (one comment per run). */
export async function generateExamples(): Promise<Example[]> {
  const sim = await startSimulator({ commitSha: PR_EVENT.payload.pull_request.head.sha });
  const workspaces: string[] = [];
  const ws = (files: Record<string, string>) => {
    const dir = checkout(files);
    workspaces.push(dir);
    return dir;
  };
  const examples: Example[] = [];
  try {
    const scenario = async (
      slug: string,
      title: string,
      expectCode: number,
      files: Record<string, string>,
      inputs: Record<string, string>,
      timeline?: Parameters<Simulator['queueTimeline']>[0],
    ) => {
      const github = await FakeGithub.start();
      try {
        if (timeline) sim.queueTimeline(timeline);
        const { result, comment } = await runOne(sim, github, inputs, ws(files));
        if (result.code !== expectCode) {
          throw new Error(
            `${slug}: exit code ${result.code}, expected ${expectCode}\n${result.stdout}\n${result.stderr}`,
          );
        }
        examples.push({ slug, title, summary: result.summary, ...(comment ? { comment } : {}) });
      } finally {
        await github.close();
      }
    };

    // Each status lasts several poll intervals, so every one of them is seen.
    await scenario(
      'success',
      'A preview deployed and checked',
      0,
      { ...AGENT_FILES, 'langgraph.json': GOOD_CONFIG, '.env': 'MODEL=small\n' },
      {
        name: 'my-agent-pr-42',
        secrets: 'OPENAI_API_KEY=sk-example-not-a-real-key',
        'smoke-test': '{"messages": [{"role": "user", "content": "ping"}]}',
      },
      [
        { status: 'QUEUED', durationMs: 700 },
        { status: 'BUILDING', durationMs: 1200 },
        { status: 'DEPLOYING', durationMs: 900 },
        { status: 'DEPLOYED', durationMs: 0 },
      ],
    );
    await scenario(
      'build-failure',
      'A build that failed, with the end of its log',
      1,
      { ...AGENT_FILES, 'langgraph.json': GOOD_CONFIG, '.env': 'MODEL=small\n' },
      { name: 'my-agent-pr-43', secrets: 'OPENAI_API_KEY=sk-example-not-a-real-key' },
      [
        { status: 'QUEUED', durationMs: 700 },
        { status: 'BUILDING', durationMs: 1200 },
        { status: 'BUILD_FAILED', durationMs: 0 },
      ],
    );
    await scenario(
      'tests-failure',
      'A preview deployed whose conversation test failed (the reply that failed it shown)',
      1,
      {
        ...AGENT_FILES,
        'langgraph.json': GOOD_CONFIG,
        '.env': 'MODEL=small\n',
        '.github/agent-tests.yaml': [
          'cases:',
          '  - name: greets the user',
          '    turns:',
          '      - input: {messages: [{role: user, content: "Hi there!"}]}',
          '        expect: {contains: Hello}',
          "  - name: remembers the user's name",
          '    turns:',
          '      - input: {messages: [{role: user, content: "My name is Ada."}]}',
          '      - input: {messages: [{role: user, content: "What is my name?"}]}',
          '        expect: {contains: Ada}',
          '',
        ].join('\n'),
      },
      { name: 'my-agent-pr-45', tests: '.github/agent-tests.yaml' },
      [
        { status: 'QUEUED', durationMs: 700 },
        { status: 'BUILDING', durationMs: 1200 },
        { status: 'DEPLOYING', durationMs: 900 },
        { status: 'DEPLOYED', durationMs: 0 },
      ],
    );
    await scenario(
      'preflight-failure',
      'A langgraph.json the pre-flight checks refused (no request was sent)',
      1,
      { ...AGENT_FILES, 'langgraph.json': BROKEN_CONFIG },
      { name: 'my-agent-pr-44', secrets: 'OPENAI_API_KEY=sk-example-not-a-real-key' },
    );
    await scenario(
      'input-errors',
      'Input errors (the step stops before any request)',
      1,
      {},
      { name: 'My Agent', timeout: 'ten minutes', 'poll-interval': '15' },
    );
  } finally {
    await sim.close();
    for (const dir of workspaces) rmSync(dir, { recursive: true, force: true });
  }
  const texts = stabilize(examples.flatMap((e) => [e.summary, e.comment ?? '']));
  return examples.map((e, i) => ({
    ...e,
    summary: texts[2 * i]!,
    ...(e.comment ? { comment: texts[2 * i + 1]! } : {}),
  }));
}

/** The files of docs/examples/ (name → content) for these examples. */
export function exampleFiles(examples: Example[]): Record<string, string> {
  const files: Record<string, string> = {};
  const index = [
    '# What the action writes',
    '',
    '<!-- Generated by `npm run examples`; do not edit. A test fails when these are stale. -->',
    '',
    'The step summary and the pull-request comment of real runs of `dist/index.js` on a',
    '`pull_request` event, against the local control-plane simulator (so the URLs point to',
    '127.0.0.1) and a fake GitHub API. IDs and times are replaced by stable ones; nothing else',
    'is edited. GitHub renders these files as it renders the summary and the comment.',
    '',
    '| run | step summary | PR comment |',
    '|---|---|---|',
  ];
  for (const e of examples) {
    files[`${e.slug}-summary.md`] = `${e.summary.trimEnd()}\n`;
    if (e.comment) files[`${e.slug}-pr-comment.md`] = `${e.comment.trimEnd()}\n`;
    index.push(
      `| ${e.title} | [${e.slug}-summary.md](${e.slug}-summary.md) | ${
        e.comment
          ? `[${e.slug}-pr-comment.md](${e.slug}-pr-comment.md)`
          : '— (no request, no comment)'
      } |`,
    );
  }
  files['README.md'] = `${index.join('\n')}\n`;
  return files;
}

export function readCommittedExamples(names: string[]): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const name of names) {
    try {
      out[name] = readFileSync(join(EXAMPLES_DIR, name), 'utf8');
    } catch {
      out[name] = undefined;
    }
  }
  return out;
}

async function main(): Promise<void> {
  const files = exampleFiles(await generateExamples());
  rmSync(EXAMPLES_DIR, { recursive: true, force: true });
  mkdirSync(EXAMPLES_DIR, { recursive: true });
  for (const [name, content] of Object.entries(files)) {
    writeFileSync(join(EXAMPLES_DIR, name), content);
    console.log(`wrote docs/examples/${name}`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}
