/**
 * The deploy command's own checks: the pre-flight (what can be known without the platform),
 * the environment once the lookup answered, and the commit the platform built.
 */
import type { Deployment } from '../api/schemas.js';
import { type RunContext } from '../commands/context.js';
import {
  checkEnvReferences,
  checkImageUri,
  preflightConfig,
  reportFindings,
  type Finding,
  type ParsedLangGraphConfig,
} from '../preflight/index.js';

/** Pre-flight checks. Returns the parsed LangGraph config, undefined, or false on errors. */
export function preflight(ctx: RunContext): ParsedLangGraphConfig | undefined | false {
  const { config } = ctx;
  if (config.source === 'external_docker') {
    return annotateFindings(ctx, checkImageUri(config.imageUri ?? '')) ? undefined : false;
  }
  const result = preflightConfig({
    workspace: config.github.workspace,
    configPath: config.configPath,
    secretNames: config.secrets?.map((s) => s.name),
  });
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

/**
 * The variable check that needs the lookup: with an empty `secrets` input a create sends no
 * environment, and an update keeps the deployment's.
 */
export function checkEnvironmentAfterLookup(
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
export function annotateFindings(ctx: RunContext, findings: Finding[]): boolean {
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

export function checkCommit(ctx: RunContext, built: string | undefined): void {
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
