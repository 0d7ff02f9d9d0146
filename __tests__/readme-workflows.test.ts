/**
 * Every workflow a user copies from the README or docs/ is safe as pasted. Each YAML code block
 * is parsed with the `yaml` package; each job that runs this action is checked for:
 * - pull-request jobs: a fork guard and a Dependabot guard in its `if:` (they get no secrets);
 * - a concurrency group that serialises the deploys of one deployment: per PR for previews, one
 *   group for every run of a production deployment, never per tag or per run, and no
 *   `cancel-in-progress` that would stop (and so overlap) a production deploy;
 * - least permissions, per job: only what the job's steps use;
 * - `delete-tracing-project: true` on a pull request's cleanup;
 * - a job-level `environment:` (approval) where production changes, the manual rollback included,
 *   and no shared `environment: preview` across pull requests;
 * - outputs reach scripts only through `env:`, never `${{ steps.*.outputs.* }}` inside `run:`;
 * - complete as pasted: `workspace-id` on every step (the set-up says organization-scoped keys
 *   need it); a cleanup passes the `environment` its workflow's deploy sets (so that GitHub
 *   deployment is marked inactive; the permission check then asks for `deployments: write`);
 *   a prune that can be started by hand is not always a dry run then.
 */
import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

type Map = Record<string, unknown>;

interface Block {
  file: string;
  line: number;
  doc: unknown;
}

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return markdownFiles(path);
    return path.endsWith('.md') ? [path] : [];
  });
}

/** The ```yaml blocks of a Markdown text, with the line each starts on. */
export function yamlBlocks(file: string, text: string): Block[] {
  const blocks: Block[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!/^```ya?ml\s*$/.test(lines[i]!)) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !/^```\s*$/.test(lines[end]!)) end++;
    blocks.push({ file, line: start + 1, doc: parse(lines.slice(start, end).join('\n')) });
    i = end;
  }
  return blocks;
}

const isMap = (v: unknown): v is Map => typeof v === 'object' && v !== null && !Array.isArray(v);
const asMap = (v: unknown): Map => (isMap(v) ? v : {});
const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function triggers(workflow: Map): string[] {
  const on = workflow['on'];
  if (typeof on === 'string') return [on];
  if (Array.isArray(on)) return on.map(String);
  return Object.keys(asMap(on));
}

interface ActionStep {
  with: Map;
}

function actionSteps(job: Map): ActionStep[] {
  return asList(job['steps'])
    .map(asMap)
    .filter((s) => String(s['uses'] ?? '').includes('/langgraph-deploy-action@'))
    .map((s) => ({ with: asMap(s['with']) }));
}

function command(step: ActionStep): string {
  return String(step.with['command'] ?? 'deploy');
}

/** A job that runs on pull requests: its workflow has a PR trigger and its `if:` allows it. */
function isPullRequestJob(workflow: Map, job: Map): boolean {
  if (!triggers(workflow).some((t) => t.startsWith('pull_request'))) return false;
  const condition = String(job['if'] ?? '');
  return !/startsWith\(github\.ref, 'refs\/tags\/|github\.event_name == '(push|workflow_dispatch|schedule)'/.test(
    condition,
  );
}

/** The permissions the job's steps use (the README's Permissions table). */
function neededPermissions(pullRequest: boolean, job: Map): Map {
  const needed: Map = {};
  const steps = asList(job['steps']).map(asMap);
  if (steps.some((s) => String(s['uses'] ?? '').startsWith('actions/checkout@'))) {
    needed['contents'] = 'read';
  }
  for (const step of actionSteps(job)) {
    if (command(step) === 'prune') needed['pull-requests'] = 'read';
    else if (pullRequest && step.with['pr-comment'] !== false) needed['pull-requests'] = 'write';
    if (step.with['environment'] !== undefined) needed['deployments'] = 'write';
  }
  return needed;
}

interface Problem {
  where: string;
  problem: string;
}

