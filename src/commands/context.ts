/**
 * What every command shares with the flow (the run's context and state, the failure report
 * and the final reports) and the steps the commands share: the ID, status and URL outputs,
 * following a revision, the log tail of a failed revision, and the GitHub deployment. The
 * commands import it; it imports none of them.
 */
import { errorMessage } from '../lib/text.js';
import type { BaseConfig } from '../inputs/config.js';
import type { CommandClient } from '../api/client.js';
import type { Deployment } from '../api/schemas.js';
import { ActionError, DeadlineError } from '../lib/errors.js';
import type { HttpContext } from '../api/http/request.js';
import type { RunOutcome, RunReport } from '../report/record.js';
import { appendStepSummary, inert, printUntrusted, redact, setSecret } from '../lib/untrusted.js';
import type { RunBasics } from '../lib/time.js';
import { withoutCredentials } from '../lib/outputs.js';
import { renderComment, renderSummary } from '../report/render.js';
import { createGithubDeployment, upsertPrComment } from '../github/side-effects.js';
import { setTimeout as delay } from 'node:timers/promises';
import { fetchLogTail } from '../deployment/logs.js';
import { revisionStatus } from '../deployment/revision-status.js';
import { uiUrl } from '../deployment/target.js';
import { waitForRevision, type WaitOptions, type WaitResult } from '../deployment/wait.js';

/** The run's context; `C`: the configuration of its command (the shared steps read the base). */
export interface RunContext<C extends BaseConfig = BaseConfig> extends RunBasics {
  config: C;
  signal: AbortSignal;
  http: HttpContext;
  client: CommandClient;
  /** What a command has learnt so far: read by the cancellation handler and the reports. */
  state: {
    report: RunReport;
    /** Called when the run is cancelled, to mark GitHub side effects (best effort). */
    onCancel?: () => Promise<void>;
  };
  /** Sets an output at once (so later steps have it even if the run fails) and records it. */
  output(name: string, value: string | boolean | undefined): void;
}

/** Reports a failure as one `::error` with a title and records it for the summary. */
export function fail(ctx: RunContext, error: unknown): void {
  const message = errorMessage(error);
  const title = error instanceof ActionError ? error.title : 'Deployment failed';
  ctx.state.report.outcome = 'failure';
  ctx.state.report.error = redact(message);
  if (error instanceof DeadlineError) ctx.state.report.timedOut = true;
  ctx.logger.error(redact(message), { title });
}

/** Ends a command with `outcome`: the reports, then the exit code (1 for a failure). */
export async function finish(ctx: RunContext, outcome: RunOutcome): Promise<number> {
  ctx.state.report.outcome = outcome;
  await writeReports(ctx);
  return outcome === 'failure' ? 1 : 0;
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
  const { prComment, github, githubToken: token } = ctx.config;
  // A registry login deploys nothing a reviewer could open: no PR comment.
  if (prComment && github.pullRequest && token && report.command !== 'registry-login') {
    const key = report.name ?? report.deploymentId;
    const render = (marker: string, url?: string) => renderComment(report, marker, url);
    const comment = { key, updateOnly: report.command === 'delete', render };
    await bestEffortWithin(upsertPrComment(ctx, comment), ctx.signal.aborted ? 1000 : undefined);
  }
}

/** Awaits a best-effort promise for at most `ms` (an unref timer); never throws. */
export async function bestEffortWithin(promise: Promise<unknown> | undefined, ms = 15_000) {
  const timer = new AbortController();
  await Promise.race([
    promise?.catch(() => undefined),
    delay(ms, undefined, { ref: false, signal: timer.signal }).catch(() => undefined),
  ]);
  timer.abort(); // nothing is left behind once the promise settles
}

