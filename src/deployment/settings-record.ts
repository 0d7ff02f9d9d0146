/**
 * `skip-unchanged` with settings: proof that a run sends the same `secrets`, `resource-spec`,
 * `install-command` and `build-command` as the live revision was built with, without storing
 * anything a reader could reverse or test guesses against.
 *
 * Each run that sends secrets also sends one more environment entry, `RECORD_NAME`, whose value
 * is an HMAC-SHA-256 of the canonical form of those four inputs and of what the revision is
 * built from (the commit for `github`, the archive's SHA-256 for `upload`). The key is derived
 * (HKDF-SHA-256) from the API key and the deployment's name: only a holder of the API key can
 * compute or check it. The next run reads the entry back from `GET /v2/deployments/{id}`
 * (`secrets`, as LangChain's Terraform provider reads it) and recomputes it for the live
 * revision's commit (or archive): equal means the same settings built that very code.
 *
 * Pure apart from the hash functions: no request, no logging.
 */
import { createHmac, hkdfSync } from 'node:crypto';
import type { Config } from '../inputs/config.js';
import { RECORD_NAME } from '../inputs/secrets.js';

const VERSION = 'v1';
const INFO = 'langgraph-deploy-action/skip-unchanged/v1';

/** What a new revision would be built with, as far as the record covers it. */
export type RecordedSettings = Pick<
  Config,
  'secrets' | 'resourceSpec' | 'installCommand' | 'buildCommand'
>;

/** The inputs the record covers (their values go into the revision); `given`: a run sends it. */
export const UNSKIPPABLE_INPUTS: readonly {
  input: string;
  given: (settings: RecordedSettings) => boolean;
}[] = [
  { input: 'secrets', given: (s) => s.secrets !== undefined },
  { input: 'resource-spec', given: (s) => s.resourceSpec !== undefined },
  { input: 'install-command', given: (s) => Boolean(s.installCommand) },
  { input: 'build-command', given: (s) => Boolean(s.buildCommand) },
];

/**
 * What the revision is built from: `github` the commit (lowercase hex), `upload` the
 * archive's SHA-256.
 */
export type RecordBinding = { commit: string } | { sourceDigest: string };

const byKey = ([a]: readonly [string, unknown], [b]: readonly [string, unknown]) =>
  a < b ? -1 : a > b ? 1 : 0;

/** JSON with object keys sorted at every depth: one text for one value. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(byKey);
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** The canonical text the HMAC covers (the record entry itself is never part of it). */
export function canonicalSettings(settings: RecordedSettings, binding: RecordBinding): string {
  const secrets = (settings.secrets ?? [])
    .filter((s) => s.name !== RECORD_NAME)
    .map((s) => [s.name, s.value] as const)
    .sort(byKey);
  return canonicalJson({
    binding: 'commit' in binding ? { commit: binding.commit.toLowerCase() } : binding,
    secrets: settings.secrets === undefined ? null : secrets,
    resourceSpec: settings.resourceSpec ?? null,
    installCommand: settings.installCommand || null,
    buildCommand: settings.buildCommand || null,
  });
}

/**
 * The record's value: `v1:` and the base64url HMAC-SHA-256 of the canonical settings, keyed
 * with HKDF-SHA-256 of the API key, salted with the deployment's name.
 */
export function recordValue(
  apiKey: string,
  deploymentName: string,
  settings: RecordedSettings,
  binding: RecordBinding,
): string {
  const key = Buffer.from(hkdfSync('sha256', apiKey, `deployment:${deploymentName}`, INFO, 32));
  const mac = createHmac('sha256', key).update(canonicalSettings(settings, binding)).digest();
  return `${VERSION}:${mac.toString('base64url')}`;
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
): Config['secrets'] {
  if (settings.secrets === undefined) return undefined;
  const own = settings.secrets.filter((s) => s.name !== RECORD_NAME);
  return [
    ...own,
    { name: RECORD_NAME, value: recordValue(apiKey, deploymentName, settings, binding) },
  ];
}

/** Which of the four inputs this run sends (backticked input names). */
export function sentSettings(settings: RecordedSettings): string[] {
  return UNSKIPPABLE_INPUTS.filter((u) => u.given(settings)).map((u) => `\`${u.input}\``);
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
