/**
 * "Build only what changed": a monorepo pull request of 20 pushes replayed with the README's
 * preview workflow inputs (secrets included, plus the `config-path` of an agent in its own
 * folder), each push one run of the built action (`node dist/index.js`) against one simulator
 * whose GitHub compare API knows the history. 6 pushes touch the agent (its folder or its local
 * dependency), 2 change a secret (and touch only other folders), 12 touch other folders only.
 *
 * Counted: the builds requested (revisions the platform was asked for, the create included),
 * with `skip-unchanged` (the default) and with `skip-unchanged: false`, which is what a tool
 * without it does: a build per push. The wall time saved is the builds avoided times the
 * reference deploy (lag.ts, 290 s); the steps' own wall time is measured too.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runAction } from '../scripts/run-action.js';
import { startSimulator, type SimChangedFile, type Simulator } from '../simulator/index.js';
import { NOMINAL_DEPLOY_MS } from './lag.js';
import { seconds } from './stats.js';

const REPOSITORY = 'acme/agent';
const INTEGRATION_ID = '00000000-0000-4000-8000-0000000017e6';
const CONFIG_PATH = 'apps/agent/langgraph.json';
const PR = 42;
/** A short deploy: this bench counts builds; the reference build time prices them. */
const TIMELINE = [
  { status: 'QUEUED', durationMs: 50 },
  { status: 'BUILDING', durationMs: 150 },
  { status: 'DEPLOYING', durationMs: 100 },
  { status: 'DEPLOYED', durationMs: 0 },
];

type Kind = 'agent' | 'secret' | 'other';

export interface Push {
  sha: string;
  kind: Kind;
  files: SimChangedFile[];
  /** The value of OPENAI_API_KEY this push's run sends. */
  secret: string;
}

const modified = (...names: string[]): SimChangedFile[] =>
  names.map((filename) => ({ filename, status: 'modified' }));

/** The history: which push touches what (agent pushes 1, 5, 8, 13, 16, 19; secrets 4, 11). */
export function monorepoHistory(): Push[] {
  const plan: [Kind, SimChangedFile[]][] = [
    ['agent', modified('apps/agent/src/graph.py', 'apps/agent/requirements.txt')],
    ['other', modified('apps/web/src/App.tsx')],
    ['other', modified('docs/index.md')],
    ['secret', modified('.github/workflows/preview.yml')],
    ['agent', modified('apps/agent/src/tools.py')],
    ['other', modified('apps/web/package.json', 'apps/web/src/App.tsx')],
    ['other', [{ filename: 'docs/guide.md', status: 'added' }]],
    ['agent', modified('libs/shared/prompts.py')], // the agent's local dependency
    ['other', modified('README.md')],
    ['other', modified('apps/web/src/api.ts')],
    ['secret', modified('docs/secrets.md')],
    ['other', [{ filename: 'docs/old.md', status: 'removed' }]],
    ['agent', [{ filename: 'apps/agent/src/nodes.py', status: 'added' }]],
    ['other', modified('apps/web/src/App.tsx')],
    [
      'other',
      [{ filename: 'apps/web/src/util.ts', status: 'renamed', previous_filename: 'apps/web/u.ts' }],
    ],
    ['agent', modified('apps/agent/langgraph.json')],
    ['other', modified('.github/workflows/ci.yml')],
    ['other', modified('apps/web/index.html')],
    [
      'agent',
      [
        {
          filename: 'docs/agent-notes.md',
          status: 'renamed',
          previous_filename: 'apps/agent/NOTES.md',
        },
      ],
    ],
    ['other', modified('docs/index.md')],
  ];
  let secret = 1;
  return plan.map(([kind, files], i) => {
    if (kind === 'secret') secret++;
    return {
      sha: (i + 1).toString(16).padStart(2, '0').repeat(20),
      kind,
      files,
      secret: `sk-bench-${secret}`,
    };
  });
}

