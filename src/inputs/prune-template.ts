/**
 * The `name` template of `command: prune` (e.g. `my-agent-pr-{pr}`): exactly one `{pr}`, the
 * rest under the platform's name rule. A deployment matches when its whole name is the
 * template with a pull-request number (digits, no leading zero) in place of `{pr}`.
 */

const PR_PLACEHOLDER = '{pr}';

/** PR numbers are positive integers; ten digits is far beyond any repository's count. */
const PR_NUMBER = /^[1-9][0-9]{0,9}$/;

export interface NameTemplate {
  /** As given, e.g. `my-agent-pr-{pr}`. */
  template: string;
  /** The literal text before `{pr}`. */
  prefix: string;
  /** The literal text after `{pr}`. */
  suffix: string;
}

/** The template, or the problem with it (a message naming the `name` input). */
export function parseNameTemplate(
  raw: string,
): { ok: true; value: NameTemplate } | { ok: false; message: string } {
  const count = raw.split(PR_PLACEHOLDER).length - 1;
  const [prefix = '', suffix = ''] = raw.split(PR_PLACEHOLDER);
  const example = 'e.g. `name: my-agent-pr-{pr}`';
  const message =
    count === 0
      ? `Input \`name\` is "${raw}", which has no \`{pr}\`: \`command: prune\` needs a template ` +
        `that says where the pull-request number goes in the preview names, ${example} (the ` +
        'same pattern as the `name` of the preview workflow, with `{pr}` for the number).'
      : count > 1
        ? `Input \`name\` is "${raw}", which holds \`{pr}\` ${count} times: give it exactly once, ` +
          `${example}.`
        : !/^[a-z0-9-]*$/.test(prefix + suffix)
          ? `Input \`name\` is "${raw}": apart from \`{pr}\`, a name template may hold only ` +
            `lowercase letters, digits and hyphens (the platform's name rule), ${example}.`
          : undefined;
  if (message !== undefined) return { ok: false, message };
  return { ok: true, value: { template: raw, prefix, suffix } };
}

/**
 * The pull-request number when `name` is the template with a number in place of `{pr}`,
 * else `undefined` (`my-agent-pr-12` → 12; `my-agent-pr-12-old`, `my-agent-pr-x`,
 * `my-agent-pr-012` → undefined).
 */
export function matchTemplate(template: NameTemplate, name: string): number | undefined {
  const { prefix, suffix } = template;
  if (!name.startsWith(prefix) || !name.endsWith(suffix)) return undefined;
  // Empty when prefix and suffix overlap in `name`.
  const digits = name.slice(prefix.length, name.length - suffix.length);
  return PR_NUMBER.test(digits) ? Number(digits) : undefined;
}

/** The template with `pr` in place of `{pr}` (every occurrence). */
export function fillTemplate(template: string, pr: number): string {
  return template.split(PR_PLACEHOLDER).join(String(pr));
}

/**
 * What to pass as `name_contains` when listing: the literal prefix (the suffix when the template
 * starts with `{pr}`), or `undefined` for `{pr}` alone (then every deployment is listed).
 */
export function listFilter(template: NameTemplate): string | undefined {
  return template.prefix || template.suffix || undefined;
}
