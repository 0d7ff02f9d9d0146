/** A command's `RunContext` for unit tests: a fake clock, a recording logger, outputs kept. */
import type { CommandClient } from '../../src/api/client.js';
import type { RunContext } from '../../src/commands/context.js';
import type { BaseConfig } from '../../src/inputs/config.js';
import type { RunReport } from '../../src/report/record.js';
import { Deadline } from '../../src/lib/time.js';
import { captureOutputForTests, FakeClock, recordingLogger } from '../helpers/fakes.js';

export function fakeRun<C extends BaseConfig>(
  config: C,
  client: CommandClient,
  clock = new FakeClock(),
) {
  const logger = recordingLogger();
  const deadline = new Deadline(clock, clock.now() + config.timeoutSeconds * 1000);
  const signal = new AbortController().signal;
  const outputs: Record<string, unknown> = {};
  const report: RunReport = { command: config.command, timeline: [], outcome: 'failure' };
  const ctx: RunContext<C> = {
    clock,
    deadline,
    signal,
    logger,
    config,
    http: { clock, deadline, signal, logger, baseDelayMs: 1000 },
    client,
    state: { report },
    output: (name, value) => void (outputs[name] = value),
  };
  return { ctx, clock, deadline, logger, outputs, report };
}

/** Runs `fn` with the runner's stdout (masks, annotations) captured and dropped. */
export async function quietly<T>(fn: () => Promise<T>): Promise<T> {
  const restore = captureOutputForTests(() => undefined);
  try {
    return await fn();
  } finally {
    restore();
  }
}
