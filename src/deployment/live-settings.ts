/**
 * `skip-unchanged` with `secrets`: the keyed record says what the run that wrote it sent, not
 * what is live now. A change made in the LangSmith UI or by another client since (a secret's
 * value, `install_command`…) keeps the record but not the settings, so the record is trusted
 * only while the deployment's own values (the control plane returns them) equal what this run
 * sends (INTERFACE v1.3).
 */
import type { Deployment } from '../api/schemas.js';
import type { DeployConfig } from '../inputs/config.js';
import { ACTION_ENTRIES } from '../inputs/secrets.js';

const COMMANDS = [
  ['installCommand', 'install_command', 'install-command'],
  ['buildCommand', 'build_command', 'build-command'],
] as const;

/** Why the live deployment no longer says what this run sends, or `undefined`. Names only. */
export function liveDrift(
  settings: Pick<DeployConfig, 'secrets' | 'installCommand' | 'buildCommand'>,
  found: Deployment,
): string | undefined {
  const out = 'changed in the LangSmith UI or by another client since this action recorded it';
  if (settings.secrets) {
    const sent = new Map(settings.secrets.map((s) => [s.name, s.value]));
    const live = found.secrets.filter((s) => !ACTION_ENTRIES.has(s.name));
    const differ = [
      ...live.filter((s) => sent.get(s.name) !== s.value).map((s) => s.name),
      ...[...sent.keys()].filter((name) => !live.some((s) => s.name === name)),
    ];
    if (differ.length > 0) {
      return `the live environment differs from \`secrets\` (${differ.join(', ')}): ${out}`;
    }
  }
  for (const [key, field, input] of COMMANDS) {
    const sent = settings[key];
    if (sent && found.source_config[field] !== sent) {
      return `the live \`source_config.${field}\` differs from \`${input}\`: ${out}`;
    }
  }
  return undefined;
}
