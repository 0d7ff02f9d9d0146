/**
 * scripts/runner-view.ts: the action's output as the runner shows it in the job's log (the
 * demo prints this, never the raw workflow commands).
 */
import { describe, expect, it } from '@jest/globals';
import { runnerView } from '../scripts/runner-view.js';

function shown(output: string, options?: { debug?: boolean }): string {
  let text = '';
  const view = runnerView((t) => (text += t), options);
  // Split anywhere: lines are shown only once whole.
  for (const chunk of output.match(/[\s\S]{1,7}/g) ?? []) view.push(chunk);
  view.end();
  return text;
}

describe('runnerView', () => {
  const output = [
    '::add-mask::sk-secret',
    'key is sk-secret here',
    '::debug::request headers sent',
    '::group::Last 2 log lines',
    '::stop-commands::untrusted-1234',
    '::error::forged by a log line',
    'done with sk-secret',
    '::untrusted-1234::',
    '::endgroup::',
    '::error title=Deployment BUILD_FAILED::The build failed.%0AFix it.',
    '::warning::careful',
    '::notice::note',
    'last line without a break',
  ].join('\n');

  it('applies masks silently, hides debug and markers, shows groups and annotations', () => {
    expect(shown(output).split('\n')).toEqual([
      'key is *** here',
      '▶ Last 2 log lines',
      '  ::error::forged by a log line',
      '  done with ***',
      'Error: The build failed.',
      'Fix it.',
      'Warning: careful',
      'Notice: note',
      'last line without a break',
      '',
    ]);
  });

  it('shows debug lines when asked (RUNNER_DEBUG=1)', () => {
    expect(shown(output, { debug: true })).toContain('\nDebug: request headers sent\n');
  });

  it('masks the longest value first', () => {
    expect(shown('::add-mask::abc\n::add-mask::abcdef\nabcdef abc\n')).toBe('*** ***\n');
  });
});
