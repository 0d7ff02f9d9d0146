/**
 * `runDeploy` with fakes: an in-memory control plane (`FakePlane`) whose revisions go through
 * scripted statuses, a fake clock, and an agent server on loopback whose `/ok` answers as the
 * test says. Its steps in order (pre-flight, find, update, follow, check) and the one deadline
 * of `rollback-on-failure` (INTERFACE v1.3): the rollback runs within the run's `timeout`, never
 * past it (plus the cancellation grace), and with too little time left it is not started.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Revision } from '../../src/api/schemas.js';
import { evaluateDeployment, runDeploy } from '../../src/commands/deploy.js';
import { rollbackMinMs } from '../../src/commands/rollback.js';
import { CANCEL_GRACE_MS } from '../../src/flow.js';
import type { DeployConfig } from '../../src/inputs/config.js';
import type { Example } from '../../src/api/langsmith.js';
import type { RunContext } from '../../src/commands/context.js';
import type { EvalConfig } from '../../src/inputs/eval.js';
import { ActionError, CancelledError } from '../../src/lib/errors.js';
import { Deadline } from '../../src/lib/time.js';
import { CheckError } from '../../src/verify/agent-server.js';
import { examples, FakeLangSmith, PRODUCTION } from '../helpers/fake-langsmith.js';
import {
  deploymentFixture,
  FakeClock,
  githubContext,
  recordingLogger,
  unusedPlane,
} from '../helpers/fakes.js';
import { FakePlane, makeConfig } from '../deployment/upsert-plane.js';
import { fakeRun, quietly } from './run-context.js';

/** `/ok` answers this status (200 with `{"ok": true}`) on the loopback agent server. */
let okStatus = 200;
let server: Server;
let agentUrl = '';
const workspace = mkdtempSync(join(tmpdir(), 'deploy-unit-'));

