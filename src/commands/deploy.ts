/**
 * `command: deploy`: pre-flight checks, find, create or update, follow this run's revision,
 * verify the agent server, report.
 */
import type { Deployment } from '../control-plane/schemas.js';
import { findTarget, uiUrl, upsert } from '../deploy.js';
import { ActionError } from '../errors.js';
import { bestEffortWithin, fail, writeReports, type RunContext } from '../flow.js';
import { fetchLogTail, logTypeFor } from '../log-tail.js';
import {
  checkEnvReferences,
  checkImageUri,
  preflightConfig,
  reportFindings,
  type Finding,
  type ParsedLangGraphConfig,
} from '../preflight.js';
import type { GithubDeployment } from '../report/github-deployment.js';
import { endGroup, startGroup } from '../runner.js';
import { waitForRevision, type WaitResult } from '../wait.js';

export async function runDeploy(ctx: RunContext): Promise<number> {
  const { config, client, logger, state } = ctx;
  const report = state.report;
  report.name = config.name;
  report.source =
    config.source === 'github'
      ? { kind: 'github', repoUrl: config.repoUrl, repoRef: config.repoRef }
      : { kind: 'external_docker', imageUri: config.imageUri };

  // 1. Pre-flight: what can be known without the platform.
  const parsed = preflight(ctx);
  if (parsed === false) return failRun(ctx);

  // 2. Find the deployment, then the checks that depend on what was found.
  const found = await findTarget(ctx);
  if (found) ctx.output('name', found.name);
  if (parsed && !checkEnvironmentAfterLookup(ctx, parsed, found)) return failRun(ctx);

  // 3. Create or update; outputs as soon as the IDs are known.
  const { deployment, revisionId, created } = await upsert(ctx, found);
  Object.assign(report, {
    name: deployment.name,
    deploymentId: deployment.id,
    revisionId,
    created,
    uiUrl: uiUrl(config, deployment),
  });
  ctx.output('deployment-id', deployment.id);
  ctx.output('revision-id', revisionId);
  ctx.output('name', deployment.name);
  ctx.output('created', created);
  ctx.output('ui-url', report.uiUrl);
  setUrl(ctx, deployment);
  logger.info(
    `${created ? 'Created' : 'Updated'} deployment '${deployment.name}' (${deployment.id}); ` +
      `following revision ${revisionId}. ${report.uiUrl ?? ''}`.trim(),
  );

  if (!config.wait) {
    const revision = await client.getRevision(deployment.id, revisionId);
    setStatus(ctx, revision.status);
    report.outcome = 'started';
    if (config.environment) {
      logger.notice(
        'No GitHub deployment was created because `wait` is false: the action does not know when the revision is live.',
      );
    }
    logger.info(
      `Not waiting (input \`wait\` is false): revision ${revisionId} is ${revision.status}.`,
    );
    await writeReports(ctx);
    return 0;
  }

  // 4. Follow this run's own revision.
  const ghDeployment = await startGithubDeployment(ctx);
  state.onCancel = async () => ghDeployment?.setStatus('error', { description: 'Cancelled' });
  let waited: WaitResult;
  try {
    waited = await waitForRevision({
      client,
      deploymentId: deployment.id,
      revisionId,
      clock: ctx.clock,
      deadline: ctx.deadline,
      signal: ctx.signal,
      logger,
      pollIntervalMs: config.pollIntervalSeconds * 1000,
      onStatus: (change) => {
        report.timeline.push(change);
        setStatus(ctx, change.status);
      },
    });
  } catch (error) {
    await ghDeployment?.setStatus('failure', {
      description: 'The revision did not finish in time',
    });
    throw error;
  }
  setStatus(ctx, waited.status);
  checkCommit(ctx, waited.revision.source_revision_config.repo_commit_sha ?? undefined);

  // The URL is read from the deployment once the revision is live (github sets it then).
  const current = await client.getDeployment(deployment.id).catch(() => deployment);
  setUrl(ctx, current);

  if (waited.outcome === 'failed') {
    await showLogTail(ctx, deployment.id, revisionId, waited.status);
    await ghDeployment?.setStatus('failure', { description: `Revision ${waited.status}` });
    fail(
      ctx,
      new ActionError(
        `Revision ${revisionId} of deployment '${deployment.name}' ended in ${waited.status}. ` +
          (report.logTail?.length
            ? 'The end of its log is above (and in the step summary).'
            : (report.logsUnavailableHint ?? '')) +
          ' Fix the cause and push again.',
        `Deployment ${waited.status}`,
      ),
    );
    return failRun(ctx);
  }
  if (waited.outcome === 'skipped') {
    report.outcome = 'skipped';
    logger.warning(
      `Revision ${revisionId} was SKIPPED: a newer revision of '${deployment.name}' superseded it ` +
        '(another push or run). Nothing was verified, since the serving revision is not this run’s.',
      { title: 'Revision superseded' },
    );
    await ghDeployment?.setStatus('inactive', { description: 'Superseded by a newer revision' });
    await writeReports(ctx);
    return 0;
  }

  // 5. DEPLOYED: does the agent server answer?
  const verified = await verify(ctx);
  if (!verified) {
    await ghDeployment?.setStatus('failure', { description: 'Post-deploy checks failed' });
    return failRun(ctx);
  }
  report.outcome = 'success';
  await ghDeployment?.setStatus('success', { environmentUrl: report.url, description: 'Deployed' });
  logger.info(`Deployment '${deployment.name}' is live${report.url ? ` at ${report.url}` : ''}.`);
  await writeReports(ctx);
  return 0;
}