/** The deployment's IDs and pages as outputs and in the report; with `ids`, this revision's. */
export function setDeploymentOutputs(
  ctx: RunContext,
  deployment: Deployment,
  ids?: { revisionId: string; created: boolean },
): void {
  const report = Object.assign(ctx.state.report, {
    name: deployment.name,
    deploymentId: deployment.id,
    ...ids,
    uiUrl: uiUrl(ctx.config, deployment),
  });
  ctx.output('deployment-id', deployment.id);
  if (ids) ctx.output('revision-id', ids.revisionId);
  ctx.output('name', deployment.name);
  if (ids) ctx.output('created', ids.created);
  ctx.output('ui-url', report.uiUrl);
  setUrl(ctx, deployment);
}

export function setStatus(ctx: RunContext, status: string): void {
  ctx.state.report.status = status;
  ctx.output('status', status);
}

/** The `url` (`agentUrlOf`); credentials in it are masked, left out of log, outputs and reports. */
export function setUrl(ctx: RunContext, deployment: Deployment): void {
  const raw = agentUrlOf(deployment);
  if (!raw) return;
  const { url, credentials } = withoutCredentials(raw);
  for (const credential of credentials) setSecret(credential);
  if (credentials.length > 0 && !ctx.state.report.url) {
    ctx.logger.warning(
      "The deployment's agent server URL holds credentials (user:password@): they are " +
        'masked, and left out of the `url` output, the log and the reports.',
      { title: 'Credentials in the URL' },
    );
  }
  ctx.state.report.url = url.replace(/\/+$/, '');
  ctx.output('url', ctx.state.report.url);
}

/** The agent server's URL: `custom_url`, else the top-level `url` LangSmith Cloud fills in. */
export function agentUrlOf(deployment: Deployment): string | undefined {
  return (deployment.source_config.custom_url || deployment.url)?.replace(/\/+$/, '') || undefined;
}

/** `wait: false`: the revision's status as it is now, and the run ends without following it. */
export async function notWaiting(ctx: RunContext, revisionId: string, status: string) {
  setStatus(ctx, status);
  ctx.logger.info(
    `Not waiting (input \`wait\` is false): revision ${inert(revisionId, 100)} is ${inert(status, 40)}.`,
  );
  return finish(ctx, 'started');
}

/** Follows a revision with the run's polling (`poll-interval`); `ctx` may bring its own budget. */
export function follow(
  ctx: RunContext,
  deploymentId: string,
  revisionId: string,
  options: Pick<WaitOptions, 'onStatus' | 'onPoll' | 'initial'>,
): Promise<WaitResult> {
  const pollIntervalMs = ctx.config.pollIntervalSeconds * 1000;
  return waitForRevision({ ...ctx, deploymentId, revisionId, pollIntervalMs, ...options });
}

export async function showLogTail(
  ctx: RunContext,
  deploymentId: string,
  revisionId: string,
  status: string,
  streamed: boolean,
): Promise<void> {
  const { report } = ctx.state;
  const logKind = revisionStatus(status).log;
  if (logKind === undefined) return; // no log explains it (INTERRUPTED)
  const tail = await fetchLogTail(ctx.client, deploymentId, revisionId, status);
  if ('lines' in tail && tail.lines.length > 0) {
    Object.assign(report, { logTail: tail.lines, logKind });
    // A build log streamed live is already in the log: the tail goes to the reports only.
    if (streamed && logKind === 'build') return;
    printUntrusted(
      tail.lines,
      `Last ${tail.lines.length} log lines of revision ${inert(revisionId)}`,
    );
  } else {
    report.logsUnavailableHint =
      'This control plane does not offer revision logs through the API; see the build and deploy logs' +
      (report.uiUrl ? ` at ${report.uiUrl}.` : ' in the LangSmith UI.');
  }
}

/** The GitHub deployment of `environment` (best effort), marked errored if the run is cancelled. */
export async function startGithubDeployment(ctx: RunContext) {
  const { config, state } = ctx;
  if (!config.environment || !config.githubToken) return undefined;
  let started: Awaited<ReturnType<typeof createGithubDeployment>>;
  await bestEffortWithin(
    createGithubDeployment(ctx, config.environment, state.report).then(async (d) => {
      started = d;
      await d?.setStatus('in_progress');
    }),
  );
  state.onCancel = async () => started?.setStatus('error', { description: 'Cancelled' });
  return started;
}
