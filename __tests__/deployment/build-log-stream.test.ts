import { describe, expect, it } from '@jest/globals';
import { unusedPlane } from '../helpers/fakes.js';
import { BuildLogStream, STREAMED_STATUSES } from '../../src/deployment/build-log-stream.js';
import type { ControlPlane } from '../../src/api/client.js';
import type { RevisionLogs, RevisionLogsRequest } from '../../src/api/schemas.js';
import { ApiError } from '../../src/lib/errors.js';
import { captureOutputForTests } from '../../src/lib/untrusted.js';

type Call = { kind: string; body: RevisionLogsRequest };

/** A control plane whose build log is `log` (it may grow), paged oldest first by index. */
function plane(
  log: { id: string; timestamp: number | string; level: string; message: string }[],
  options: { answer?: (call: Call) => Promise<RevisionLogs | undefined>; nextOffset?: 'null' } = {},
) {
  const calls: Call[] = [];
  const client: ControlPlane = {
    ...unusedPlane(),
    getRevisionLogs: async (_id, _rev, kind, body) => {
      calls.push({ kind, body: { ...body } });
      if (options.answer) return options.answer({ kind, body });
      const from = body.offset === undefined ? 0 : Number(body.offset);
      const logs = log.slice(from, from + body.limit);
      const next = from + logs.length;
      return {
        logs,
        next_offset: options.nextOffset === 'null' && next >= log.length ? null : String(next),
      };
    },
  };
  return { client, calls };
}

const entry = (i: number) => ({
  id: `e${i}`,
  timestamp: 1767225600000 + i,
  level: 'INFO',
  message: `step ${i}`,
});

function stream(client: ControlPlane, pageSize = 3) {
  const printed: { title: string; lines: string[] }[] = [];
  const debug: string[] = [];
  const s = new BuildLogStream({
    client,
    deploymentId: 'dep-1',
    revisionId: 'rev-1',
    logger: { debug: (m) => void debug.push(m) },
    print: (title, lines) => void printed.push({ title, lines }),
    pageSize,
    maxPagesPerPoll: 2,
  });
  return { s, printed, debug };
}

