/**
 * `skip-unchanged`: a run that would build what is already live requests no new revision. What
 * must be the same, and why the keyed record lives in the deployment's environment: the
 * README's "Skip unchanged" section.
 *
 * The record, `RECORD_NAME` sent with the secrets (`secretsToSend`), is `v1:` and an
 * HMAC-SHA-256 of the canonical form of the four recorded inputs and of what the revision is
 * built from (the commit, or the archive's SHA-256 and storage path), keyed by HKDF-SHA-256 of
 * the API key and the deployment's name: only a holder of the API key can compute or check it.
 */
import type { ControlPlane } from '../api/client.js';
import type { Deployment, Revision } from '../api/schemas.js';
import type { DeployConfig } from '../inputs/config.js';
import { ACTION_ENTRIES, RECORD_NAME } from '../inputs/secrets.js';
import type { ParsedLangGraphConfig } from '../preflight/index.js';
import type { GithubRun } from '../github/octokit.js';
import { readChanges, type Comparison } from '../github/reads.js';
import { inert } from '../lib/untrusted.js';
import { byKey, canonicalJson, errorMessage, keyedValue, VERSION } from '../lib/text.js';
import { agentChange, jsBuildPaths } from './agent-files.js';
import { liveDrift } from './live-settings.js';
import { revisionStatus } from './revision-status.js';

const INFO = 'langgraph-deploy-action/skip-unchanged/v1';

/** The inputs the record covers (their values go into the revision), and their `Config` keys. */
export const UNSKIPPABLE_INPUTS = [
  { input: 'secrets', key: 'secrets' },
  { input: 'resource-spec', key: 'resourceSpec' },
  { input: 'install-command', key: 'installCommand' },
  { input: 'build-command', key: 'buildCommand' },
] as const;

/** What a new revision would be built with, as far as the record covers it. */
export type RecordedSettings = Pick<DeployConfig, (typeof UNSKIPPABLE_INPUTS)[number]['key']>;

/**
 * What the revision is built from: `github` the commit (lowercase hex), `upload` the
 * archive's SHA-256 and the object path it was uploaded to (each upload gets its own, so a
 * later upload live under the same record is told apart), `internal_docker` the image pinned
 * by digest.
 */
export type RecordBinding =
  { commit: string } | { sourceDigest: string; objectPath: string } | { image: string };

/**
 * The record's value: `v1:` and the base64url HMAC of the canonical text of the settings and the
 * binding (see above; the record entry itself is never part of it).
 */
export function recordValue(
  apiKey: string,
  deploymentName: string,
  settings: RecordedSettings,
  binding: RecordBinding,
): string {
  const secrets = (settings.secrets ?? [])
    .filter((s) => !ACTION_ENTRIES.has(s.name))
    .map((s) => [s.name, s.value] as const)
    .sort(byKey);
  const canonical = canonicalJson({
    binding: 'commit' in binding ? { commit: binding.commit.toLowerCase() } : binding,
    secrets: settings.secrets === undefined ? null : secrets,
    resourceSpec: settings.resourceSpec ?? null,
    installCommand: settings.installCommand || null,
    buildCommand: settings.buildCommand || null,
  });
  return keyedValue(apiKey, deploymentName, INFO, canonical);
}

/**
 * The secrets a run sends, with the record appended (any earlier record left out). Only when
 * the run sends secrets: a sent list replaces the deployment's environment whole, so the
 * record never travels alone.
 */
export function withRecord(
  apiKey: string,
  deploymentName: string,
  settings: RecordedSettings,
  binding: RecordBinding,
): DeployConfig['secrets'] {
  if (settings.secrets === undefined) return undefined;
  return [
    ...settings.secrets.filter((s) => s.name !== RECORD_NAME),
    { name: RECORD_NAME, value: recordValue(apiKey, deploymentName, settings, binding) },
  ];
}

/** Which of the four inputs this run sends (backticked input names; an empty command is none). */
export function sentSettings(settings: RecordedSettings): string[] {
  return UNSKIPPABLE_INPUTS.filter((u) => Boolean(settings[u.key])).map((u) => `\`${u.input}\``);
}

