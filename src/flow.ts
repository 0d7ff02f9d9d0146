/**
 * The run after its inputs are valid: one deadline, one cancellation signal, one client,
 * then the `deploy`, `delete` or `rollback` command, and the report whatever happened.
 */
import type { Config } from './config.js';
import { ControlPlaneClient } from './control-plane/client.js';
import { ActionError, CancelledError } from './errors.js';
import type { HttpContext } from './http.js';
import type { RunReport } from './report/types.js';
import { outputProblem } from './output-checks.js';
import { inert, redact, runnerLogger, setOutput, type Logger } from './runner.js';
import { Deadline, systemClock, type Clock } from './time.js';

/** What a command has learnt so far: read by the cancellation handler and the reports. */
export interface RunState {
  report: RunReport;
  /** Called when the run is cancelled, to mark GitHub side effects (best effort). */
  onCancel?: () => Promise<void>;
}

export interface RunContext {
  config: Config;
  clock: Clock;
  deadline: Deadline;
  signal: AbortSignal;
  logger: Logger;
  http: HttpContext;
  client: ControlPlaneClient;
  state: RunState;
  /** Sets an output at once (so later steps have it even if the run fails) and records it. */
  output(name: string, value: string | boolean | undefined): void;
}

/** How long after SIGINT/SIGTERM the process exits, whatever is still running. */
const CANCEL_GRACE_MS = 1500;

export async function execute(config: Config, clock: Clock = systemClock): Promise<number> {
  // The budget starts at process start, so it bounds the lookup and create too.
  const deadline = new Deadline(clock, performance.timeOrigin + config.timeoutSeconds * 1000);
  const controller = new AbortController();
  const state: RunState = { report: { command: config.command, timeline: [], outcome: 'failure' } };
  // Warnings are repeated in the step summary and the PR comment.
  const logger: Logger = {
    ...runnerLogger,
    warning(message, properties) {
      runnerLogger.warning(message, properties);
      (state.report.warnings ??= []).push(message);
    },
  };
  const outputs = new Map<string, string>();
  const rejected = new Set<string>();

  const http: HttpContext = {
    clock,
    deadline,
    signal: controller.signal,
    logger,
    // Retry gaps follow poll-interval too, capped at the usual 1 s base.
    baseDelayMs: Math.max(50, Math.min(1000, (config.pollIntervalSeconds * 1000) / 15)),
  };
  const client = new ControlPlaneClient({
    baseUrl: config.controlPlaneUrl,
    apiKey: config.apiKey,
    workspaceId: config.workspaceId,
    http,
  });
  const ctx: RunContext = {
    config,
    clock,
    deadline,
    signal: controller.signal,
    logger,
    http,
    client,
    state,
    output(name, value) {
      if (value === undefined) return;
      const text = String(value);
      if (outputs.get(name) === text) return;
      const problem = outputProblem(name, text);
      if (problem !== undefined) {
        // Once per value: the same answer read twice is one warning.
        if (rejected.has(`${name}\n${text}`)) return;
        rejected.add(`${name}\n${text}`);
        logger.warning(
          `Output \`${name}\` not written: the platform answered "${inert(text, 120)}", and ` +
            `${problem}. Later steps see it empty.`,
          { title: 'Output not written' },
        );
        return;
      }
      outputs.set(name, text);
      setOutput(name, text);
    },
  };

  const onSignal = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) return;
    controller.abort(new CancelledError(`Received ${signal}: the workflow was cancelled.`));
    // Whatever is still in flight, leave within the runner's grace period.
    setTimeout(() => {
      reportCancelled(ctx);
      process.exit(1);
    }, CANCEL_GRACE_MS).unref();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  try {
    const command =
      config.command === 'delete'
        ? (await import('./commands/delete.js')).runDelete
        : config.command === 'rollback'
          ? (await import('./commands/rollback.js')).runRollback
          : config.command === 'prune'
            ? (await import('./commands/prune.js')).runPrune
            : (await import('./commands/deploy.js')).runDeploy;
    return await command(ctx);
  } catch (error) {
    if (controller.signal.aborted || error instanceof CancelledError) {
      reportCancelled(ctx);
      state.report.outcome = 'cancelled';
      await bestEffortWithin(state.onCancel?.(), 1000);
      await writeReports(ctx);
      return 1;
    }
    fail(ctx, error);
    await writeReports(ctx);
    return 1;
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  }
}

let cancelReported = false;

function reportCancelled(ctx: RunContext): void {
  if (cancelReported) return;
  cancelReported = true;
  const r = ctx.state.report;
  const ids = [
    r.name ? `deployment '${r.name}'` : undefined,
    r.deploymentId ? `ID ${r.deploymentId}` : undefined,
    r.revisionId ? `revision ${r.revisionId}` : undefined,
    r.status ? `last status ${r.status}` : undefined,
  ].filter(Boolean);
  ctx.logger.error(
    `The run was cancelled${ids.length ? ` (${ids.join(', ')})` : ''}. ` +
      (r.revisionId
        ? 'The revision continues on the platform; follow it in the LangSmith UI' +
          (r.uiUrl ? ` (${r.uiUrl})` : '') +
          '.'
        : 'No deployment change had been requested yet.'),
    { title: 'Cancelled' },
  );
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
    const { writeSummary } = await import('./report/summary.js');
    await writeSummary(report, process.env, ctx.logger);
  } catch (error) {
    ctx.logger.warning(`Could not write the step summary: ${describe(error)}`);
  }
  const { config } = ctx;
  if (config.prComment && config.github.pullRequest && config.githubToken) {
    const { upsertPrComment } = await import('./github/pr-comment.js');
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

function describe(error: unknown): string {
  return redact(error instanceof Error ? error.message : String(error));
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
