/**
 * `skip-unchanged`: a re-run whose commit is already live requests no new revision.
 *
 * The decision is pure (`skipDecision`); `findLiveRevision` does the two reads it needs. The
 * live revision counts as this run's only when everything a new revision would be built from
 * is the same: the commit (the PR head on pull requests), `repo_ref`, `langgraph_config_path`,
 * and nothing else the run would send with it (`UNSKIPPABLE_INPUTS`; add an input there when
 * it changes what a PATCH builds).
 */
import type { ControlPlane } from '../control-plane/api.js';
import type { Deployment, Revision } from '../control-plane/schemas.js';
import type { Config } from '../config.js';
import { inert, type Logger } from '../runner.js';
import { revisionStatus } from './revision-status.js';

/** What the decision reads from the configuration (a `Config` fits; the last two are optional). */
export type SkipConfig = Pick<
  Config,
  'source' | 'skipUnchanged' | 'repoRef' | 'configPath' | 'secrets' | 'resourceSpec' | 'github'
> & { installCommand?: string | undefined; buildCommand?: string | undefined };

/** Inputs whose value goes into the new revision: when one is given, the run always builds. */
export const UNSKIPPABLE_INPUTS: readonly { input: string; given: (c: SkipConfig) => boolean }[] = [
  { input: 'secrets', given: (c) => c.secrets !== undefined },
  { input: 'resource-spec', given: (c) => c.resourceSpec !== undefined },
  { input: 'install-command', given: (c) => Boolean(c.installCommand) },
  { input: 'build-command', given: (c) => Boolean(c.buildCommand) },
];

export type SkipDecision =
  { skip: true; revisionId: string; commitSha: string } | { skip: false; reason: string };

const HEX_SHA = /^[0-9a-f]{7,64}$/i;

/**
 * A revision status of work still going on: not DEPLOYED, failed, SKIPPED or INTERRUPTED
 * (which is not final, but nothing works on it unless someone resumes it).
 */
export function isInProgress(status: string): boolean {
  return revisionStatus(status).outcome === 'in_progress';
}

/** The commit a new revision would be built from: the PR head on pull requests. */
export function workflowCommit(config: Pick<Config, 'github'>): string {
  return config.github.pullRequest?.headSha || config.github.sha;
}

/**
 * Whether the run can stop before requesting a revision, from what needs no request: the
 * reason it cannot, or undefined when the live revision must be looked at.
 */
export function skipImpossible(config: SkipConfig, found: Deployment): string | undefined {
  if (!config.skipUnchanged) return '`skip-unchanged` is false';
  if (config.source !== 'github') return 'only `github` deployments are compared';
  const given = UNSKIPPABLE_INPUTS.filter((u) => u.given(config)).map((u) => `\`${u.input}\``);
  if (given.length > 0) return `this run sends ${given.join(', ')}`;
  if (!HEX_SHA.test(workflowCommit(config))) return 'the commit of this workflow is unknown';
  if (!found.active_revision_id) return 'the deployment has no live revision';
  return undefined;
}

/**
 * The decision. `active` is the deployment's `active_revision_id` revision; `latest` its
 * `latest_revision_id` revision when that is another one (a newer revision still in progress
 * would replace the live one, so the run does not stop then).
 */
export function skipDecision(
  config: SkipConfig,
  found: Deployment,
  active: Revision | undefined,
  latest?: Revision,
): SkipDecision {
  const impossible = skipImpossible(config, found);
  if (impossible) return { skip: false, reason: impossible };
  if (!active || active.id !== found.active_revision_id) {
    return { skip: false, reason: 'the live revision could not be read' };
  }
  if (revisionStatus(active.status).outcome !== 'deployed')
    return { skip: false, reason: 'the live revision is not DEPLOYED' };
  const live = active.source_revision_config;
  const expected = workflowCommit(config).toLowerCase();
  const built = live.repo_commit_sha ?? '';
  if (!HEX_SHA.test(built)) return { skip: false, reason: 'the live revision reports no commit' };
  if (built.toLowerCase() !== expected) {
    return { skip: false, reason: 'the live revision runs another commit' };
  }
  if ((live.repo_ref ?? '') !== (config.repoRef ?? '')) {
    return { skip: false, reason: 'the live revision was built from another `repo-ref`' };
  }
  if ((live.langgraph_config_path ?? '') !== config.configPath) {
    return { skip: false, reason: 'the live revision was built with another `config-path`' };
  }
  if (found.latest_revision_id && found.latest_revision_id !== active.id) {
    if (!latest || latest.id !== found.latest_revision_id || isInProgress(latest.status)) {
      return { skip: false, reason: 'a newer revision is in progress and would replace it' };
    }
  }
  return { skip: true, revisionId: active.id, commitSha: built };
}

/**
 * Reads what `skipDecision` needs (the live revision, and the latest when it is another one)
 * and decides. A read that fails only means the run builds (logged at debug level). `latest`
 * is the `latest_revision_id` revision when it was read (interrupt-previous needs it next).
 */
export async function findLiveRevision(
  client: ControlPlane,
  config: SkipConfig,
  found: Deployment,
  logger: Logger,
): Promise<{ decision: SkipDecision; latest?: Revision }> {
  const impossible = skipImpossible(config, found);
  if (impossible) return { decision: { skip: false, reason: impossible } };
  const read = (id: string) =>
    client.getRevision(found.id, id).catch((error: unknown) => {
      logger.debug(
        `skip-unchanged: could not read revision ${inert(id)}: ${inert(error instanceof Error ? error.message : error, 300)}`,
      );
      return undefined;
    });
  const active = await read(found.active_revision_id!);
  const latestId = found.latest_revision_id;
  const latest = latestId && latestId !== found.active_revision_id ? await read(latestId) : active;
  const decision = skipDecision(config, found, active, latest);
  return latest && latest.id === latestId ? { decision, latest } : { decision };
}

/** The log line of a skipped build: why, and how to force one. */
export function skippedMessage(
  name: string,
  decision: Extract<SkipDecision, { skip: true }>,
  config: SkipConfig,
): string {
  return (
    `Nothing to build: revision ${inert(decision.revisionId)} of '${inert(name)}' is live ` +
    `(DEPLOYED) and already runs commit ${inert(decision.commitSha.slice(0, 12))} of ` +
    `${inert(config.repoRef ?? '')} with ${inert(config.configPath)}, and this run sends no ` +
    `${UNSKIPPABLE_INPUTS.map((u) => `\`${u.input}\``).join(', ')}. No new revision was ` +
    'requested (skipped-build=true); the checks still run. To build anyway, set ' +
    '`skip-unchanged: false`.'
  );
}
