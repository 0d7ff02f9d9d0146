/**
 * `install-command` / `build-command`: the platform's character rule, checked before any
 * request the way the `langgraph` CLI checks it (`has_disallowed_build_command_content`).
 * Pure and dependency-free: it runs on the input path of every run.
 */

/** Characters the platform refuses anywhere in a build or install command. */
const REFUSED: readonly [string, string][] = [
  ['"', 'a double quote (")'],
  ['`', 'a backtick (`)'],
  ['\\', 'a backslash (\\)'],
  ['\n', 'a newline'],
  ['\r', 'a carriage return'],
  ['\0', 'a NUL character'],
  ['\t', 'a tab'],
  ['|', 'a pipe (|)'],
  [';', 'a semicolon (;)'],
  ['$', 'a dollar sign ($)'],
  ['>', 'a redirection (>)'],
  ['<', 'a redirection (<)'],
];

/** A run of `&` of odd length: `cmd &` (background) is refused, `a && b` is allowed. */
const LONE_AMPERSAND = /(?<!&)&(?:&&)*(?!&)/;

/**
 * What is wrong with a command, in words (`undefined` when it is acceptable). The message
 * names every refused character found, so one run fixes them all.
 */
export function describeRefusedCommand(command: string): string | undefined {
  const found = REFUSED.filter(([char]) => command.includes(char)).map(([, words]) => words);
  if (LONE_AMPERSAND.test(command)) found.push('a lone & (background job; `&&` is allowed)');
  if (found.length === 0) return undefined;
  return (
    `it holds ${found.join(', ')}, which the platform refuses in build commands ` +
    '(no quotes, backslashes, pipes, redirections, variables, `;` or background `&`; ' +
    'chaining with `&&` is allowed). Put complex steps in a script in the repository and ' +
    'call it, e.g. `sh ./scripts/build.sh`'
  );
}