/**
 * Why the record does not prove that the live revision was built with the settings this run
 * sends (with `secrets`, which carry the record), or `undefined` when it does. `environment`
 * is the deployment's `secrets` as the control plane returns them (`undefined` when it returned
 * none); `binding` what the live revision is built from.
 */
export function recordMismatch(
  apiKey: string,
  deploymentName: string,
  settings: RecordedSettings,
  environment: readonly { name: string; value?: unknown }[] | undefined,
  binding: RecordBinding,
): string | undefined {
  const what = sentSettings(settings).join(', ');
  const records = (environment ?? []).filter((e) => e.name === RECORD_NAME);
  if (records.length === 0) {
    return `this run sends ${what}, and the deployment holds no record of this action to compare them with (built by another tool or before this version)`;
  }
  const recorded = records.length === 1 ? records[0]!.value : undefined;
  if (typeof recorded !== 'string' || !recorded.startsWith(`${VERSION}:`)) {
    return `this run sends ${what}, and the platform did not return a readable record of the live settings`;
  }
  if (recorded !== recordValue(apiKey, deploymentName, settings, binding)) {
    return (
      `${what} differ from what the live revision was built with (or the live revision was ` +
      'built from other code than the record names, or with another API key)'
    );
  }
  return undefined;
}

/** What the decision reads from the configuration (`apiKey` keys the record, never logged). */
export type SkipConfig = RecordedSettings &
  Pick<
    DeployConfig,
    'source' | 'skipUnchanged' | 'repoRef' | 'configPath' | 'github' | 'imageUri' | 'apiKey'
  >;

export type SkipDecision =
  | {
      skip: true;
      revisionId: string;
      commitSha: string;
      /** Why the build is not needed beyond "same commit": one clause each. */
      because?: string[];
      /** The live revision runs another commit (whose change does not touch the agent). */
      otherCommit?: boolean;
    }
  | {
      skip: false;
      reason: string;
      /** Set when GitHub's compare of these commits could still allow the skip. */
      compare?: { base: string; head: string };
    };
type Skip = Extract<SkipDecision, { skip: true }>;

/** What the decision needs beyond the deployment and its revisions. */
export interface SkipEvidence {
  /** The parsed config of this checkout; `undefined` when there is no checkout. */
  configJson?: unknown;
  /** `upload`: the SHA-256 of this run's archive. */
  sourceDigest?: string | undefined;
  /** GitHub's compare of the live commit with this one, once read. */
  changes?: Comparison;
  /** What a JS agent in a monorepo is built from besides its folder (`jsBuildPaths`, agent-files.ts). */
  buildPaths?: ReturnType<typeof jsBuildPaths>;
}

const HEX_SHA = /^[0-9a-f]{7,64}$/i;
const build = (reason: string): SkipDecision => ({ skip: false, reason });

/** The commit a new revision would be built from: the PR head on pull requests. */
export function workflowCommit(config: Pick<DeployConfig, 'github'>): string {
  return config.github.pullRequest?.headSha || config.github.sha;
}

/** What a revision is built from, as the record binds it: the archive and its path, or `commit`. */
function bindingOf(config: SkipConfig, commit: string, sourceDigest = '', objectPath = '') {
  if (config.source === 'internal_docker') return { image: config.imageUri ?? '' };
  return config.source === 'upload' ? { sourceDigest, objectPath } : { commit };
}

/**
 * Whether the run can stop before requesting a revision, from what needs no request: the
 * reason it cannot, or undefined when the live revision must be looked at.
 */
function skipImpossible(config: SkipConfig, found: Deployment): string | undefined {
  if (!config.skipUnchanged) return '`skip-unchanged` is false';
  if (config.source === 'external_docker') {
    return 'only `github`, `upload` and `internal_docker` deployments are compared';
  }
  if (config.source === 'upload' && config.secrets === undefined) {
    return 'with `source: upload` the archive of the live revision is recorded only by runs that send `secrets`';
  }
  const sent = sentSettings(config);
  if (sent.length > 0 && config.secrets === undefined) {
    return `this run sends ${sent.join(', ')} without \`secrets\`, and only a run that sends \`secrets\` leaves a record of its settings to compare with`;
  }
  if (config.source === 'github' && !HEX_SHA.test(workflowCommit(config))) {
    return 'the commit of this workflow is unknown';
  }
  if (!found.active_revision_id) return 'the deployment has no live revision';
  return undefined;
}

