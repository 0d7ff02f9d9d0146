/**
 * The run after its inputs are valid: one deadline, one cancellation signal, one client,
 * then the `deploy`, `delete` or `rollback` command, and the report whatever happened.
 */
import { runDeploy } from './commands/deploy.js';
import { runDelete, runPrune } from './commands/prune.js';
import { runRegistryLogin } from './commands/registry-login.js';
import { runRollback } from './commands/rollback.js';
import type { Config } from './inputs/config.js';
import { INPUT_NAMES } from './inputs/spec.js';
import { ControlPlaneClient } from './api/client.js';
import { CancelledError } from './lib/errors.js';
import { outputGate } from './lib/outputs.js';
import { runnerLogger, type Logger } from './lib/untrusted.js';
import { bestEffortWithin, fail, writeReports, type RunContext } from './commands/context.js';
import { Deadline, systemClock, type Clock } from './lib/time.js';

/** How long after SIGINT/SIGTERM the process exits, whatever is still running. */
export const CANCEL_GRACE_MS = 1500;

export async function execute(config: Config, clock: Clock = systemClock): Promise<number> {
  // The budget starts at process start, so it bounds the lookup and create too.
  const deadline = new Deadline(clock, performance.timeOrigin + config.timeoutSeconds * 1000);
  const controller = new AbortController();
  const state: RunContext['state'] = {
    report: { command: config.command, timeline: [], outcome: 'failure', startedAt: clock.now() },
  };
  // Warnings are repeated in the step summary and the PR comment.
  const logger: Logger = {
    ...runnerLogger,
    warning(message, properties) {
      runnerLogger.warning(message, properties);
      (state.report.warnings ??= []).push(message);
    },
  };

  const basics = { clock, deadline, signal: controller.signal, logger };
  // Retry gaps follow poll-interval too, capped at the usual 1 s base.
  const baseDelayMs = Math.max(50, Math.min(1000, (config.pollIntervalSeconds * 1000) / 15));
  const http = { ...basics, baseDelayMs };
  const { controlPlaneUrl: baseUrl, apiKey, workspaceId } = config;
  const ctx: RunContext<Config> = {
    ...basics,
    config,
    http,
    client: new ControlPlaneClient({ baseUrl, apiKey, workspaceId, http, inputs: INPUT_NAMES }),
    state,
    output: outputGate(logger),
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
  const signals = ['SIGINT', 'SIGTERM'] as const;
  for (const signal of signals) process.once(signal, onSignal);

  try {
    if (config.command === 'deploy') return await runDeploy({ ...ctx, config });
    if (config.command === 'delete') return await runDelete({ ...ctx, config });
    if (config.command === 'rollback') return await runRollback({ ...ctx, config });
    if (config.command === 'registry-login') return await runRegistryLogin({ ...ctx, config });
    return await runPrune({ ...ctx, config });
  } catch (error) {
    if (controller.signal.aborted || error instanceof CancelledError) {
      reportCancelled(ctx);
      await bestEffortWithin(state.onCancel?.(), 1000);
    } else {
      fail(ctx, error);
    }
    await writeReports(ctx);
    return 1;
  } finally {
    for (const signal of signals) process.removeListener(signal, onSignal);
  }
}

/** Once per run (the signal's timer and the command's end may both get here). */
function reportCancelled(ctx: RunContext): void {
  const r = ctx.state.report;
  if (r.outcome === 'cancelled') return;
  r.outcome = 'cancelled';
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
