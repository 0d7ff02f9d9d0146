/**
 * A message of ours as Markdown: its `code` spans stay code spans (shown verbatim), everything
 * else is escaped, so a value quoted in the message (a config key, a file name, an input) can
 * change nothing in the document. Line breaks become spaces.
 */
import { codeSpan, escapeMarkdown } from './markdown.js';

export function messageMarkdown(message: string, options: { inTable?: boolean } = {}): string {
  return message
    .split(/(`[^`\n]+`)/)
    .map((part) =>
      /^`[^`\n]+`$/.test(part) ? codeSpan(part.slice(1, -1), options) : escapeMarkdown(part),
    )
    .join('');
}
