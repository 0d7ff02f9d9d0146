/**
 * `command: deploy`: pre-flight checks, find, create or update, follow this run's revision,
 * verify the agent server, report.
 */
import type { Deployment } from '../api/schemas.js';
import { revisionStatus } from '../deployment/revision-status.js';
import { findTarget, interruptPrevious } from '../deployment/target.js';
import { checkSameKind, upsert } from '../deployment/upsert.js';
import { pinImage } from '../deployment/image.js';
import { upsertFromUpload } from '../deployment/upload/upload.js';
import { ActionError, CancelledError } from '../lib/errors.js';
import {
  checkEnvReferences,
  checkImageUri,
  preflightConfig,
  reportFindings,
  type Finding,
} from '../preflight/index.js';
import {
  fail,
  finish,
  follow,
  notWaiting,
  setDeploymentOutputs,
  setStatus,
  setUrl,
  showLogTail,
  startGithubDeployment,
  type RunContext,
} from './context.js';
import type { DeployConfig } from '../inputs/config.js';
import type { GithubDeployment } from '../github/side-effects.js';
import { inert } from '../lib/untrusted.js';
import { prepareSourceArchive, type SourceArchive } from '../deployment/upload/archive.js';
import { rollBackAfterFailedChecks } from './rollback.js';
import { verifyDeployment } from '../verify/index.js';
import { evaluate } from '../verify/eval/index.js';
import { BuildLogStream } from '../deployment/logs.js';
import { checkUnchanged, secretsToSend, skippedMessage } from '../deployment/skip-unchanged.js';

type DeployContext = RunContext<DeployConfig>;

