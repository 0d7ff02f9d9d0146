/**
 * The one gate every output passes (INTERFACE v1.2, "every output is checked"): a later step
 * may paste an output into a shell (`run: echo "${{ steps.deploy.outputs.url }}"`), so every
 * value must have the shape its name promises, or it is not written (a warning says why).
 * There is no list of names to skip: an output this module has no own rule for gets the
 * strictest one (an ID's), so a new output cannot slip past it. `core.setOutput` is called
 * from here only (`__tests__/lib/outputs.test.ts` checks that).
 */
import * as core from '@actions/core';
import { unescape } from 'node:querystring';
import { inert, type Logger } from './untrusted.js';

type Rule = (value: string) => string | undefined;

/** A value that does not match `re` "is not" `what`. */
const pattern =
  (re: RegExp, what: string): Rule =>
  (value) =>
    re.test(value) ? undefined : `it is not ${what}`;

/** IDs (`deployment-id`, `revision-id`, `rolled-back-to`, `experiment-id`, and any other output). */
const ID_RULE = pattern(/^[A-Za-z0-9._-]{1,200}$/, 'an ID (letters, digits, -, _ and . only)');
const BOOLEAN_RULE = pattern(/^(true|false)$/, 'true or false');
const COUNT_RULE = pattern(/^[0-9]{1,9}$/, 'a count');

const RULES: Readonly<Record<string, Rule>> = {
  // The platform's deployment name rule (the `name` input's).
  name: pattern(/^[a-z0-9-]{1,200}$/, 'a deployment name (lowercase letters, digits and hyphens)'),
  'commit-sha': pattern(/^[0-9a-f]{7,64}$/i, 'a hexadecimal commit SHA'),
  status: pattern(/^[A-Za-z0-9_-]{1,64}$/, 'a status (letters, digits, _ and -)'),
  created: BOOLEAN_RULE,
  'skipped-build': BOOLEAN_RULE,
  url: urlProblem,
  'ui-url': urlProblem,
  'source-digest': pattern(/^[0-9a-f]{64}$/, 'a SHA-256 digest (64 hexadecimal digits)'),
  // `registry-login`: a host[:port], and an image repository under it (no tag, no digest).
  registry: pattern(/^[a-z0-9.-]{1,253}(:[0-9]{1,5})?$/i, 'a registry host'),
  image: pattern(
    /^[a-z0-9.-]{1,253}(:[0-9]{1,5})?(\/[a-z0-9]+([._-]+[a-z0-9]+)*){1,20}$/,
    'an image repository (host/path, lowercase)',
  ),
  'tests-passed': COUNT_RULE,
  'tests-failed': COUNT_RULE,
  'experiment-url': urlProblem,
  'eval-passed': BOOLEAN_RULE,
  // `eval-scores`: JSON as `JSON.stringify` writes it, of keys and numbers only (no `$`, quote
  // but `"`, backslash or bracket a shell reads). A space may stand in a key, as LangSmith allows:
  // pasted unquoted it splits words, it runs nothing.
  'eval-scores': (value) => {
    let same = false;
    try {
      same = JSON.stringify(JSON.parse(value)) === value;
    } catch {
      // not JSON
    }
    return same && /^\{[A-Za-z0-9_.:/"{},+ -]*\}$/.test(value)
      ? undefined
      : 'it is not a JSON object of feedback keys to scores';
  },
  // `deleted`: a JSON array of deployment names as `JSON.stringify` writes it, nothing else.
  deleted: pattern(
    /^\[("[a-z0-9-]{1,200}"(,"[a-z0-9-]{1,200}")*)?\]$/,
    'a JSON array of deployment names',
  ),
};

/**
 * The run's output writer: each value is checked, written once (the same value again is not
 * written twice) and otherwise left out with one warning per value. `write` is for tests.
 */
export function outputGate(logger: Pick<Logger, 'warning'>, write = core.setOutput) {
  const written = new Map<string, string>();
  const rejected = new Set<string>();
  return (name: string, value: string | boolean | number | undefined): void => {
    if (value === undefined) return;
    const text = String(value);
    if (written.get(name) === text) return;
    const problem = /^[a-z][a-z0-9-]{0,63}$/.test(name)
      ? (RULES[name] ?? ID_RULE)(text)
      : 'the output name is not one the action writes';
    if (problem !== undefined) {
      // Once per value: the same answer read twice is one warning.
      if (rejected.has(`${name}\n${text}`)) return;
      rejected.add(`${name}\n${text}`);
      logger.warning(
        `Output \`${inert(name, 64)}\` not written: the value "${inert(text, 120)}" was refused ` +
          `because ${problem}. Later steps see it empty.`,
        { title: 'Output not written' },
      );
      return;
    }
    written.set(name, text);
    write(name, text);
  };
}

/**
 * A URL output must be an `http(s)` URL without credentials, written exactly as the URL
 * standard serializes it (so quotes, spaces and other shell-active characters are encoded).
 */
function urlProblem(value: string): string | undefined {
  if (!URL.canParse(value)) return 'it is not a URL';
  const url = new URL(value);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'it is not an http(s) URL';
  if (url.username !== '' || url.password !== '') return 'it holds credentials';
  const serialized = url.href;
  // `new URL` adds a slash to a bare origin; the action trims trailing slashes.
  if (serialized !== value && serialized.replace(/\/+$/, '') !== value) {
    return 'it is not in the URL standard’s serialized form (characters a shell could read)';
  }
  if (/["'`$\\\s<>|;&(){}]/.test(value)) return 'it holds characters a shell could read';
  return undefined;
}

/**
 * A URL from an answer without its `user:password@` part, and the values to mask (the
 * password, and `user:password`, encoded and decoded); the URL as given when it has none.
 */
export function withoutCredentials(value: string): { url: string; credentials: string[] } {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (!url || (url.username === '' && url.password === '')) return { url: value, credentials: [] };
  const forms =
    url.password === '' ? [url.username] : [url.password, `${url.username}:${url.password}`];
  // `unescape`: `decodeURIComponent`, and where that throws, every valid escape decoded.
  const credentials = new Set(forms.filter(Boolean).flatMap((form) => [form, unescape(form)]));
  url.username = '';
  url.password = '';
  return {
    url: value.endsWith('/') ? url.href : url.href.replace(/\/$/, ''),
    credentials: [...credentials],
  };
}
