/**
 * Reads an action's output the way the GitHub runner does, and lists the workflow commands it
 * would execute. The runner's rules (actions/runner, `ActionCommandManager` and
 * `ActionCommand.TryParseV2` / `TryParse`):
 * - output is split into lines at CR, LF and CRLF;
 * - each line is trimmed of leading whitespace;
 * - `::name props::data` at the start of a line is a command;
 * - the legacy `##[name props]data` is a command anywhere in a line;
 * - after `::stop-commands::<token>` nothing is a command until a line `::<token>::`.
 *
 * Deliberately broader than the runner (any command name counts, not only registered ones), so
 * a test that finds no forged command here finds none in the runner either.
 */

export interface ReplayedCommand {
  /** Lower-cased command name. */
  name: string;
  /** `v2` for `::name::`, `v1` for `##[name]`. */
  form: 'v1' | 'v2';
  /** The properties text, escaped as written. */
  props: string;
  /** The data, unescaped as the runner does. */
  data: string;
  /** The line as the runner saw it (trimmed). */
  line: string;
}

function unescapeData(s: string): string {
  return s.replace(/%0D/gi, '\r').replace(/%0A/gi, '\n').replace(/%25/g, '%');
}

/** `::name props::data` at the start of a (trimmed) line, as the runner parses it. */
export function parseV2(line: string): Omit<ReplayedCommand, 'line'> | undefined {
  if (!line.startsWith('::')) return undefined;
  const end = line.indexOf('::', 2);
  if (end < 0) return undefined;
  const info = line.slice(2, end);
  const space = info.indexOf(' ');
  const name = (space < 0 ? info : info.slice(0, space)).trim();
  if (name === '') return undefined;
  return {
    name: name.toLowerCase(),
    form: 'v2',
    props: space < 0 ? '' : info.slice(space + 1),
    data: unescapeData(line.slice(end + 2)),
  };
}

function parseV1(line: string): Omit<ReplayedCommand, 'line'> | undefined {
  const start = line.indexOf('##[');
  if (start < 0) return undefined;
  const end = line.indexOf(']', start);
  if (end < 0) return undefined;
  const info = line.slice(start + 3, end);
  const space = info.indexOf(' ');
  const name = (space < 0 ? info : info.slice(0, space)).trim();
  if (name === '') return undefined;
  return {
    name: name.toLowerCase(),
    form: 'v1',
    props: space < 0 ? '' : info.slice(space + 1),
    data: unescapeData(line.slice(end + 1)),
  };
}

/** Every command the runner would execute in `output` (stop/resume included), in order. */
export function replayRunner(output: string): ReplayedCommand[] {
  const commands: ReplayedCommand[] = [];
  let stopToken: string | undefined;
  for (const raw of output.split(/\r\n|\r|\n/)) {
    // .NET's TrimStart: Unicode whitespace, NEL (U+0085) included.
    const line = raw.replace(/^[\s\u0085]+/, '');
    const parsed = parseV2(line) ?? parseV1(line);
    if (!parsed) continue;
    if (stopToken !== undefined) {
      if (parsed.form === 'v2' && parsed.name === stopToken.toLowerCase()) {
        commands.push({ ...parsed, name: 'resume-commands', line });
        stopToken = undefined;
      }
      continue;
    }
    if (parsed.name === 'stop-commands') stopToken = parsed.data;
    commands.push({ ...parsed, line });
  }
  return commands;
}

/**
 * Commands that hostile text forged, given the marker every hostile payload puts first in its
 * command's data (`::error::PWNED…`) or in its name or properties: a command whose data starts
 * with the marker, whose name or properties hold it, a `stop-commands` whose token is not the
 * action's (`untrusted-<uuid>`), or a command the action never issues (`set-output` and the
 * like: its outputs go to GITHUB_OUTPUT).
 */
export function forgedCommands(output: string, marker = 'PWNED'): ReplayedCommand[] {
  const meant = new Set(['add-mask', 'debug', 'notice', 'warning', 'error', 'group', 'endgroup']);
  return replayRunner(output).filter((c) => {
    if (c.data.trimStart().startsWith(marker)) return true;
    if (c.name.includes(marker.toLowerCase()) || c.props.includes(marker)) return true;
    if (c.name === 'stop-commands') return !/^untrusted-[0-9a-f-]{36}$/.test(c.data);
    if (c.name === 'resume-commands') return false;
    return !meant.has(c.name);
  });
}