export async function runDeploy(ctx: DeployContext): Promise<number> {
  const { config, client, logger, state } = ctx;
  const report = state.report;
  report.name = config.name;
  report.source =
    config.source === 'github'
      ? { kind: 'github', repoUrl: config.repoUrl, repoRef: config.repoRef }
      : config.source === 'upload'
        ? { kind: 'upload' }
        : { kind: config.source, imageUri: config.imageUri };

  // 1. Pre-flight: what can be known without the platform.
  const parsed = preflight(ctx);
  if (parsed === false) return finish(ctx, 'failure');
  // `source: upload`: the archive of the same files, built (and size-checked) before any request.
  let sourceArchive: SourceArchive | undefined;
  if (config.source === 'upload') {
    sourceArchive = await prepareSourceArchive(ctx, parsed);
    report.source = { kind: 'upload', digest: sourceArchive.sha256 };
    ctx.output('source-digest', sourceArchive.sha256);
  }

  // 2. Find the deployment, then the checks that depend on what was found.
  const found = await findTarget(ctx);
  if (found) ctx.output('name', found.name);
  if (config.source === 'internal_docker') {
    if (!found) {
      throw new ActionError(
        `No deployment named '${config.name}' exists. \`source: internal_docker\` deploys an ` +
          'image pushed to the registry of its deployment: run `command: registry-login` with ' +
          'this `name` first (it creates the deployment), then push, then deploy.',
        'Deployment not found',
      );
    }
    // From here on the revision, the skip and the reports use the image pinned by digest.
    ctx = { ...ctx, config: { ...config, imageUri: await pinImage(ctx, found, config.imageUri!) } };
    report.source = { kind: 'internal_docker', imageUri: ctx.config.imageUri };
  }
  // With an empty `secrets` input, a create sends no environment and an update keeps the deployment's.
  if (parsed && config.secrets === undefined) {
    const names = found?.secrets.map((s) => s.name) ?? [];
    const findings = checkEnvReferences(parsed, names, {
      source: found ? 'deployment' : 'secrets',
    });
    if (!annotateFindings(ctx, findings)) return finish(ctx, 'failure');
  }
  // `rollback-on-failure`: the revision to serve again, remembered before the PATCH.
  const previousRevisionId = found?.active_revision_id ?? undefined;

  // 3. Already live (skip-unchanged)? Else create or update; outputs as soon as the IDs are known.
  // Nothing touches a deployment of another kind (upsert checks again for a late create).
  if (found) {
    checkSameKind(config, found);
    const unchanged = await checkUnchanged(ctx, found, parsed || undefined, sourceArchive?.sha256);
    if (unchanged.skip) {
      // No new revision: the outputs name the live one, and the checks run against it.
      const { skip } = unchanged;
      setDeploymentOutputs(ctx, found, { revisionId: skip.revisionId, created: false });
      ctx.output('skipped-build', true);
      logger.info(skippedMessage(found.name, skip, ctx.config));
      report.timeline.push({ status: 'DEPLOYED', at: ctx.clock.now() });
      setStatus(ctx, 'DEPLOYED');
      // With `otherCommit` the live commit is another one on purpose: no warning that it was built.
      checkCommit(ctx, skip.commitSha || undefined, !skip.otherCommit);
      if (!config.wait) return finish(ctx, 'started');
      return finishDeployed(ctx, found, await startGithubDeployment(ctx));
    }
    if (config.interruptPrevious) await interruptPrevious(client, found, logger, unchanged.latest);
  }
  const secrets = secretsToSend(ctx.config, found, sourceArchive?.sha256);
  // The upload path creates first and uploads after: the IDs go out as soon as they exist.
  const onCreated = (made: Deployment, created: boolean) => {
    setDeploymentOutputs(ctx, made);
    ctx.output('created', created);
  };
  const upserted = await (config.source === 'upload' ? upsertFromUpload : upsert)(
    { ...ctx, config: { ...ctx.config, secrets }, sourceArchive, onCreated },
    found,
  );
  const { deployment, revisionId, created } = upserted;
  setDeploymentOutputs(ctx, deployment, { revisionId, created });
  ctx.output('skipped-build', false);
  logger.info(
    `${created ? 'Created' : 'Updated'} deployment '${inert(deployment.name)}' (${inert(deployment.id)}); ` +
      `following revision ${revisionId}. ${report.uiUrl ?? ''}`.trim(),
  );
  if (created && config.rollbackOnFailure) {
    logger.notice(
      '`rollback-on-failure`: this run created the deployment, so there is no earlier revision ' +
        'to roll back to if its checks fail.',
    );
  }

  if (!config.wait) {
    const revision = upserted.revision ?? (await client.getRevision(deployment.id, revisionId));
    if (config.environment) {
      logger.notice(
        'No GitHub deployment was created because `wait` is false: the action does not know when the revision is live.',
      );
    }
    return notWaiting(ctx, revisionId, revision.status);
  }

  // 4. Follow this run's own revision.
  const ghDeployment = await startGithubDeployment(ctx);
  const stream =
    config.buildLog === 'stream'
      ? new BuildLogStream({ client, deploymentId: deployment.id, revisionId, logger })
      : undefined;
  const waited = await follow(ctx, deployment.id, revisionId, {
    onStatus: (change) => {
      report.timeline.push(change);
      setStatus(ctx, change.status);
    },
    ...(stream ? { onPoll: (status: string) => stream.onPoll(status) } : {}),
    ...(upserted.revision ? { initial: upserted.revision } : {}),
  }).catch(async (error: unknown) => {
    await stream?.settle();
    await ghDeployment?.setStatus('failure', {
      description: 'The revision did not finish in time',
    });
    throw error;
  });
  await stream?.finish();
  checkCommit(ctx, waited.revision.source_revision_config.repo_commit_sha ?? undefined);

  // The URL is read from the deployment once the revision is live (github sets it then).
  setUrl(ctx, await client.getDeployment(deployment.id).catch(() => deployment));

  report.statusMessage = waited.revision.status_message?.trim() || undefined;
  if (waited.outcome === 'failed') {
    if (config.buildLog !== 'off') {
      await showLogTail(ctx, deployment.id, revisionId, waited.status, Boolean(stream?.printed));
    }
    await ghDeployment?.setStatus('failure', { description: `Revision ${inert(waited.status)}` });
    const failure = revisionFailure(ctx, deployment.name, revisionId, waited.status);
    if (config.rollbackOnFailure && previousRevisionId) {
      failure.message += ` No rollback needed: revision ${inert(previousRevisionId, 100)}, live before this run, still serves.`;
    }
    throw failure; // the flow reports it
  }
  if (waited.outcome === 'skipped') {
    logger.warning(
      `Revision ${revisionId} was SKIPPED: a newer revision of '${inert(deployment.name)}' superseded it ` +
        '(another push or run). Nothing was verified, since the serving revision is not this run’s.',
      { title: 'Revision superseded' },
    );
    await ghDeployment?.setStatus('inactive', { description: 'Superseded by a newer revision' });
    return finish(ctx, 'skipped');
  }

  // 5. DEPLOYED: does the agent server answer?
  return finishDeployed(ctx, deployment, ghDeployment, { revisionId, previousRevisionId });
}

/**
 * The live revision is DEPLOYED: health check, smoke run and tests, then the reports. The
 * checks give one verdict, so that any failure among them can trigger `rollback-on-failure`:
 * with a revision this run requested, a failed check serves the revision live before again.
 */
async function finishDeployed(
  ctx: DeployContext,
  deployment: Deployment,
  ghDeployment: GithubDeployment | undefined,
  requested?: { revisionId: string; previousRevisionId: string | undefined },
): Promise<number> {
  const { config, state } = ctx;
  const report = state.report;
  const result = await verifyDeployment(ctx, { ...config, url: report.url });
  report.checks = { health: result.health, smoke: result.smoke, tests: result.tests };
  if (result.testsResult) {
    report.tests = result.testsResult.cases;
    ctx.output('tests-passed', String(result.testsResult.passed));
    ctx.output('tests-failed', String(result.testsResult.failed));
  }
  const evaluated =
    result.error === undefined ? await evaluateDeployment(ctx, deployment) : undefined;
  const failure = result.error ?? evaluated?.failure;
  if (failure !== undefined) {
    if (config.rollbackOnFailure && requested && evaluated?.rollback !== false) {
      return rollBackAfterFailedChecks(ctx, deployment, ghDeployment, requested, failure);
    }
    fail(ctx, failure);
    await ghDeployment?.setStatus('failure', { description: 'Post-deploy checks failed' });
    return finish(ctx, 'failure');
  }
  // ui-url: a page a reviewer can open (the agent server's URL answers 401 in a browser).
  await ghDeployment?.setStatus('success', {
    environmentUrl: report.uiUrl,
    description: 'Deployed',
  });
  ctx.logger.info(
    `Deployment '${inert(deployment.name)}' is live${report.url ? ` at ${report.url}` : ''}.`,
  );
  return finish(ctx, 'success');
}

