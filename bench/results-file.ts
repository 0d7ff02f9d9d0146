/** bench/RESULTS.md holds one section per benchmark; each `--write` replaces only its own. */
import { existsSync, readFileSync } from 'node:fs';

const SECTION_START = '<!-- bench:polling:start -->';
const SECTION_END = '<!-- bench:polling:end -->';

export function readIfExists(file: string): string {
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}

/**
 * bench/RESULTS.md with this benchmark's section (between its markers) replaced, or added under
 * its own heading when the file has none yet. Everything else in the file is kept.
 */
export function replaceSection(text: string, section: string): string {
  const block = `${SECTION_START}\n\n${section.trim()}\n\n${SECTION_END}`;
  const start = text.indexOf(SECTION_START);
  const end = text.indexOf(SECTION_END);
  if (start >= 0 && end > start) {
    return `${text.slice(0, start)}${block}${text.slice(end + SECTION_END.length)}`;
  }
  const head = text.trim() === '' ? '# Benchmark results\n' : `${text.trimEnd()}\n`;
  return `${head}\n## Polling, cold start and scale (\`npm run bench\`)\n\n${block}\n`;
}
