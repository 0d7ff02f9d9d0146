/**
 * `deploy`'s evaluation (`eval-dataset`), once the revision is live and its checks passed: the
 * step (`verify/eval/`), its outputs and its record. A failed gate comes back as a failed check
 * (`rollback-on-failure` applies); an evaluation that could not run fails the step without a
 * rollback, since the revision itself did nothing wrong.
 */
import type { Deployment } from '../api/schemas.js';
import type { DeployConfig } from '../inputs/config.js';
import { CancelledError } from '../lib/errors.js';
import { evaluate } from '../verify/eval/index.js';
import type { RunContext } from './context.js';

export async function evaluateDeployment(
  ctx: RunContext<DeployConfig>,
  deployment: Deployment,
  deps?: Parameters<typeof evaluate>[2],
): Promise<{ failure?: unknown; rollback: boolean }> {
  const { config, state } = ctx;
  const report = state.report;
  if (!config.evaluation) return { rollback: false };
  const target = {
    url: report.url,
    name: deployment.name,
    deploymentId: deployment.id,
    revisionId: report.revisionId,
  };
  try {
    const found = await evaluate(
      { ...ctx, config: { ...config, evaluation: config.evaluation } },
      target,
      deps,
    );
    report.evaluation = found.report;
    report.checks = { ...report.checks, evaluation: found.failure ? 'failed' : 'passed' };
    ctx.output('experiment-id', found.report.experimentId);
    ctx.output('experiment-url', found.report.url);
    ctx.output('eval-passed', found.report.passed);
    ctx.output('eval-scores', found.report.scores);
    return { failure: found.failure, rollback: true };
  } catch (error) {
    if (error instanceof CancelledError || ctx.signal.aborted) throw error;
    report.checks = { ...report.checks, evaluation: 'failed' };
    ctx.output('eval-passed', false);
    return { failure: error, rollback: false };
  }
}