beforeAll(async () => {
  writeFileSync(
    join(workspace, 'langgraph.json'),
    JSON.stringify({ dependencies: ['.'], graphs: { agent: './agent.py:graph' } }),
  );
  writeFileSync(join(workspace, 'agent.py'), 'graph = None\n');
  server = createServer((_req, res) => {
    res.writeHead(okStatus, { 'content-type': 'application/json' });
    res.end(JSON.stringify(okStatus === 200 ? { ok: true } : { detail: 'no' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  agentUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(workspace, { recursive: true, force: true });
});

/** A control plane whose revisions go through `script` (the last status stays), and redeploys. */
class DeployPlane extends FakePlane {
  /** Statuses of each revision, in the order the status checks see them. */
  readonly script = new Map<string, string[]>();
  /** The statuses every redeployed revision goes through. */
  replay: string[] = ['QUEUED', 'DEPLOYED'];
  readonly redeploys: string[] = [];

  override async getRevision(id: string, revisionId: string): Promise<Revision> {
    const left = this.script.get(revisionId) ?? ['DEPLOYED'];
    const status = left.length > 1 ? left.shift()! : left[0]!;
    const at = new Date(this.clock.now()).toISOString();
    const source_revision_config = { ...this.store.get(id)?.source_revision_config };
    return {
      id: revisionId,
      status,
      created_at: at,
      updated_at: at,
      source: 'github',
      source_revision_config,
    };
  }

  async redeployRevision(id: string, revisionId: string) {
    this.redeploys.push(revisionId);
    const d = this.store.get(id)!;
    d.latest_revision_id = `rev-replay-${this.redeploys.length}`;
    this.script.set(d.latest_revision_id, [...this.replay]);
    return structuredClone(d);
  }

  override async getRevisionLogs() {
    return undefined;
  }

  deleteDeployments(): never {
    throw new Error('deleteDeployments is not used by a deploy');
  }
}

function run(overrides: Partial<DeployConfig> = {}) {
  const clock = new FakeClock();
  const plane = new DeployPlane(clock);
  const config = makeConfig({
    skipUnchanged: false,
    interruptPrevious: false,
    pollIntervalSeconds: 1,
    timeoutSeconds: 300,
    github: { ...makeConfig().github, workspace },
    ...overrides,
  });
  const live = plane.add({ name: 'my-agent', url: agentUrl, active_revision_id: 'rev-live' });
  return { ...fakeRun(config, plane, clock), plane, live };
}

describe('runDeploy', () => {
  it('updates, follows its own revision to DEPLOYED, checks the agent server and reports', async () => {
    okStatus = 200;
    const { ctx, plane, outputs, live } = run();
    plane.script.set('rev-1', ['QUEUED', 'BUILDING', 'DEPLOYED']);
    const code = await quietly(() => runDeploy(ctx));

    expect(code).toBe(0);
    expect(plane.count('patch')).toBe(1);
    expect(outputs).toMatchObject({
      'deployment-id': live.id,
      'revision-id': 'rev-1',
      created: false,
      status: 'DEPLOYED',
      url: agentUrl,
      'skipped-build': false,
    });
    const { report } = ctx.state;
    expect(report.outcome).toBe('success');
    expect(report.timeline.map((t) => t.status)).toEqual(['QUEUED', 'BUILDING', 'DEPLOYED']);
    expect(report.checks).toEqual({ health: 'passed' });
  });

  it('says no rollback is needed when the new revision fails to build', async () => {
    const { ctx, plane } = run({ rollbackOnFailure: true });
    plane.script.set('rev-1', ['QUEUED', 'BUILD_FAILED']);
    const failure = quietly(() => runDeploy(ctx));
    await expect(failure).rejects.toThrow(
      /ended in BUILD_FAILED\..*No rollback needed: revision rev-live, live before this run, still serves\./s,
    );
    expect(plane.redeploys).toEqual([]);
  });
});

describe('rollback-on-failure: one deadline per run', () => {
  it("redeploys within the run's own timeout: the run ends by the timeout (+ the grace)", async () => {
    okStatus = 401; // the new revision's check fails at once, with most of the timeout left
    const { ctx, plane, clock, deadline } = run({ rollbackOnFailure: true });
    plane.replay = ['QUEUED', 'DEPLOYING']; // the redeploy never finishes
    const failure = quietly(() => runDeploy(ctx));

    await expect(failure).rejects.toThrow(
      /failed its checks: .*refused the API key.*The rollback to revision rev-live.*failed too: .*`command: rollback`/s,
    );
    expect(plane.redeploys).toEqual(['rev-live']);
    expect(ctx.state.report.rollback).toMatchObject({ outcome: 'failed', to: 'rev-live' });
    // The old code gave the rollback a `timeout` of its own: it ended near twice the timeout.
    expect(clock.now()).toBeGreaterThan(deadline.at - 60_000);
    expect(clock.now()).toBeLessThanOrEqual(deadline.at + CANCEL_GRACE_MS);
  });

  it('starts no rollback when too little of the timeout is left, and names `command: rollback`', async () => {
    okStatus = 503; // the check retries until the timeout is nearly used up
    const { ctx, plane, clock, deadline } = run({ rollbackOnFailure: true, timeoutSeconds: 60 });
    const failure = quietly(() => runDeploy(ctx));

    await expect(failure).rejects.toThrow(
      /did not answer \{"ok": true\}.*No rollback \(`rollback-on-failure`\): only \S+ s of `timeout` \(60 s\) were left, too little to redeploy revision rev-live.*roll back with `command: rollback`/s,
    );
    expect(deadline.remainingMs()).toBeLessThan(rollbackMinMs(ctx.config));
    expect(plane.redeploys).toEqual([]);
    expect(ctx.state.report.rollback).toBeUndefined();
    expect(clock.now()).toBeLessThanOrEqual(deadline.at + CANCEL_GRACE_MS);
  });
});

/** `deploy`'s evaluation: its outputs, its record, and which failures may roll back. */
function setup(evaluation: Partial<EvalConfig> = {}) {
  const clock = new FakeClock();
  const logger = recordingLogger();
  const controller = new AbortController();
  const deadline = new Deadline(clock, clock.now() + 1800 * 1000);
  const outputs = new Map<string, string>();
  const config = {
    command: 'deploy',
    apiKey: 'lsv2_pt_eval_command_key',
    uiBaseUrl: 'https://smith.langchain.com',
    github: githubContext('https://api.github.com'),
    evaluation: {
      dataset: 'qa',
      splits: [],
      maxExamples: 200,
      concurrency: 2,
      baseline: 'auto',
      gate: {},
      waitSeconds: 60,
      apiUrl: 'https://api.smith.langchain.com',
      ...evaluation,
    },
  } as unknown as DeployConfig;
  const ctx: RunContext<DeployConfig> = {
    config,
    clock,
    deadline,
    signal: controller.signal,
    logger,
    http: { clock, deadline, signal: controller.signal, logger },
    client: unusedPlane() as RunContext['client'],
    state: {
      report: { command: 'deploy', timeline: [], outcome: 'failure', url: 'https://a.example' },
    },
    output(name, value) {
      if (value !== undefined) outputs.set(name, String(value));
    },
  };
  const langsmith = new FakeLangSmith(clock, examples(6));
  const runner = {
    graph: 'agent',
    run: async (example: Example, project: string) => {
      langsmith.trace(project, example.id);
      return { outputs: {} };
    },
  };
  const evaluate = () =>
    evaluateDeployment(ctx, deploymentFixture({ name: 'my-agent' }), { langsmith, runner });
  return { ctx, outputs, langsmith, evaluate, controller };
}

describe('evaluateDeployment', () => {
  it('sets the four outputs and records the evaluation as a passed check', async () => {
    const { evaluate, outputs, ctx } = setup();
    await expect(evaluate()).resolves.toEqual({ failure: undefined, rollback: true });
    expect(Object.fromEntries(outputs)).toEqual({
      'experiment-id': 'exp-0',
      'experiment-url':
        'https://smith.langchain.com/o/tenant-1/datasets/3fa85f64-5717-4562-b3fc-2c963f66afa6/compare?selectedSessions=exp-0',
      'eval-passed': 'true',
      'eval-scores':
        '{"correctness":{"mean":1,"n":6,"baseline":null,"delta":null,"low":null,"high":null}}',
    });
    expect(ctx.state.report.checks?.evaluation).toBe('passed');
    expect(ctx.state.report.evaluation?.experimentName).toBe('my-agent-bbbbbbb-42');
  });

  it('returns a failed gate as a failed check that may roll back', async () => {
    const { evaluate, outputs, langsmith, ctx } = setup({ gate: { correctness: { maxDrop: 0 } } });
    langsmith.past('prod', PRODUCTION, '2026-01-01T00:00:00Z', () => 1);
    langsmith.score = () => ({ correctness: 0 });
    const result = await evaluate();
    expect(result.rollback).toBe(true);
    expect(result.failure).toBeInstanceOf(CheckError);
    expect(outputs.get('eval-passed')).toBe('false');
    expect(ctx.state.report.checks?.evaluation).toBe('failed');
  });

  it('returns an evaluation that could not run as a failure that does not roll back', async () => {
    const { evaluate, outputs } = setup({ dataset: 'missing' });
    const result = await evaluate();
    expect(result.rollback).toBe(false);
    expect((result.failure as ActionError).title).toBe('Evaluation not run');
    expect(outputs.get('eval-passed')).toBe('false');
    expect(outputs.has('experiment-id')).toBe(false);
  });

  it('lets a cancellation through', async () => {
    const { evaluate, langsmith, controller } = setup();
    langsmith.dataset = async () => {
      controller.abort();
      throw new CancelledError('cancelled');
    };
    await expect(evaluate()).rejects.toBeInstanceOf(CancelledError);
  });

  it('does nothing without eval-dataset', async () => {
    const { ctx, outputs } = setup();
    delete ctx.config.evaluation;
    await expect(evaluateDeployment(ctx, deploymentFixture())).resolves.toEqual({
      rollback: false,
    });
    expect(outputs.size).toBe(0);
  });
});