/**
 * The decision, pure. `active` is the deployment's `active_revision_id` revision; `latest` its
 * `latest_revision_id` revision when that is another one (a newer revision still in progress
 * would replace the live one, so the run does not stop then).
 */
export function skipDecision(
  config: SkipConfig,
  found: Deployment,
  active: Revision | undefined,
  latest?: Revision,
  evidence: SkipEvidence = {},
): SkipDecision {
  const impossible = skipImpossible(config, found);
  if (impossible) return build(impossible);
  if (!active || active.id !== found.active_revision_id) {
    return build('the live revision could not be read');
  }
  if (revisionStatus(active.status).outcome !== 'deployed') {
    return build('the live revision is not DEPLOYED');
  }
  const live = active.source_revision_config;
  // Images pinned by digest (`repo@sha256:…`): equal text is the same image. An upload builds while
  // an image is live, whatever record an earlier upload left (an image deploy keeps it).
  const image = config.source === 'internal_docker' ? config.imageUri : '';
  const images = [config.source, found.source].includes('internal_docker');
  if (images && (live.image_uri ?? '') !== image) {
    return build('the live revision runs another image (or another digest) than this run deploys');
  }
  const built = config.source === 'github' ? (live.repo_commit_sha ?? '') : '';
  // Read loosely: a field the answers' schema does not type, so an answer is never refused for it.
  const tarball = typeof live.source_tarball_path === 'string' ? live.source_tarball_path : '';
  if (config.source === 'upload' && !tarball) {
    return build('the live revision reports no uploaded archive (`source_tarball_path`)');
  }
  if (config.source === 'github') {
    if (!HEX_SHA.test(built)) return build('the live revision reports no commit');
    if ((live.repo_ref ?? '') !== (config.repoRef ?? '')) {
      return build('the live revision was built from another `repo-ref`');
    }
    if ((live.langgraph_config_path ?? '') !== config.configPath) {
      return build('the live revision was built with another `config-path`');
    }
  }
  const newer = found.latest_revision_id && found.latest_revision_id !== active.id;
  const replaced = !latest || latest.id !== found.latest_revision_id;
  if (newer && (replaced || revisionStatus(latest.status).outcome === 'in_progress')) {
    return build('a newer revision is in progress and would replace it');
  }
  const because: string[] = [];
  // `secrets` is among the settings sent, always with `source: upload` (skipImpossible).
  const sent = sentSettings(config);
  if (sent.length > 0) {
    // The record is the deployment's: it speaks for the live revision only when it is the latest.
    if (newer) {
      return build(
        `a later revision (${inert(found.latest_revision_id)}, ${inert(latest?.status ?? '')}) replaced the record of the live revision's settings`,
      );
    }
    const binding = bindingOf(config, built, evidence.sourceDigest, tarball);
    const differs = recordMismatch(config.apiKey, found.name, config, found.secrets, binding);
    if (differs) {
      return build(
        config.source === 'upload'
          ? `${differs}; with \`source: upload\` the record also covers the archive (\`source-digest\`) and where it was uploaded (the live revision's \`source_tarball_path\`)`
          : differs,
      );
    }
    const drift = liveDrift(config, found);
    if (drift) return build(drift);
    if (config.source === 'upload') because.push('the same archive (`source-digest`)');
    because.push(`the same ${sent.join(', ')} (keyed record)`);
  }
  const expected = workflowCommit(config).toLowerCase();
  // `built` is empty unless the source is `github`: other sources skip here.
  if (config.source !== 'github' || built.toLowerCase() === expected) {
    return { skip: true, revisionId: active.id, commitSha: built, because };
  }
  // The live revision runs another commit: skip only when no agent file changed since.
  const runs = `the live revision runs commit ${built.slice(0, 12)}`;
  if (!evidence.changes) {
    return {
      skip: false,
      reason: `${runs}, not this one`,
      compare: { base: built.toLowerCase(), head: expected },
    };
  }
  if ('unreadable' in evidence.changes) {
    return build(`${runs}, and the change since cannot be read: ${evidence.changes.unreadable}`);
  }
  const { files } = evidence.changes;
  const { configJson, buildPaths } = evidence;
  const change = agentChange(config.configPath, configJson, files, built, expected, buildPaths);
  if ('build' in change) return build(change.build);
  because.unshift(change.because);
  return { skip: true, revisionId: active.id, commitSha: built, because, otherCommit: true };
}

