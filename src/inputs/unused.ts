/**
 * Inputs a run was given but does not read, said out loud: a misspelt input keeps its default
 * without a word otherwise (the runner's own "Unexpected input(s)" line is easy to miss).
 * - `unknownInputs`: an `INPUT_*` variable that names no input of `action.yml` (`with:
 *   deployment_type` reaches the action as `INPUT_DEPLOYMENT_TYPE`), with the closest input;
 * - `unusedInputs`: an input set to a value other than its default that the run's command or
 *   source does not read. The runner sets a variable for every declared input, holding its
 *   default when the workflow does not set it, so only a value other than that counts.
 */
import type { Config } from './config.js';
import { defaultOf, INPUTS, type InputName, type InputSpec } from './spec.js';

/** The runner's name for an input's variable: upper-cased, spaces to `_`, dashes kept. */
const variableOf = (name: string) => `INPUT_${name.replace(/ /g, '_').toUpperCase()}`;

export function unknownInputs(env: NodeJS.ProcessEnv): string[] {
  const known = new Set(Object.keys(INPUTS).map(variableOf));
  const unknown = Object.keys(env).filter((v) => v.startsWith('INPUT_') && !known.has(v));
  return unknown.sort().map((variable) => {
    const given = variable.slice('INPUT_'.length).toLowerCase();
    const [closest, distance] = closestInput(given);
    const hint =
      distance <= Math.max(2, given.length / 3)
        ? `Did you mean \`${closest}\`?`
        : `No input is close to it (the closest is \`${closest}\`).`;
    return (
      `Input \`${given}\` is not an input of this action, so it is ignored (the runner passes ` +
      `it as ${variable}). ${hint} Input names use dashes; the inputs are listed in ` +
      'docs/reference.md.'
    );
  });
}

export function unusedInputs(env: NodeJS.ProcessEnv, config: Config): string[] {
  const source = config.command === 'deploy' ? config.source : undefined;
  const unused: string[] = [];
  for (const [name, spec] of Object.entries(INPUTS) as [InputName, InputSpec][]) {
    const value = env[variableOf(name)]?.trim() ?? '';
    const fallback = defaultOf(name);
    // A default the runner evaluates (`${{ github.token }}`) cannot be compared.
    if (value === '' || value.toLowerCase() === fallback.toLowerCase() || fallback.includes('${{'))
      continue;
    const by =
      spec.use && !spec.use.includes(config.command)
        ? `\`command: ${config.command}\``
        : source && spec.usedWith && !spec.usedWith.includes(source)
          ? `\`source: ${source}\``
          : undefined;
    if (by) unused.push(`Input \`${name}\` is set, but ${by} does not use it: it is ignored.`);
  }
  return unused;
}

/** The input whose name is the fewest single-character edits away, and that number. */
function closestInput(given: string): [string, number] {
  let best: [string, number] = ['', Infinity];
  for (const name of Object.keys(INPUTS)) {
    const distance = editDistance(given, name);
    if (distance < best[1]) best = [name, distance];
  }
  return best;
}

/** Levenshtein distance (insertions, deletions, substitutions), one row at a time. */
export function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      next[j] = Math.min(substitution, row[j]! + 1, next[j - 1]! + 1);
    }
    row = next;
  }
  return row[b.length]!;
}
