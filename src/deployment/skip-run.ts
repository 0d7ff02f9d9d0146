/**
 * The `skip-unchanged` steps of `command: deploy` (see skip-unchanged.ts for the decision):
 * read what the decision needs and log why a build is needed, and add the keyed record of the
 * settings to what the write path sends.
 */
import type { Deployment, Revision } from '../api/schemas.js';
import type { ParsedLangGraphConfig } from '../preflight/index.js';
import type { RunContext } from '../commands/context.js';
import { inert } from '../lib/untrusted.js';
import { withRecord } from './settings-record.js';
import { findLiveRevision, workflowCommit, type SkipDecision } from './skip-unchanged.js';
import { readChanges } from '../report/github/compare.js';

type Skip = Extract<SkipDecision, { skip: true }>;

/**
 * `skip-unchanged`: `skip` names the live revision when nothing would change; `latest` is the
 * latest revision when it was read on the way. Why a build is needed is said at info level.
 */
export async function checkUnchanged(
  ctx: RunContext,
  found: Deployment,
  parsed: ParsedLangGraphConfig | undefined,
  sourceDigest: string | undefined,
): Promise<{ skip?: Skip; latest?: Revision } | undefined> {
  const { config } = ctx;
  if (!config.skipUnchanged || config.source === 'external_docker') return undefined;
  const compare = async (base: string, head: string) => {
    const { githubToken: token, github } = config;
    return readChanges({ token, github, base, head, logger: ctx.logger, deadline: ctx.deadline });
  };
  const { decision, latest } = await findLiveRevision(
    ctx.client,
    { ...config, sourceDigest },
    found,
    ctx.logger,
    { configJson: parsed?.json, compare },
  );
  if (decision.skip) return { skip: decision };
  ctx.logger.info(
    `skip-unchanged: a new revision is requested because ${inert(decision.reason, 1500)}.`,
  );
  return latest ? { latest } : {};
}

/**
 * The configuration the write path sends: with `skip-unchanged` and `secrets`, the secrets
 * carry the keyed record of this run's settings (see settings-record.ts), for the next run.
 */
export async function recordSettings(
  ctx: RunContext,
  found: Deployment | undefined,
  sourceDigest: string | undefined,
): Promise<RunContext['config']> {
  const { config } = ctx;
  if (!config.skipUnchanged || config.secrets === undefined) return config;
  if (config.source === 'external_docker') return config;
  const binding =
    config.source === 'upload'
      ? { sourceDigest: sourceDigest ?? '' }
      : { commit: workflowCommit(config).toLowerCase() };
  const secrets = withRecord(config.apiKey, found?.name ?? config.name ?? '', config, binding);
  return secrets ? { ...config, secrets } : config;
}