describe('BuildLogStream', () => {
  it('streams only while the revision builds, like the CLI (AWAITING_BUILD, BUILDING)', () => {
    expect([...STREAMED_STATUSES]).toEqual(['AWAITING_BUILD', 'BUILDING']);
  });

  it('reads with order asc from the last next_offset at each check, printing only new lines', async () => {
    const log = [entry(1), entry(2)];
    const { client, calls } = plane(log);
    const { s, printed } = stream(client);
    s.onPoll('QUEUED'); // not building: no read
    s.onPoll('BUILDING');
    await s.settle();
    log.push(entry(3), entry(4), entry(5), entry(6));
    s.onPoll('BUILDING');
    await s.settle();
    s.onPoll('BUILDING'); // nothing new
    await s.settle();
    expect(calls.map((c) => c.body)).toEqual([
      { order: 'asc', limit: 3 },
      { order: 'asc', limit: 3, offset: '2' },
      { order: 'asc', limit: 3, offset: '5' },
      { order: 'asc', limit: 3, offset: '6' },
    ]);
    expect(calls.every((c) => c.kind === 'build')).toBe(true);
    expect(printed.map((p) => p.lines.map((l) => l.replace(/^\S+ INFO /, '')))).toEqual([
      ['step 1', 'step 2'],
      ['step 3', 'step 4', 'step 5'],
      ['step 6'],
    ]);
    expect(printed.map((p) => p.title)).toEqual([
      'Build log of revision rev-1, live: lines 1–2',
      'Build log of revision rev-1, live: lines 3–5',
      'Build log of revision rev-1, live: lines 6–6',
    ]);
    expect(s.printed).toBe(6);
  });

  it('renders epoch-millisecond and string timestamps', async () => {
    const { client } = plane([
      { id: 'a', timestamp: 1767225600000, level: 'info', message: 'one' },
      { id: 'b', timestamp: '2026-01-01 00:00:01', level: 'ERROR', message: 'two' },
    ]);
    const { s, printed } = stream(client);
    s.onPoll('AWAITING_BUILD');
    await s.finish();
    expect(printed[0]?.lines).toEqual([
      '2026-01-01T00:00:00.000Z INFO one',
      '2026-01-01 00:00:01 ERROR two',
    ]);
  });

  it('keeps its offset when next_offset is null, and does not print an entry twice', async () => {
    const log = [entry(1)];
    const { client, calls } = plane(log, { nextOffset: 'null' });
    const { s, printed } = stream(client);
    s.onPoll('BUILDING');
    await s.settle();
    s.onPoll('BUILDING');
    await s.settle();
    expect(calls.map((c) => c.body.offset)).toEqual([undefined, undefined]);
    expect(printed).toHaveLength(1);
  });

  it('skips a check while a read is in flight (the checks keep their timing)', async () => {
    let release!: (v: RevisionLogs) => void;
    const { client, calls } = plane([], {
      answer: () => new Promise<RevisionLogs>((resolve) => (release = resolve)),
    });
    const { s } = stream(client);
    s.onPoll('BUILDING');
    s.onPoll('BUILDING');
    s.onPoll('BUILDING');
    expect(calls).toHaveLength(1);
    release({ logs: [], next_offset: null });
    await s.settle();
    s.onPoll('BUILDING');
    expect(calls).toHaveLength(2);
    release({ logs: [], next_offset: null });
    await s.settle();
  });

  it('reads a bounded number of pages per check', async () => {
    const { client, calls } = plane(Array.from({ length: 30 }, (_, i) => entry(i)));
    const { s, printed } = stream(client);
    s.onPoll('BUILDING');
    await s.settle();
    expect(calls).toHaveLength(2); // maxPagesPerPoll
    expect(printed.flatMap((p) => p.lines)).toHaveLength(6);
  });

  it('finish reads what the build wrote after the last check; nothing when it never streamed', async () => {
    const log = [entry(1)];
    const { client, calls } = plane(log);
    const idle = stream(client);
    await idle.s.finish();
    expect(calls).toHaveLength(0);
    const { s, printed } = stream(client);
    s.onPoll('BUILDING');
    log.push(entry(2));
    await s.finish();
    expect(printed.flatMap((p) => p.lines).map((l) => l.replace(/^\S+ INFO /, ''))).toEqual([
      'step 1',
      'step 2',
    ]);
  });

  it('stops for good on 404/405 (no logs here), and goes on after a failed read', async () => {
    const gone = plane([], { answer: async () => undefined });
    const a = stream(gone.client);
    a.s.onPoll('BUILDING');
    await a.s.settle();
    a.s.onPoll('BUILDING');
    await a.s.finish();
    expect(gone.calls).toHaveLength(1);
    expect(a.s.unavailable).toBe(true);

    let fail = true;
    const flaky = plane([], {
      answer: async () => {
        if (fail) {
          fail = false;
          throw new ApiError('HTTP 503', { status: 503, method: 'POST', path: '/x' });
        }
        return { logs: [entry(1)], next_offset: '1' };
      },
    });
    const b = stream(flaky.client);
    b.s.onPoll('BUILDING');
    await b.s.settle();
    expect(b.debug.join('\n')).toMatch(/the next status check tries again/);
    b.s.onPoll('BUILDING');
    await b.s.settle();
    expect(b.printed).toHaveLength(1);
  });

  it('prints through the untrusted channel by default: no line can become a command', async () => {
    const { client } = plane([
      { id: 'x', timestamp: 1, level: 'INFO', message: '::error::forged\n::add-mask::x' },
    ]);
    const out: string[] = [];
    const restore = captureOutputForTests((t) => out.push(t));
    try {
      const s = new BuildLogStream({
        client,
        deploymentId: 'd',
        revisionId: 'r',
        logger: { debug: () => undefined },
      });
      s.onPoll('BUILDING');
      await s.settle();
    } finally {
      restore();
    }
    const text = out.join('');
    expect(text).toMatch(/^::group::Build log of revision r, live: lines 1–2/m);
    const token = /::stop-commands::(\S+)/.exec(text)?.[1];
    expect(token).toBeDefined();
    const inside = text.slice(
      text.indexOf(`::stop-commands::${token}`),
      text.indexOf(`::${token}::`),
    );
    expect(inside).toContain('::error::forged');
    expect(text.indexOf('::endgroup::')).toBeGreaterThan(text.indexOf(`::${token}::`));
  });
});
