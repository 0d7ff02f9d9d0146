/**
 * End to end: the pre-flight checks of the checked-out LangGraph config (and of `image-uri`)
 * fail the run before any request, with annotations on the file and line; the variable
 * check that needs the lookup stops before any create or update.
 */
import { afterAll, beforeEach, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tempWorkspaces, sentSecrets } from './deploy-support.js';
import { runAction, type RunResult } from '../../scripts/run-action.js';
import { useSimulator } from '../helpers/simulator.js';

const workspaces = tempWorkspaces('e2e-preflight');

const sim = useSimulator({
  timeline: [
    { status: 'QUEUED', durationMs: 30 },
    { status: 'DEPLOYED', durationMs: 0 },
  ],
});

afterAll(async () => {
  workspaces.removeAll();
});

beforeEach(() => sim.reset());

const REPO_URL = 'https://github.com/acme/agent';

/** A checkout (`.git` folder) holding `files`; `langgraph.json` given as text, as written. */
function workspace(files: Record<string, string>, options: { git?: boolean } = {}): string {
  return workspaces.make(files, options);
}

const AGENT = { 'src/agent.py': 'graph = None\n' };

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
      ...inputs,
    },
  });
}

const errors = (r: RunResult) => r.annotations.filter((a) => a.kind === 'error');
const requests = (method: string, path: string | RegExp) =>
  sim.requests.filter(
    (q) => q.method === method && (typeof path === 'string' ? q.path === path : path.test(q.path)),
  );

/** A config whose webhook header reads `variable` (line 7 of the file). */
function webhookConfig(variable: string): string {
  return `{
  "dependencies": ["."],
  "graphs": { "agent": "./src/agent.py:graph" },
  "webhooks": {
    "url": { "allowed_domains": ["hooks.example.com"] },
    "headers": {
      "Authorization": "Bearer \${{ env.${variable} }}"
    }
  }
}
`;
}

describe('a broken langgraph.json fails the run before any request', () => {
  const cases: { what: string; text: string; line: number; says: string[] }[] = [
    {
      what: 'invalid JSON (a trailing comma)',
      text: `{
  "dependencies": ["."],
  "graphs": {
    "agent": "./src/agent.py:graph",
  }
}
`,
      // The trailing comma itself.
      line: 4,
      says: ['langgraph.json is not valid JSON', 'trailing commas'],
    },
    {
      what: 'a webhook header reading a variable without the LG_WEBHOOK_ prefix',
      text: webhookConfig('API_TOKEN'),
      line: 7,
      says: ['env.API_TOKEN', 'LG_WEBHOOK_', 'Rename the variable to LG_WEBHOOK_API_TOKEN'],
    },
    {
      what: 'a webhooks.url option of the wrong type (a string for a boolean)',
      text: `{
  "dependencies": ["."],
  "graphs": { "agent": "./src/agent.py:graph" },
  "webhooks": {
    "url": {
      "allowed_domains": ["hooks.example.com"],
      "require_https": "yes"
    }
  }
}
`,
      line: 7,
      says: ['webhooks.url.require_https is a string', 'must be a boolean'],
    },
    {
      what: 'a graph whose file does not exist',
      text: `{
  "dependencies": ["."],
  "graphs": {
    "agent": "./src/missing.py:graph"
  }
}
`,
      line: 4,
      says: ['src/missing.py'],
    },
  ];

  it.each(cases)('$what', async ({ text, line, says }) => {
    const r = await deploy('pf-broken', workspace({ ...AGENT, 'langgraph.json': text }));

    expect(r.code).toBe(1);
    expect(errors(r)).toHaveLength(1);
    const [error] = errors(r);
    expect(error!.props).toMatch(/(^|,)file=langgraph\.json(,|$)/);
    expect(error!.props).toMatch(new RegExp(`(^|,)line=${line}(,|$)`));
    expect(error!.props).toMatch(/title=LangGraph config: /);
    for (const s of says) expect(error!.message).toContain(s);
    expect(sim.requests).toEqual([]);
    // The summary says what failed, not just "see the annotations": the finding itself,
    // with its file and line.
    expect(r.summary).toContain('Pre-flight checks failed with 1 error');
    expect(r.summary).toContain('#### Pre-flight errors');
    const listed = r.summary.split('\n').find((l) => l.startsWith('- ❌ '));
    expect(listed).toContain(`\`langgraph.json:${line}:`);
    expect(listed).not.toContain('see the annotations');
  });

  it('refuses an external_docker image-uri that is no image reference', async () => {
    const r = await deploy('pf-bad-image', workspace({}), {
      source: 'external_docker',
      'integration-id': '',
      'image-uri': 'not a ref!',
    });

    expect(r.code).toBe(1);
    expect(errors(r).length).toBeGreaterThanOrEqual(1);
    expect(
      errors(r)
        .map((e) => e.message)
        .join('\n'),
    ).toContain('image-uri "not a ref!"');
    expect(sim.requests).toEqual([]);
  });
});

