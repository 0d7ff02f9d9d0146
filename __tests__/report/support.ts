/** Shared fixtures for the Markdown tests (report/ and github/). */
/**
 * The text of a Markdown document outside fenced code blocks (CommonMark rule: a fence closes
 * on a line of at least as many backticks as opened it). `fenced` holds each block's lines.
 */
export function splitFences(markdown: string): { outside: string; fenced: string[][] } {
  const outside: string[] = [];
  const fenced: string[][] = [];
  let open = 0;
  let current: string[] = [];
  for (const line of markdown.split('\n')) {
    if (open === 0) {
      const start = line.match(/^ {0,3}(`{3,})[^`]*$/);
      if (start) {
        open = start[1]!.length;
        current = [];
      } else outside.push(line);
    } else {
      const end = line.match(/^ {0,3}(`{3,})\s*$/);
      if (end && end[1]!.length >= open) {
        open = 0;
        fenced.push(current);
      } else current.push(line);
    }
  }
  if (open !== 0) throw new Error('unclosed fence');
  return { outside: outside.join('\n'), fenced };
}