function checkJob(block: Block, workflow: Map, id: string, job: Map, problems: Problem[]): void {
  const steps = actionSteps(job);
  if (steps.length === 0) return;
  const where = `${block.file}:${block.line} job ${id}`;
  const fail = (problem: string) => problems.push({ where, problem });
  const pullRequest = isPullRequestJob(workflow, job);
  const condition = String(job['if'] ?? '');

  if (pullRequest) {
    if (!condition.includes('github.event.pull_request.head.repo.full_name == github.repository')) {
      fail('pull-request job without the fork guard in `if:`');
    }
    if (!condition.includes("github.actor != 'dependabot[bot]'")) {
      fail('pull-request job without the Dependabot guard in `if:`');
    }
  }

  // Concurrency: the job's own, else the workflow's.
  const concurrency = job['concurrency'] ?? workflow['concurrency'];
  const group = String(isMap(concurrency) ? concurrency['group'] : (concurrency ?? ''));
  const cancel = isMap(concurrency) ? concurrency['cancel-in-progress'] : undefined;
  const changes = steps.some((s) => command(s) !== 'prune');
  if (!group) fail('no concurrency group');
  else if (pullRequest && changes) {
    if (!group.includes('github.event.pull_request.number')) {
      fail(`preview group "${group}" is not one per pull request`);
    }
  } else if (changes) {
    if (/github\.(ref|sha|run_|event)|inputs\./.test(group)) {
      fail(`group "${group}" changes per run or tag: production deploys could overlap`);
    }
    if (cancel !== false && cancel !== undefined) {
      fail('`cancel-in-progress` on a production group stops a deploy halfway');
    }
  }

  // Least permissions, per job (a workflow-level grant reaches every job).
  const workflowPermissions = workflow['permissions'];
  if (workflowPermissions !== undefined && Object.keys(asMap(workflowPermissions)).length > 0) {
    fail('workflow-level permissions: grant them per job');
  }
  if (job['permissions'] === undefined) fail('no job-level `permissions:`');
  else {
    const show = (m: Map) => JSON.stringify(Object.fromEntries(Object.entries(m).sort()));
    const granted = show(asMap(job['permissions']));
    const needed = show(neededPermissions(pullRequest, job));
    if (granted !== needed) fail(`permissions ${granted}; its steps use ${needed}`);
  }

  for (const step of steps) {
    if (pullRequest && command(step) === 'delete' && step.with['delete-tracing-project'] !== true) {
      fail('pull-request cleanup without `delete-tracing-project: true`');
    }
    const environmentInput = step.with['environment'];
    if (
      pullRequest &&
      environmentInput !== undefined &&
      !String(environmentInput).includes('github.event.pull_request.number')
    ) {
      fail(`environment "${String(environmentInput)}" is shared by every pull request`);
    }
    if (!pullRequest && (command(step) === 'deploy' || command(step) === 'rollback')) {
      const gate = job['environment'];
      const name = String(isMap(gate) ? gate['name'] : (gate ?? ''));
      if (!name) fail(`\`command: ${command(step)}\` outside a PR without a job-level environment`);
      if (name && environmentInput === name) {
        fail('the `environment` input repeats the job-level environment (two deployments a run)');
      }
    }
  }
}

/** `${{ steps.<id>.outputs.<name> }}` inside a `run:` script (outputs belong in `env:`). */
function outputsInRun(block: Block, problems: Problem[]): void {
  const visit = (node: unknown, path: string) => {
    if (Array.isArray(node)) node.forEach((n, i) => visit(n, `${path}[${i}]`));
    else if (isMap(node)) {
      const run = node['run'];
      if (typeof run === 'string' && /\$\{\{[^}]*steps\.[^}]*\.outputs\./.test(run)) {
        problems.push({ where: `${block.file}:${block.line} ${path}`, problem: 'output in run:' });
      }
      for (const [k, v] of Object.entries(node)) visit(v, `${path}.${k}`);
    }
  };
  visit(block.doc, '');
}

