/** `deploy`'s evaluation: its outputs, its record, and which failures may roll back. */
import { describe, expect, it } from '@jest/globals';
import type { Example } from '../../src/api/langsmith.js';
import type { RunContext } from '../../src/commands/context.js';
import { evaluateDeployment } from '../../src/commands/evaluation.js';
import type { DeployConfig } from '../../src/inputs/config.js';
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

function setup(evaluation: Partial<EvalConfig> = {}) {
  const clock = new FakeClock();
  const logger = recordingLogger();
  const controller = new AbortController();
  const deadline = Deadline.fromSeconds(clock, 1800);
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