describe('a long output reaches the runner whole', () => {
  it('exits only once stdout is flushed: 2,000 pre-flight errors, none lost', async () => {
    // About 500 KB of lines: more than a pipe holds, so writes queue behind the reader.
    const headers = Object.fromEntries(
      Array.from({ length: 2000 }, (_, i) => [`X-H${i}`, `\${{ env.TOKEN_${i} }}`]),
    );
    const config = {
      dependencies: ['.'],
      graphs: { agent: './src/agent.py:graph' },
      webhooks: { headers },
    };
    const ws = workspace({ ...AGENT, 'langgraph.json': JSON.stringify(config, null, 2) });
    const r = await deploy('many-errors', ws, { secrets: 'OTHER=1' });
    expect(r.code).toBe(1);
    const named = errors(r).map((e) => /X-H(\d+),/.exec(e.props)?.[1]);
    expect(named).toEqual(Array.from({ length: 2000 }, (_, i) => String(i)));
    expect(sim.requests).toHaveLength(0);
  });
});

describe('webhook variables must be in the deployment environment', () => {
  const config = webhookConfig('LG_WEBHOOK_TOKEN');

  function seed(name: string, secrets: { name: string; value: string }[]): void {
    sim.seedDeployment({ name, repoUrl: REPO_URL, secrets });
  }

  it('stops before the update when the found deployment lacks the variable', async () => {
    seed('pf-var-missing', [{ name: 'OPENAI_API_KEY', value: 'sk-seeded-value-1234' }]);
    const r = await deploy('pf-var-missing', workspace({ ...AGENT, 'langgraph.json': config }));

    expect(r.code).toBe(1);
    expect(errors(r)).toHaveLength(1);
    const [error] = errors(r);
    expect(error!.props).toMatch(/file=langgraph\.json/);
    expect(error!.props).toMatch(/(^|,)line=7(,|$)/);
    expect(error!.message).toContain('env.LG_WEBHOOK_TOKEN');
    expect(error!.message).toContain('not among the secrets of the deployment');
    expect(error!.message).not.toContain('sk-seeded-value-1234');
    // The lookup only: no update, no create.
    expect(sim.requests.map((q) => `${q.method} ${q.path}`)).toEqual(['GET /v2/deployments']);
  });

  it('stops before the create when there is no deployment and secrets is empty', async () => {
    const r = await deploy('pf-var-create', workspace({ ...AGENT, 'langgraph.json': config }));

    expect(r.code).toBe(1);
    expect(errors(r)).toHaveLength(1);
    expect(errors(r)[0]!.message).toContain("add LG_WEBHOOK_TOKEN to the action's secrets input");
    expect(requests('POST', '/v2/deployments')).toEqual([]);
  });

  it('updates when the found deployment has the variable (its environment is kept)', async () => {
    seed('pf-var-kept', [{ name: 'LG_WEBHOOK_TOKEN', value: 'seeded-webhook-token' }]);
    const r = await deploy('pf-var-kept', workspace({ ...AGENT, 'langgraph.json': config }));

    expect(errors(r)).toEqual([]);
    expect(r.code).toBe(0);
    const patches = requests('POST', /^\/v2\/deployments\/[^/]+\/revisions$/);
    expect(patches).toHaveLength(1);
    expect(patches[0]!.body).not.toHaveProperty('secrets');
    expect(r.outputs).toMatchObject({ created: 'false', status: 'DEPLOYED' });
  });

  it('creates when the secrets input gives the variable', async () => {
    const r = await deploy('pf-var-input', workspace({ ...AGENT, 'langgraph.json': config }), {
      secrets: 'LG_WEBHOOK_TOKEN=webhook-token-from-input',
    });

    expect(errors(r)).toEqual([]);
    expect(r.code).toBe(0);
    const posts = requests('POST', '/v2/deployments');
    expect(posts).toHaveLength(1);
    expect(posts[0]!.body).toMatchObject({
      secrets: sentSecrets([{ name: 'LG_WEBHOOK_TOKEN', value: 'webhook-token-from-input' }], {
        created: true,
      }),
    });
    expect(r.outputs).toMatchObject({ created: 'true', status: 'DEPLOYED' });
    expect(r.stdout).toContain('::add-mask::webhook-token-from-input');
    expect(r.stdout.replace(/^::add-mask::.*$/gm, '')).not.toContain('webhook-token-from-input');
  });
});

