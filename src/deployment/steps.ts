/**
 * The steps `deploy` and `rollback` share: failing the run, the status and URL outputs, the
 * log tail of a failed revision, and the GitHub deployment. Both commands import this module;
 * it imports neither.
 */
import type { Deployment } from '../api/schemas.js';
import { fetchLogTail, printLogBlock } from './logs.js';
import { revisionStatus } from './revision-status.js';
import { withoutCredentials } from '../lib/outputs.js';
import { bestEffortWithin, writeReports, type RunContext } from '../commands/context.js';
import { inert, setSecret } from '../lib/untrusted.js';
import { GithubDeployment } from '../report/github/github-deployment.js';

export async function failRun(ctx: RunContext): Promise<number> {
  ctx.state.report.outcome = 'failure';
  await writeReports(ctx);
  return 1;
}

export function setStatus(ctx: RunContext, status: string): void {
  ctx.state.report.status = status;
  ctx.output('status', status);
}

/**
 * The agent server's URL: `source_config.custom_url`, else the top-level `url` that LangSmith
 * Cloud fills in. Credentials in it are masked and left out of the log, outputs and reports.
 */
export function setUrl(ctx: RunContext, deployment: Deployment): void {
  const raw = agentUrlOf(deployment);
  if (!raw) return;
  const { url, credentials } = withoutCredentials(raw);
  if (credentials.length > 0) {
    for (const credential of credentials) setSecret(credential);
    if (!ctx.state.report.url) {
      ctx.logger.warning(
        "The deployment's agent server URL holds credentials (user:password@): they are " +
          'masked, and left out of the `url` output, the log and the reports.',
        { title: 'Credentials in the URL' },
      );
    }
  }
  ctx.state.report.url = url.replace(/\/+$/, '');
  ctx.output('url', ctx.state.report.url);
}

/** The agent server's URL without a trailing slash: `custom_url`, else the top-level `url`. */
export function agentUrlOf(deployment: Deployment): string | undefined {
  return (deployment.source_config.custom_url || deployment.url)?.replace(/\/+$/, '') || undefined;
}

export async function showLogTail(
  ctx: RunContext,
  deploymentId: string,
  revisionId: string,
  status: string,
  streamed: boolean,
): Promise<void> {
  if (revisionStatus(status).log === undefined) return; // no log explains it (INTERRUPTED)
  const tail = await fetchLogTail(ctx.client, deploymentId, revisionId, status);
  if ('lines' in tail && tail.lines.length > 0) {
    ctx.state.report.logTail = tail.lines;
    ctx.state.report.logKind = revisionStatus(status).log;
    // A build log streamed live is already in the log: the tail goes to the reports only.
    if (streamed && revisionStatus(status).log === 'build') return;
    printLogBlock(
      `Last ${tail.lines.length} log lines of revision ${inert(revisionId)}`,
      tail.lines,
    );
  } else {
    ctx.state.report.logsUnavailableHint =
      'This control plane does not offer revision logs through the API; see the build and deploy logs' +
      (ctx.state.report.uiUrl ? ` at ${ctx.state.report.uiUrl}.` : ' in the LangSmith UI.');
  }
}

export async function startGithubDeployment(
  ctx: RunContext,
): Promise<GithubDeployment | undefined> {
  const { config } = ctx;
  if (!config.environment || !config.githubToken) return undefined;
  let started: GithubDeployment | undefined;
  await bestEffortWithin(
    GithubDeployment.start({
      token: config.githubToken,
      github: config.github,
      environment: config.environment,
      logger: ctx.logger,
      description: `LangSmith deployment ${ctx.state.report.name ?? ''}`.trim(),
      ...(ctx.state.report.deploymentId ? { deploymentId: ctx.state.report.deploymentId } : {}),
    }).then(async (d) => {
      started = d;
      await d?.setStatus('in_progress');
    }),
    15000,
  );
  return started;
}