/** What a workflow needs to work as pasted, beyond safety (the issue's point 5). */
function checkComplete(block: Block, workflow: Map, problems: Problem[]): void {
  const steps = Object.entries(asMap(workflow['jobs'])).flatMap(([id, job]) =>
    actionSteps(asMap(job)).map((step) => ({ id, step })),
  );
  const deployEnvironment = steps.some(
    ({ step }) => command(step) === 'deploy' && step.with['environment'] !== undefined,
  );
  for (const { id, step } of steps) {
    const fail = (problem: string) =>
      problems.push({ where: `${block.file}:${block.line} job ${id}`, problem });
    if (step.with['workspace-id'] === undefined) {
      fail('no `workspace-id`: organization-scoped keys need it (see Set-up)');
    }
    if (command(step) === 'delete' && deployEnvironment && step.with['environment'] === undefined) {
      fail(
        'cleanup without the `environment` the deploy sets: that GitHub deployment stays active',
      );
    }
    const dryRun = String(step.with['dry-run'] ?? 'false');
    const byHand = triggers(workflow).includes('workflow_dispatch');
    if (
      command(step) === 'prune' &&
      byHand &&
      (dryRun === 'true' || (dryRun.includes('${{') && !dryRun.includes('inputs.')))
    ) {
      fail('`dry-run` is always true when the prune is started by hand');
    }
  }
}

export function workflowProblems(blocks: Block[]): Problem[] {
  const problems: Problem[] = [];
  for (const block of blocks) {
    outputsInRun(block, problems);
    if (!isMap(block.doc) || !isMap(block.doc['jobs'])) continue;
    for (const [id, job] of Object.entries(block.doc['jobs'])) {
      checkJob(block, block.doc, id, asMap(job), problems);
    }
    checkComplete(block, block.doc, problems);
  }
  return problems;
}

const files = ['README.md', ...markdownFiles('docs')];
const blocks = files.flatMap((file) => yamlBlocks(file, readFileSync(file, 'utf8')));

describe('copy-paste workflows in the README and docs/', () => {
  it('finds the workflows (preview, prune, release, upload, rollbacks)', () => {
    const workflows = blocks.filter((b) => isMap(b.doc) && isMap(b.doc['jobs']));
    expect(workflows.length).toBeGreaterThanOrEqual(6);
  });

  it('are safe as pasted, job by job', () => {
    expect(workflowProblems(blocks)).toEqual([]);
  });

  it('give the manual rollback of production the approval a deploy needs', () => {
    const rollback = blocks.find((b) =>
      Object.values(asMap(asMap(b.doc)['jobs'])).some((job) =>
        actionSteps(asMap(job)).some((s) => command(s) === 'rollback'),
      ),
    );
    const job = Object.values(asMap(asMap(rollback?.doc)['jobs'])).map(asMap)[0]!;
    expect(job['environment']).toBe('production');
    expect(triggers(asMap(rollback?.doc))).toEqual(['workflow_dispatch']);
  });
});

