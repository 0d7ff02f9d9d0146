import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { replaceSection } from '../bench/results-file.js';

describe('bench/RESULTS.md sections', () => {
  it('replaces only the polling section and keeps what other benchmarks wrote', () => {
    const file = [
      '# Benchmark results',
      '',
      '## Upload archive (another benchmark)',
      '',
      '| size | time |',
      '',
      '## Polling',
      '',
      '<!-- bench:polling:start -->',
      '',
      'old numbers',
      '',
      '<!-- bench:polling:end -->',
      '',
    ].join('\n');
    const updated = replaceSection(file, 'new numbers');
    expect(updated).toContain('new numbers');
    expect(updated).not.toContain('old numbers');
    expect(updated).toContain('## Upload archive (another benchmark)\n\n| size | time |');
  });

  it('adds the section under its own heading to a file without it, or creates the file', () => {
    expect(replaceSection('# Benchmark results\n\n## Other\n\nx\n', 'mine')).toMatch(
      /## Other\n\nx\n\n## Polling, cold start and scale[\s\S]*mine[\s\S]*bench:polling:end/,
    );
    expect(replaceSection('', 'mine')).toMatch(/^# Benchmark results\n/);
  });

  it('the committed RESULTS.md has the polling section the README links to', () => {
    const text = readFileSync('bench/RESULTS.md', 'utf8');
    expect(text).toContain('<!-- bench:polling:start -->');
    expect(text).toContain('<!-- bench:polling:end -->');
    const readme = readFileSync('README.md', 'utf8');
    expect(readme).toContain('](bench/RESULTS.md)');
    expect(readme).not.toContain('<!-- bench:start -->');
  });
});