async function failRun(ctx: RunContext): Promise<number> {
  ctx.state.report.outcome = 'failure';
  await writeReports(ctx);
  return 1;
}

function setStatus(ctx: RunContext, status: string): void {
  ctx.state.report.status = status;
  ctx.output('status', status);
}

function setUrl(ctx: RunContext, deployment: Deployment): void {
  const url = deployment.source_config.custom_url ?? undefined;
  if (!url) return;
  ctx.state.report.url = url.replace(/\/+$/, '');
  ctx.output('url', ctx.state.report.url);
}

/** Pre-flight checks. Returns the parsed LangGraph config, undefined, or false on errors. */
function preflight(ctx: RunContext): ParsedLangGraphConfig | undefined | false {
  const { config } = ctx;
  if (config.source === 'external_docker') {
    return annotateFindings(ctx, checkImageUri(config.imageUri ?? '')) ? undefined : false;
  }
  const result = preflightConfig({
    workspace: config.github.workspace,
    configPath: config.configPath,
    secretNames: config.secrets?.map((s) => s.name),
  });
  return annotateFindings(ctx, result.findings) ? result.parsed : false;
}

/**
 * The variable check that needs the lookup: with an empty `secrets` input a create sends no
 * environment, and an update keeps the deployment's.
 */
function checkEnvironmentAfterLookup(
  ctx: RunContext,
  parsed: ParsedLangGraphConfig,
  found: Deployment | undefined,
): boolean {
  if (ctx.config.secrets !== undefined) return true; // already checked against the input
  const names = found?.secrets.map((s) => s.name) ?? [];
  return annotateFindings(
    ctx,
    checkEnvReferences(parsed, names, { source: found ? 'deployment' : 'secrets' }),
  );
}

/** Annotates findings; true when none is an error. */
function annotateFindings(ctx: RunContext, findings: Finding[]): boolean {
  const failed = reportFindings(ctx.logger, findings);
  if (failed) {
    const report = ctx.state.report;
    const errors = findings.filter((f) => f.level === 'error');
    (report.preflightErrors ??= []).push(
      ...errors.map(({ message, file, line, column, key }) => ({
        message,
        file,
        line,
        column,
        key,
      })),
    );
    const count = report.preflightErrors.length;
    report.error =
      `Pre-flight checks failed with ${count} error${count === 1 ? '' : 's'} (listed below and ` +
      'as annotations): no deployment was created or changed. Fix them and push again.';
  }
  return !failed;
}

function checkCommit(ctx: RunContext, built: string | undefined): void {
  if (!built) return;
  ctx.output('commit-sha', built);
  ctx.state.report.commitSha = built;
  const expected = ctx.config.github.pullRequest?.headSha ?? ctx.config.github.sha;
  if (expected && built.toLowerCase() !== expected.toLowerCase()) {
    ctx.logger.warning(
      `The platform built commit ${built.slice(0, 12)}, but this workflow runs for ${expected.slice(0, 12)}: ` +
        'the branch has moved on since. The deployed code may not be the code of this run.',
      { title: 'Another commit was built' },
    );
  }
}

async function showLogTail(
  ctx: RunContext,
  deploymentId: string,
  revisionId: string,
  status: string,
): Promise<void> {
  const tail = await fetchLogTail(ctx.client, deploymentId, revisionId, status);
  if ('lines' in tail && tail.lines.length > 0) {
    ctx.state.report.logTail = tail.lines;
    ctx.state.report.logKind = logTypeFor(status);
    startGroup(`Last ${tail.lines.length} log lines of revision ${revisionId}`);
    for (const line of tail.lines) ctx.logger.info(line);
    endGroup();
  } else {
    ctx.state.report.logsUnavailableHint =
      'This control plane does not offer revision logs through the API; see the build and deploy logs' +
      (ctx.state.report.uiUrl ? ` at ${ctx.state.report.uiUrl}.` : ' in the LangSmith UI.');
  }
}

async function startGithubDeployment(ctx: RunContext): Promise<GithubDeployment | undefined> {
  const { config } = ctx;
  if (!config.environment || !config.githubToken) return undefined;
  const { GithubDeployment } = await import('../report/github-deployment.js');
  let started: GithubDeployment | undefined;
  await bestEffortWithin(
    GithubDeployment.start({
      token: config.githubToken,
      github: config.github,
      environment: config.environment,
      logger: ctx.logger,
      description: `LangSmith deployment ${ctx.state.report.name ?? ''}`.trim(),
    }).then(async (d) => {
      started = d;
      await d?.setStatus('in_progress');
    }),
    15000,
  );
  return started;
}

/** Health check and smoke run. False when one failed (already reported). */
async function verify(ctx: RunContext): Promise<boolean> {
  const { config, logger, state } = ctx;
  if (!config.healthCheck && config.smokeTest === undefined) return true;
  const { verifyDeployment } = await import('../verify.js');
  const result = await verifyDeployment(
    { http: ctx.http, apiKey: config.apiKey, logger },
    {
      url: state.report.url,
      healthCheck: config.healthCheck,
      smokeTest: config.smokeTest,
      smokeTestAssistant: config.smokeTestAssistant,
    },
  );
  state.report.checks = { health: result.health, smoke: result.smoke };
  if (result.error === undefined) return true;
  fail(ctx, result.error);
  return false;
}
