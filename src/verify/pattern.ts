/**
 * `expect.matches` of the conversation tests: RE2 syntax, run by `re2js` (a maintained pure
 * JavaScript port of RE2), whose matching time grows linearly with the text (`(a+)+b` on
 * 64 KiB: about 5 ms). The expression sees at most the first 64 KiB of the reply.
 * Lookarounds and back-references, which need backtracking, are not RE2 syntax.
 *
 * Linear time still scales with the size of the compiled program: `(.*){1,1000}[bc]` (5,002
 * instructions) takes about 10 s on 64 KiB. So the program is bounded too (`MAX_PROGRAM`
 * instructions, about 0.3 s at worst on 64 KiB on a shared 2-core runner), and every check
 * ends well within a turn. A refused expression is an input error before any request.
 */
import { RE2JS } from 're2js';

/** The most of a reply that `contains` and `matches` look at. */
export const MAX_CHECKED_CHARS = 64 * 1024;

/** The reply as the checks see it: its first 64 KiB (in UTF-16 code units). */
export function checkedText(text: string): string {
  return text.length > MAX_CHECKED_CHARS ? text.slice(0, MAX_CHECKED_CHARS) : text;
}

/** The most instructions of a compiled expression (`(.*){1,32}[bc]` has 162). */
export const MAX_PROGRAM = 300;

/** Why `source` is not an RE2 expression the checks can run, or undefined when it is. */
export function patternProblem(source: string): string | undefined {
  let pattern: RE2JS;
  try {
    pattern = RE2JS.compile(source);
  } catch (error) {
    return (error as Error).message.replace(/^error parsing regexp: /, '');
  }
  const size = programSize(pattern);
  // Without the program's size (another re2js version): a short expression, no big counts.
  const tooLarge =
    size !== undefined ? size > MAX_PROGRAM : source.length > 200 || /\{\d{3,}/.test(source);
  return tooLarge
    ? `it compiles to ${size ?? 'too many'} instructions, more than the ${MAX_PROGRAM} that keep ` +
        'a check within a fraction of a second (use smaller repeat counts such as `{1,30}`)'
    : undefined;
}

/** The number of instructions of the compiled program (re2js 2.x internals). */
function programSize(pattern: RE2JS): number | undefined {
  const inst = (pattern as unknown as { re2Input?: { prog?: { inst?: unknown } } }).re2Input?.prog
    ?.inst;
  return Array.isArray(inst) ? inst.length : undefined;
}

const compiled = new Map<string, RE2JS>();

/** Whether `source` (validated by `patternProblem`) finds a match in the first 64 KiB of `text`. */
export function patternMatches(source: string, text: string): boolean {
  let pattern = compiled.get(source);
  if (!pattern) {
    pattern = RE2JS.compile(source);
    compiled.set(source, pattern);
  }
  return pattern.matcher(checkedText(text)).find();
}