describe('the checks themselves catch what the issue found', () => {
  const unsafe = `
on:
  pull_request:
  push:
    tags: ['v*']
concurrency:
  group: agent-\${{ github.event.pull_request.number || github.ref }}
  cancel-in-progress: true
permissions:
  contents: read
  pull-requests: write
  deployments: write
jobs:
  preview:
    if: github.event_name == 'pull_request' && github.event.action != 'closed'
    runs-on: ubuntu-latest
    steps:
      - id: deploy
        uses: your-org/langgraph-deploy-action@v1
        with:
          name: a-pr-\${{ github.event.pull_request.number }}
          environment: preview
      - run: echo "\${{ steps.deploy.outputs.url }}"
  cleanup:
    if: github.event.action == 'closed'
    runs-on: ubuntu-latest
    steps:
      - uses: your-org/langgraph-deploy-action@v1
        with:
          command: delete
          name: a-pr-\${{ github.event.pull_request.number }}
  release:
    if: startsWith(github.ref, 'refs/tags/v')
    runs-on: ubuntu-latest
    steps:
      - uses: your-org/langgraph-deploy-action@v1
        with: {name: a}
  rollback:
    if: github.event_name == 'push'
    runs-on: ubuntu-latest
    permissions: {}
    steps:
      - uses: your-org/langgraph-deploy-action@v1
        with: {command: rollback, name: a}
`;

  it('lists every unsafe rule of the old upload example', () => {
    const problems = workflowProblems(yamlBlocks('x.md', `\`\`\`yaml\n${unsafe}\n\`\`\`\n`)).map(
      (p) => `${p.where.replace(/^x\.md:\d+ /, '')}: ${p.problem}`,
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\.jobs\.preview\.steps\[1\]: output in run:/),
        'job preview: pull-request job without the fork guard in `if:`',
        'job preview: pull-request job without the Dependabot guard in `if:`',
        'job preview: workflow-level permissions: grant them per job',
        'job preview: no job-level `permissions:`',
        'job preview: environment "preview" is shared by every pull request',
        'job cleanup: pull-request cleanup without `delete-tracing-project: true`',
        expect.stringMatching(/^job release: group ".*" changes per run or tag/),
        'job release: `cancel-in-progress` on a production group stops a deploy halfway',
        'job release: `command: deploy` outside a PR without a job-level environment',
        'job rollback: `command: rollback` outside a PR without a job-level environment',
      ]),
    );
  });

  it('lists what made the old upload, rollback and prune examples incomplete as pasted', () => {
    const incomplete = `
on:
  pull_request:
  workflow_dispatch:
jobs:
  preview:
    if: github.event.pull_request.head.repo.full_name == github.repository && github.actor != 'dependabot[bot]'
    concurrency: p-\${{ github.event.pull_request.number }}
    runs-on: ubuntu-latest
    permissions: {pull-requests: write, deployments: write}
    steps:
      - uses: your-org/langgraph-deploy-action@v1
        with:
          workspace-id: w
          name: a-pr-\${{ github.event.pull_request.number }}
          environment: preview-pr-\${{ github.event.pull_request.number }}
  cleanup:
    if: github.event.pull_request.head.repo.full_name == github.repository && github.actor != 'dependabot[bot]'
    concurrency: p-\${{ github.event.pull_request.number }}
    runs-on: ubuntu-latest
    permissions: {pull-requests: write}
    steps:
      - uses: your-org/langgraph-deploy-action@v1
        with:
          command: delete
          name: a-pr-\${{ github.event.pull_request.number }}
          delete-tracing-project: true
  prune:
    if: github.event_name == 'workflow_dispatch'
    concurrency: prune
    runs-on: ubuntu-latest
    permissions: {pull-requests: read}
    steps:
      - uses: your-org/langgraph-deploy-action@v1
        with:
          workspace-id: w
          command: prune
          name: a-pr-{pr}
          dry-run: \${{ github.event_name == 'workflow_dispatch' }}
`;
    const problems = workflowProblems(yamlBlocks('x.md', `\`\`\`yaml\n${incomplete}\n\`\`\`\n`));
    expect(problems.map((p) => `${p.where.replace(/^x\.md:\d+ /, '')}: ${p.problem}`)).toEqual([
      'job cleanup: no `workspace-id`: organization-scoped keys need it (see Set-up)',
      'job cleanup: cleanup without the `environment` the deploy sets: that GitHub deployment stays active',
      'job prune: `dry-run` is always true when the prune is started by hand',
    ]);
  });

  it('asks for exactly the permissions a job uses, no more', () => {
    const extra = unsafe
      .replace(/permissions:\n( {2}.*\n)+/, 'permissions: {}\n')
      .replace(
        '    permissions: {}\n    steps:\n      - uses: your-org/langgraph-deploy-action@v1\n        with: {command: rollback',
        '    permissions: {deployments: write}\n    environment: production\n    steps:\n      - uses: your-org/langgraph-deploy-action@v1\n        with: {command: rollback',
      );
    const problems = workflowProblems(yamlBlocks('x.md', `\`\`\`yaml\n${extra}\n\`\`\`\n`));
    expect(
      problems.filter((p) => p.where.endsWith('job rollback') && p.problem.startsWith('perm')),
    ).toEqual([
      {
        where: 'x.md:2 job rollback',
        problem: 'permissions {"deployments":"write"}; its steps use {}',
      },
    ]);
  });
});
