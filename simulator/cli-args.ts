/** Command-line flags of `npm run sim` (see cli.ts), turned into `SimulatorOptions`. */
import { parseArgs } from 'node:util';
import { DEFAULT_TIMELINE, parseTimeline, scaleTimeline } from './timeline.js';
import type { SimulatorOptions } from './types.js';

export const USAGE =
  'Usage: npm run sim -- [--port N] [--host H] [--api-key KEY] [--speed X] ' +
  '[--timeline STATUS:ms,...] [--require-tenant] [--rate-limit N/ms] [--delete-delay ms] ' +
  '[--no-logs] [--commit-sha SHA] [--queue-behind]';

function number(flag: string, text: string, min: number): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < min) {
    throw new Error(`--${flag} needs a number >= ${min}, got "${text}".`);
  }
  return value;
}

/** Throws with a message naming the flag when a value is wrong; `help` when asked for usage. */
export function parseCliArgs(argv: string[]): SimulatorOptions | 'help' {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string', default: '0' },
      host: { type: 'string', default: '127.0.0.1' },
      'api-key': { type: 'string', multiple: true },
      speed: { type: 'string', default: '1' },
      timeline: { type: 'string' },
      'require-tenant': { type: 'boolean', default: false },
      'rate-limit': { type: 'string' },
      'delete-delay': { type: 'string' },
      'no-logs': { type: 'boolean', default: false },
      'commit-sha': { type: 'string' },
      'queue-behind': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) return 'help';
  // --speed multiplies the durations: --speed 10 makes the ~2 s default timeline ~20 s.
  const speed = number('speed', values.speed, 0);
  const base = values.timeline ? parseTimeline(values.timeline) : [...DEFAULT_TIMELINE];
  const options: SimulatorOptions = {
    port: number('port', values.port, 0),
    host: values.host,
    timeline: scaleTimeline(base, speed),
    requireTenant: values['require-tenant'],
    logsEndpoint: !values['no-logs'],
  };
  if (values['api-key']) options.apiKeys = values['api-key'];
  if (values['commit-sha']) options.commitSha = values['commit-sha'];
  if (values['queue-behind']) options.queueBehind = true;
  if (values['delete-delay']) {
    options.deleteDelayMs = number('delete-delay', values['delete-delay'], 0);
  }
  if (values['rate-limit']) {
    const match = /^(\d+)\/(\d+)$/.exec(values['rate-limit']);
    if (!match || Number(match[1]) < 1 || Number(match[2]) < 1) {
      throw new Error(
        `--rate-limit needs REQUESTS/MILLISECONDS (e.g. 5/1000), got "${values['rate-limit']}".`,
      );
    }
    options.rateLimit = { requests: Number(match[1]), windowMs: Number(match[2]) };
  }
  return options;
}
