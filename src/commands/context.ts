/**
 * What every command shares with the flow: the run's context and state, the failure report
 * and the final reports. The commands import it; it imports none of them.
 */
import { errorMessage } from '../lib/text.js';
import type { Config } from '../inputs/config.js';
import type { ControlPlaneClient } from '../api/client.js';
import { ActionError } from '../lib/errors.js';
import type { HttpContext } from '../api/http/request.js';
import type { RunReport } from '../report/record.js';
import { appendStepSummary, redact } from '../lib/untrusted.js';
import type { RunBasics } from '../lib/time.js';
import { renderSummary } from '../report/render.js';
import { upsertPrComment } from '../report/github/pr-comment.js';

/** What a command has learnt so far: read by the cancellation handler and the reports. */
export interface RunState {
  report: RunReport;
  /** Called when the run is cancelled, to mark GitHub side effects (best effort). */
  onCancel?: () => Promise<void>;
}

export interface RunContext extends RunBasics {
  config: Config;
  signal: AbortSignal;
  http: HttpContext;
  client: ControlPlaneClient;
  state: RunState;
  /** Sets an output at once (so later steps have it even if the run fails) and records it. */
  output(name: string, value: string | boolean | undefined): void;
}

/** Reports a failure as one `::error` with a title and records it for the summary. */
export function fail(ctx: RunContext, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  const title = error instanceof ActionError ? error.title : 'Deployment failed';
  ctx.state.report.outcome = 'failure';
  ctx.state.report.error = redact(message);
  ctx.logger.error(redact(message), { title });
}

/** The step summary and the PR comment: written for every outcome, never failing the run. */
export async function writeReports(ctx: RunContext): Promise<void> {
  const report = ctx.state.report;
  report.finishedAt ??= ctx.clock.now();
  try {
    appendStepSummary(renderSummary(report), process.env, ctx.logger);
  } catch (error) {
    ctx.logger.warning(`Could not write the step summary: ${redact(errorMessage(error))}`);
  }
  const { config } = ctx;
  if (config.prComment && config.github.pullRequest && config.githubToken) {
    await bestEffortWithin(
      upsertPrComment({
        token: config.githubToken,
        github: config.github,
        report,
        logger: ctx.logger,
      }),
      ctx.signal.aborted ? 1000 : 15000,
    );
  }
}

/** Awaits a best-effort promise for at most `ms`; never throws. */
export async function bestEffortWithin(
  promise: Promise<unknown> | undefined,
  ms: number,
): Promise<void> {
  if (!promise) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    promise.catch(() => undefined),
    new Promise((resolve) => {
      timer = setTimeout(resolve, ms);
      timer.unref();
    }),
  ]);
  if (timer) clearTimeout(timer);
}
