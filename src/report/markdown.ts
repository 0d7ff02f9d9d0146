/**
 * Helpers that put untrusted text (names from the API, error messages, log lines) into
 * GitHub-flavoured Markdown so that it shows as written: it can neither change the
 * document's structure (close a `<details>`, a code block or a table row) nor inject HTML.
 */
import { stripVTControlCharacters } from 'node:util';
import { httpUrl } from '../lib/text.js';
import { redact } from '../lib/untrusted.js';

// Control characters other than tab and line breaks.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/**
 * Masks registered secrets, then removes ANSI escape sequences and control characters (tab and
 * line breaks are kept). Every helper below starts here, so a secret is masked before it is
 * escaped (`_` → `&#95;`, `@` → `@\u200b`) or cut, when the whole text still shows it.
 */
export function cleanText(text: string): string {
  return stripVTControlCharacters(redact(text)).replace(CONTROL, '');
}

function oneLine(text: string): string {
  return cleanText(text).replace(/\r\n|\r|\n/g, ' ');
}

/**
 * Inline text in Markdown or HTML (also safe inside a table cell or a `<summary>`): every
 * character that Markdown or HTML would interpret (`< > & \` * _ [ ] ( ) ! ~ | \ #` and quotes)
 * becomes a numeric character reference, which both render as the literal character. Line
 * breaks become spaces, and `@name` → `@\u200bname`: GitHub notifies the users and teams a
 * comment mentions (an entity would not help: mentions are found in the rendered text), and a
 * zero-width space after the `@` reads the same but mentions nobody. Code spans and blocks
 * notify nobody anyway.
 */
export function escapeMarkdown(text: string): string {
  return oneLine(text)
    .replace(/@(?=[A-Za-z0-9_-])/g, '@\u200b')
    .replace(/[&<>"'`*_[\]()!~|\\#]/g, (c) => `&#${c.charCodeAt(0)};`);
}

function longestBacktickRun(text: string): number {
  return (text.match(/`+/g) ?? []).reduce((longest, run) => Math.max(longest, run.length), 0);
}

/**
 * An inline code span that shows `text` verbatim: the delimiter is longer than any backtick
 * run inside. `inTable` also escapes `|`, which would otherwise end a table cell.
 */
export function codeSpan(text: string, options: { inTable?: boolean } = {}): string {
  let body = oneLine(text);
  if (body.length === 0) return '';
  if (options.inTable) body = body.replace(/\|/g, '\\|');
  const ticks = '`'.repeat(longestBacktickRun(body) + 1);
  const pad = /^[` ]|[` ]$/.test(body) ? ' ' : '';
  return `${ticks}${pad}${body}${pad}${ticks}`;
}

/**
 * A fenced code block that shows `lines` verbatim: the fence is longer than any backtick run
 * inside (at least 3), so no line can close it; HTML inside a code block is not interpreted.
 */
export function codeFence(lines: string | readonly string[], info = 'text'): string {
  const text = cleanText([lines].flat().join('\n')).replace(/\r\n?/g, '\n');
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(text) + 1));
  return `${fence}${info}\n${text}\n${fence}`;
}

/**
 * A Markdown link when `url` is an absolute http(s) URL, else the URL as a code span. The
 * characters that could end the link destination are percent-encoded.
 */
export function markdownLink(label: string, url: string, options: { inTable?: boolean } = {}) {
  const href = httpUrl(redact(url))?.replace(
    /[()<>|\s"'`\\[\]]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
  return href ? `[${escapeMarkdown(label)}](${href})` : codeSpan(url, options);
}

/**
 * A message of ours as Markdown: its `code` spans stay code spans (shown verbatim), everything
 * else is escaped, so a value quoted in the message (a config key, a file name, an input) can
 * change nothing in the document. Line breaks become spaces.
 */
export function messageMarkdown(message: string, options: { inTable?: boolean } = {}): string {
  // The captured code spans are the odd items of the split.
  return message
    .split(/(`[^`\n]+`)/)
    .map((part, i) => (i % 2 ? codeSpan(part.slice(1, -1), options) : escapeMarkdown(part)))
    .join('');
}