it('without a config file in the workspace, one notice and the deploy goes on', async () => {
  const r = await deploy('pf-no-config', workspace({}, { git: false }));

  expect(r.code).toBe(0);
  expect(r.annotations.filter((a) => a.kind !== 'notice')).toEqual([]);
  const notices = r.annotations.filter((a) => a.kind === 'notice');
  expect(notices).toHaveLength(1);
  expect(notices[0]!.props).toBe('title=Pre-flight check: config-path');
  expect(notices[0]!.message).toContain('langgraph.json is not in the workspace');
  expect(requests('POST', '/v2/deployments')).toHaveLength(1);
  expect(r.outputs['status']).toBe('DEPLOYED');
});

describe('files the config names are read only through the one path rule', () => {
  const outside = mkdtempSync(join(tmpdir(), 'e2e-preflight-outside-'));
  afterAll(() => rmSync(outside, { recursive: true, force: true }));

  /** A FIFO outside the checkout: opening it for reading blocks until a writer comes. */
  function fifo(name: string): string {
    const path = join(outside, name);
    execFileSync('mkfifo', [path]);
    return path;
  }

  const graphConfig = (env: string) =>
    JSON.stringify({ dependencies: ['.'], graphs: { agent: './src/agent.py:graph' }, env });

  it('an `env` file that links out of the checkout (to a FIFO) is not read: no hang, a warning', async () => {
    const ws = workspace({ ...AGENT, 'langgraph.json': graphConfig('vars.env') });
    symlinkSync(fifo('env-fifo'), join(ws, 'vars.env'));
    // Without the path rule the read blocks: the run would be killed, not exit.
    const r = await deploy('pf-env-fifo', ws, { timeout: '10' });
    expect(r.code).toBe(0);
    const warned = r.annotations.filter((a) => a.kind === 'warning').map((a) => a.message);
    expect(warned.join('\n')).toMatch(
      /env points to vars\.env, which is not a file of the repository/,
    );
  });

  it('a `.gitignore` that is a link to a FIFO outside is not read either', async () => {
    const ws = workspace({ ...AGENT, 'langgraph.json': graphConfig('.env') });
    symlinkSync(fifo('gitignore-fifo'), join(ws, '.gitignore'));
    // Without the path rule the read blocks: the run would be killed, not exit.
    const r = await deploy('pf-gitignore-fifo', ws, { timeout: '10' });
    expect(r.code).toBe(0);
    expect(r.outputs['status']).toBe('DEPLOYED');
  });
});