/** The failure of a revision: its status, the platform's message (`statusMessage`), what to do. */
function revisionFailure(ctx: DeployContext, name: string, revisionId: string, status: string) {
  const report = ctx.state.report;
  const said = report.statusMessage
    ? ` The platform says: ${inert(report.statusMessage, 500).replace(/[.!\s]+$/, '')}.`
    : '';
  // A failure no log explains: a person or a newer run stopped it (INTERRUPTED).
  if (!revisionStatus(status).log) {
    return new ActionError(
      `Revision ${inert(revisionId)} of deployment '${inert(name)}' stayed INTERRUPTED (for 5 minutes, or until the timeout): ` +
        'a person stopped it in LangSmith, or a newer run of this workflow interrupted it to ' +
        `deploy a newer commit.${said} It may still go on on the platform, and it no longer ` +
        'blocks later revisions. If no newer run is deploying, re-run this job to deploy this commit' +
        (report.uiUrl ? ` (the deployment: ${report.uiUrl}).` : '.'),
      'Revision interrupted',
    );
  }
  const where = report.logTail?.length
    ? ' The end of its log is above (and in the step summary).'
    : ctx.config.buildLog === 'off'
      ? ` The build and deploy logs are in LangSmith${report.uiUrl ? ` (${report.uiUrl})` : ''} (input \`build-log\` is off).`
      : report.logsUnavailableHint
        ? ` ${report.logsUnavailableHint}`
        : '';
  return new ActionError(
    `Revision ${inert(revisionId)} of deployment '${inert(name)}' ended in ${inert(status, 80)}.${said}${where}` +
      ' Fix the cause and push again.',
    `Deployment ${inert(status, 80)}`,
  );
}

/** Pre-flight checks. Returns the parsed LangGraph config, undefined, or false on errors. */
function preflight(ctx: DeployContext) {
  const { config } = ctx;
  if (config.source === 'external_docker' || config.source === 'internal_docker') {
    return annotateFindings(ctx, checkImageUri(config.imageUri ?? '')) ? undefined : false;
  }
  const result = preflightConfig(config);
  if (config.source === 'upload' && result.skipped !== undefined) {
    // Nothing to upload without the config: an error, not a skipped check.
    result.findings = result.findings.map((f) => ({
      ...f,
      level: 'error',
      message:
        `\`source: upload\` sends the files of this checkout, and ${config.configPath} (input ` +
        '`config-path`) is not among them. Add actions/checkout before this step, or fix `config-path`.',
    }));
  }
  return annotateFindings(ctx, result.findings) ? result.parsed : false;
}

/** Annotates findings; true when none is an error. */
function annotateFindings(ctx: DeployContext, findings: Finding[]): boolean {
  const failed = reportFindings(ctx.logger, findings);
  if (failed) {
    const report = ctx.state.report;
    const errors = findings.filter((f) => f.level === 'error');
    (report.preflightErrors ??= []).push(...errors.map(({ level: _level, ...entry }) => entry));
    const count = report.preflightErrors.length;
    report.error =
      `Pre-flight checks failed with ${count} error${count === 1 ? '' : 's'} (listed below and ` +
      'as annotations): no deployment was created or changed. Fix them and push again.';
  }
  return !failed;
}

/** The commit the platform built, as output and in the report; `warn`: if not this run's. */
function checkCommit(ctx: DeployContext, built: string | undefined, warn = true): void {
  if (!built) return;
  ctx.output('commit-sha', built);
  ctx.state.report.commitSha = built;
  const expected = ctx.config.github.pullRequest?.headSha ?? ctx.config.github.sha;
  if (warn && expected && built.toLowerCase() !== expected.toLowerCase()) {
    ctx.logger.warning(
      `The platform built commit ${built.slice(0, 12)}, but this workflow runs for ${expected.slice(0, 12)}: ` +
        'the branch has moved on since. The deployed code may not be the code of this run.',
      { title: 'Another commit was built' },
    );
  }
}

/**
 * The evaluation (`eval-dataset`), once the revision is live and its checks passed: the step
 * (`verify/eval/`), its outputs and its record. A failed gate comes back as a failed check
 * (`rollback-on-failure` applies); an evaluation that could not run fails the step without a
 * rollback, since the revision itself did nothing wrong.
 */
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
