/**
 * The action's output as the GitHub runner shows it in the job's log, for the demo: the runner
 * reads the workflow commands instead of printing them. Rules (actions/runner, its
 * `ActionCommandManager`, and the log viewer):
 * - `::add-mask::<value>` is not shown, and from then on `<value>` is shown as `***`;
 * - `::debug::` lines are hidden unless step debug logging is on (`RUNNER_DEBUG=1`);
 * - `::group::<title>` shows as a foldable `▶ <title>` (its lines indented here, shown folded
 *   out), `::endgroup::` is not shown;
 * - `::error::`, `::warning::`, `::notice::` show as `Error: …`, `Warning: …`, `Notice: …`
 *   (their title goes to the annotation);
 * - the `::stop-commands::<token>` and `::<token>::` markers are not shown; the lines between
 *   them are printed as they are (none of them is a command).
 */
import { parseV2 } from '../__tests__/helpers/runner-replay.js';

const SHOWN = { error: 'Error', warning: 'Warning', notice: 'Notice', debug: 'Debug' } as const;

export interface RunnerView {
  /** Takes output as it arrives; shows each complete line. */
  push(chunk: string): void;
  /** Shows the last line when it had no line break. */
  end(): void;
  /** `text` with every value registered by `::add-mask::` so far replaced by `***`. */
  mask(text: string): string;
}

export function runnerView(write: (text: string) => void, options: { debug?: boolean } = {}) {
  const masks: string[] = [];
  let stopToken: string | undefined;
  let inGroup = false;
  let pending = '';
  const mask = (text: string) => masks.reduce((t, value) => t.split(value).join('***'), text);
  const show = (text: string) => write(`${mask(text.replace(/^/gm, inGroup ? '  ' : ''))}\n`);

  const line = (raw: string) => {
    const command = parseV2(raw.trimStart());
    if (stopToken !== undefined) {
      if (command?.name === stopToken.toLowerCase()) stopToken = undefined;
      else show(raw);
    } else if (!command) {
      show(raw);
    } else if (command.name === 'add-mask') {
      // Longest first, so that a value inside another is not masked on its own first.
      if (command.data) masks.push(command.data);
      masks.sort((a, b) => b.length - a.length);
    } else if (command.name === 'stop-commands') {
      stopToken = command.data;
    } else if (command.name === 'group') {
      inGroup = false;
      show(`▶ ${command.data}`);
      inGroup = true;
    } else if (command.name === 'endgroup') {
      inGroup = false;
    } else if (command.name in SHOWN) {
      if (command.name !== 'debug' || options.debug) {
        show(`${SHOWN[command.name as keyof typeof SHOWN]}: ${command.data}`);
      }
    } else {
      show(raw); // a command the runner does not know is printed as it is
    }
  };

  return {
    push(chunk: string) {
      const lines = (pending + chunk).split(/\r\n|\r|\n/);
      pending = lines.pop() ?? '';
      lines.forEach(line);
    },
    end() {
      if (pending) line(pending);
      pending = '';
    },
    mask,
  } satisfies RunnerView;
}