/**
 * The step: reads what `skipDecision` needs and decides; `skip` names the live revision when
 * nothing would change, and `latest` is the `latest_revision_id` revision when it was read on
 * the way (interrupt-previous needs it). Why a build is needed is said at info level. A read
 * that fails only means the run builds; GitHub's compare of two commits (`compare`) is read
 * only when it could allow the skip.
 */
export async function checkUnchanged(
  ctx: GithubRun & { config: DeployConfig; client: Pick<ControlPlane, 'getRevision'> },
  found: Deployment,
  parsed: ParsedLangGraphConfig | undefined,
  sourceDigest: string | undefined,
  compare = (base: string, head: string): Promise<Comparison> => readChanges(ctx, base, head),
): Promise<{ skip?: Skip; latest?: Revision }> {
  const { config } = ctx;
  if (!config.skipUnchanged || config.source === 'external_docker') return {};
  const read = (id: string) =>
    ctx.client.getRevision(found.id, id).catch((error: unknown) => {
      ctx.logger.debug(
        `skip-unchanged: could not read revision ${inert(id)}: ${inert(errorMessage(error), 300)}`,
      );
      return undefined;
    });
  const latestId = found.latest_revision_id;
  let active: Revision | undefined;
  let latest: Revision | undefined;
  if (!skipImpossible(config, found)) {
    active = await read(found.active_revision_id!);
    latest = latestId && latestId !== found.active_revision_id ? await read(latestId) : active;
  }
  const evidence: SkipEvidence = { configJson: parsed?.json, sourceDigest };
  let decision = skipDecision(config, found, active, latest, evidence);
  if (!decision.skip && decision.compare) {
    evidence.changes = await compare(decision.compare.base, decision.compare.head);
    evidence.buildPaths = jsBuildPaths(config, parsed?.json);
    decision = skipDecision(config, found, active, latest, evidence);
  }
  if (latest?.id !== latestId) latest = undefined;
  if (decision.skip) return { skip: decision, latest };
  ctx.logger.info(
    `skip-unchanged: a new revision is requested because ${inert(decision.reason, 1500)}.`,
  );
  return { latest };
}

/**
 * The secrets the write path sends: with `skip-unchanged` and `secrets`, they carry the keyed
 * record of this run's settings, for the next run (the `secrets` input as it is otherwise).
 */
export function secretsToSend(
  config: DeployConfig,
  found: Deployment | undefined,
  sourceDigest: string | undefined,
  objectPath?: string,
): DeployConfig['secrets'] {
  const { secrets, skipUnchanged, source } = config;
  if (!skipUnchanged || secrets === undefined || source === 'external_docker') return secrets;
  const binding = bindingOf(config, workflowCommit(config), sourceDigest, objectPath);
  return withRecord(config.apiKey, found?.name ?? config.name ?? '', config, binding);
}

/** The log line of a skipped build: why, and how to force one. */
export function skippedMessage(name: string, decision: Skip, config: SkipConfig): string {
  const live = `revision ${inert(decision.revisionId)} of '${inert(name)}' is live (DEPLOYED)`;
  const what =
    config.source === 'upload'
      ? ''
      : config.source === 'internal_docker'
        ? ` and already runs image ${inert(config.imageUri ?? '')}`
        : ` and ${decision.otherCommit ? '' : 'already '}runs commit ` +
          `${inert(decision.commitSha.slice(0, 12))} of ${inert(config.repoRef ?? '')} with ` +
          inert(config.configPath);
  const reasons = (decision.because ?? []).map((b) => inert(b, 1500));
  if (sentSettings(config).length === 0) {
    reasons.push(`this run sends no ${UNSKIPPABLE_INPUTS.map((u) => `\`${u.input}\``).join(', ')}`);
  }
  return (
    `Nothing to build: ${live}${what}; ${reasons.join('; ')}. No new revision was ` +
    'requested (skipped-build=true); the checks still run. To build anyway, set ' +
    '`skip-unchanged: false`.'
  );
}