function checkout(): string {
  const root = mkdtempSync(join(tmpdir(), 'bench-monorepo-'));
  const files: Record<string, string> = {
    [CONFIG_PATH]: JSON.stringify({
      dependencies: ['.', '../../libs/shared'],
      graphs: { agent: './src/graph.py:graph' },
    }),
    'apps/agent/src/graph.py': 'graph = None\n',
    'apps/agent/requirements.txt': 'langgraph\n',
    'libs/shared/prompts.py': '',
    'apps/web/src/App.tsx': '',
  };
  mkdirSync(join(root, '.git'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

export interface ReplayResult {
  skipUnchanged: boolean;
  /** Revisions requested (the create included). */
  builds: number;
  /** Pushes that ended with skipped-build=true. */
  skipped: number;
  /** Runs that did not exit 0. */
  failed: number;
  /** Agent and secret pushes that were skipped (each a missed build). */
  wronglySkipped: number;
  /** Sum of the steps' wall time (spawn → exit). */
  stepsMs: number;
}

async function replay(
  sim: Simulator,
  pushes: Push[],
  skipUnchanged: boolean,
): Promise<ReplayResult> {
  const name = `bench-mono-${skipUnchanged ? 'skip' : 'always'}`;
  const workspace = checkout();
  const result: ReplayResult = {
    skipUnchanged,
    builds: 0,
    skipped: 0,
    failed: 0,
    wronglySkipped: 0,
    stepsMs: 0,
  };
  try {
    for (const push of pushes) {
      sim.setCommitSha(push.sha);
      const run = await runAction({
        // The README's preview workflow (its `with:`), plus the agent's folder.
        inputs: {
          'api-key': sim.apiKey,
          'control-plane-url': sim.url,
          name,
          'integration-id': INTEGRATION_ID,
          'config-path': CONFIG_PATH,
          secrets: `OPENAI_API_KEY=${push.secret}`,
          'smoke-test': '{"messages": [{"role": "user", "content": "ping"}]}',
          'github-token': 'ghs_bench',
          'pr-comment': 'false', // the simulator's GitHub has no comment routes
          'poll-interval': '0.2',
          'skip-unchanged': String(skipUnchanged),
        },
        sha: 'f'.repeat(40), // GitHub's merge commit; the PR head is what is deployed
        event: {
          name: 'pull_request',
          payload: {
            action: 'synchronize',
            number: PR,
            pull_request: {
              number: PR,
              head: { sha: push.sha, ref: 'feature', repo: { full_name: REPOSITORY } },
              base: { sha: '0'.repeat(40), ref: 'main', repo: { full_name: REPOSITORY } },
            },
          },
        },
        workspace,
        env: { GITHUB_API_URL: `${sim.url}/github` },
        timeoutMs: 60_000,
      });
      result.stepsMs += run.elapsedMs;
      if (run.code !== 0) result.failed++;
      if (run.outputs['skipped-build'] === 'true') {
        result.skipped++;
        if (push.kind !== 'other') result.wronglySkipped++;
      }
    }
    const id = sim.deployments().find((d) => d.name === name)?.id;
    result.builds = id ? sim.revisions(id).length : 0;
    return result;
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}

export interface MonorepoResults {
  pushes: Push[];
  ours: ReplayResult;
  always: ReplayResult;
  wallMs: number;
}

export async function benchMonorepo(
  options: { progress?: (line: string) => void } = {},
): Promise<MonorepoResults> {
  const started = performance.now();
  const pushes = monorepoHistory();
  const sim = await startSimulator({
    timeline: TIMELINE,
    rateLimit: { requests: 100_000, windowMs: 1000 },
  });
  try {
    sim.github.addCommits(REPOSITORY, [
      { sha: '00'.repeat(20), files: [] },
      ...pushes.map((p) => ({ sha: p.sha, files: p.files })),
    ]);
    options.progress?.('monorepo: 20 pushes with skip-unchanged…');
    const ours = await replay(sim, pushes, true);
    options.progress?.('monorepo: the same 20 pushes with skip-unchanged: false…');
    const always = await replay(sim, pushes, false);
    return { pushes, ours, always, wallMs: performance.now() - started };
  } finally {
    await sim.close();
  }
}

/** The section of the bench's output, and its goal. */
export function monorepoSection(
  results: MonorepoResults,
  goals: { goal: string; measured: string; pass: boolean }[],
): string {
  const { ours, always, pushes } = results;
  const needed = pushes.filter((p) => p.kind !== 'other').length;
  const saved = (always.builds - ours.builds) * NOMINAL_DEPLOY_MS;
  goals.push({
    goal: `Monorepo PR of ${pushes.length} pushes: only the ${needed} that change the agent or a secret build`,
    measured: `${ours.builds} builds (skip-unchanged: false ${always.builds}); ${ours.wronglySkipped} needed builds skipped; ${ours.failed + always.failed} failed runs`,
    pass:
      ours.builds === needed &&
      ours.wronglySkipped === 0 &&
      ours.failed === 0 &&
      always.failed === 0,
  });
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const row = (label: string, r: ReplayResult) =>
    line([
      label,
      String(r.builds),
      String(r.skipped),
      String(r.failed),
      seconds(r.stepsMs, 1),
      seconds(r.builds * NOMINAL_DEPLOY_MS, 0),
    ]);
  return [
    '## Build only what changed (monorepo, `skip-unchanged`)',
    '',
    `One pull request of ${pushes.length} pushes in a monorepo whose agent is \`${CONFIG_PATH}\` ` +
      'with a local dependency `libs/shared`: 6 pushes touch the agent (its folder, its ' +
      'dependency, its config, a file renamed out of it), 2 change the `OPENAI_API_KEY` secret ' +
      'and touch other folders only, 12 touch other folders only (web app, docs, workflows). ' +
      "Each push is one run of `node dist/index.js` with the README's preview workflow inputs " +
      '(`secrets`, `smoke-test`, the default `github-token`) on the PR head commit, against the ' +
      'simulator, whose GitHub compare API knows the history. Builds are the revisions the ' +
      'platform was asked for (the create included).',
    '',
    line([
      'skip-unchanged',
      'builds requested',
      'skipped',
      'failed runs',
      'steps (wall, sum)',
      `build time at ${seconds(NOMINAL_DEPLOY_MS, 0)} each`,
    ]),
    line(['---', '---', '---', '---', '---', '---']),
    row('true (default)', ours),
    row('false (a build per push, as other tools do)', always),
    '',
    `Builds avoided: ${always.builds - ours.builds} of ${always.builds}; at the reference deploy ` +
      `of ${seconds(NOMINAL_DEPLOY_MS, 0)} (lag.ts) that is ${seconds(saved, 0)} ` +
      `(${(saved / 60_000).toFixed(0)} min) of build and roll-out time saved on this pull request. ` +
      `Wall time of this part: ${seconds(results.wallMs, 0)}.`,
  ].join('\n');
}
