import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { captureOutputForTests, unusedPlane } from '../helpers/fakes.js';
import type { ControlPlane } from '../../src/api/client.js';
import type { RevisionLogs } from '../../src/api/schemas.js';
import { ApiError } from '../../src/lib/errors.js';
import {
  BuildLogStream,
  fetchLogTail,
  MAX_LINE_CHARS,
  renderLogEntry,
} from '../../src/deployment/logs.js';
import { REVISION_STATUS, revisionStatus } from '../../src/deployment/revision-status.js';
import { resetSecretsForTests, setSecret } from '../../src/lib/untrusted.js';

/** The kind of log and the request body, as one record for the assertions. */
type LogsQuery = { type: 'build' | 'deploy' } & Parameters<ControlPlane['getRevisionLogs']>[3];

/** An in-memory control plane that only serves logs, newest first like the real one. */
function planeWithLogs(answer: (query: LogsQuery) => Promise<RevisionLogs | undefined>) {
  const calls: { id: string; revisionId: string; query: LogsQuery }[] = [];
  const client: ControlPlane = {
    ...unusedPlane(),
    getRevisionLogs: (id, revisionId, kind, body) => {
      const query = { type: kind, ...body };
      calls.push({ id, revisionId, query });
      return answer(query);
    },
  };
  return { client, calls };
}

afterEach(() => resetSecretsForTests());

describe('the log type of a status (the table)', () => {
  it('maps failures to the logs that explain them', () => {
    const logTypeFor = (status: string) => revisionStatus(status).log;
    expect(logTypeFor('CREATE_FAILED')).toBe('build');
    expect(logTypeFor('BUILD_FAILED')).toBe('build');
    expect(logTypeFor('DEPLOY_FAILED')).toBe('deploy');
    expect(logTypeFor('DEPLOYED')).toBeUndefined();
    expect(logTypeFor('SKIPPED')).toBeUndefined();
  });
});

describe('fetchLogTail', () => {
  it('asks for the newest entries and returns them oldest first', async () => {
    const { client, calls } = planeWithLogs(async (q) => ({
      logs: Array.from({ length: q.limit ?? 0 }, (_, i) => ({ message: `line ${100 - i}` })),
      next_offset: 'cursor',
    }));
    const tail = await fetchLogTail(client, 'dep-1', 'rev-1', 'BUILD_FAILED');
    expect(calls).toEqual([
      { id: 'dep-1', revisionId: 'rev-1', query: { type: 'build', order: 'desc', limit: 50 } },
    ]);
    expect(tail).toEqual({ lines: Array.from({ length: 50 }, (_, i) => `line ${51 + i}`) });
  });

  it('reads deploy logs for DEPLOY_FAILED, and no more entries than it asked for', async () => {
    const { client, calls } = planeWithLogs(async () => ({
      logs: ['third', 'second', 'first', ...Array.from({ length: 50 }, () => 'older')],
    }));
    const tail = await fetchLogTail(client, 'dep-1', 'rev-1', 'DEPLOY_FAILED');
    expect(calls[0]?.query).toEqual({ type: 'deploy', order: 'desc', limit: 50 });
    expect(tail).toEqual({
      lines: [...Array.from({ length: 47 }, () => 'older'), 'first', 'second', 'third'],
    });
  });

  it('splits multi-line entries and drops blank ones', async () => {
    const { client } = planeWithLogs(async () => ({
      logs: [{ message: 'Traceback:\n  File "x"\nError: boom\n' }, { message: '   ' }, 'start'],
    }));
    expect(await fetchLogTail(client, 'd', 'r', 'BUILD_FAILED')).toEqual({
      lines: ['start', 'Traceback:', '  File "x"', 'Error: boom'],
    });
  });

  it('is unavailable when the install does not offer logs (undefined from the client)', async () => {
    const { client } = planeWithLogs(async () => undefined);
    expect(await fetchLogTail(client, 'd', 'r', 'BUILD_FAILED')).toEqual({ unavailable: true });
  });

  it('is unavailable, with a debug line, when reading them fails', async () => {
    const { client } = planeWithLogs(async () => {
      throw new ApiError('GET …/logs answered 500', { status: 500 });
    });
    const out: string[] = [];
    const restore = captureOutputForTests((t) => out.push(t));
    try {
      const tail = await fetchLogTail(client, 'dep-9', 'rev-9', 'DEPLOY_FAILED');
      expect(tail).toEqual({ unavailable: true });
    } finally {
      restore();
    }
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(/^::debug::.*deploy logs of revision rev-9 of deployment dep-9.*500/);
  });

  it('logs failures at debug through the runner by default', async () => {
    const { client } = planeWithLogs(() => Promise.reject(new Error('socket hang up')));
    let out = '';
    const restore = captureOutputForTests((t) => (out += t));
    try {
      expect(await fetchLogTail(client, 'd', 'r', 'BUILD_FAILED')).toEqual({ unavailable: true });
    } finally {
      restore();
    }
    expect(out).toMatch(/^::debug::Could not read the build logs.*socket hang up/);
  });

  it('makes no request for a status without logs', async () => {
    const { client, calls } = planeWithLogs(async () => ({ logs: ['x'] }));
    expect(await fetchLogTail(client, 'd', 'r', 'DEPLOYED')).toEqual({ unavailable: true });
    expect(calls).toHaveLength(0);
  });

  it('returns no lines for an empty log, and tolerates a malformed answer', async () => {
    const empty = planeWithLogs(async () => ({ logs: [] }));
    expect(await fetchLogTail(empty.client, 'd', 'r', 'BUILD_FAILED')).toEqual({ lines: [] });
    const odd = planeWithLogs(async () => ({ logs: 'nope' }) as unknown as RevisionLogs);
    expect(await fetchLogTail(odd.client, 'd', 'r', 'BUILD_FAILED')).toEqual({ lines: [] });
  });

  it('redacts secret values in every line', async () => {
    const { client } = planeWithLogs(async () => ({
      logs: [{ message: 'export TOKEN=hunter2-secret' }, 'echo hunter2-secret'],
    }));
    let tail;
    const restore = captureOutputForTests(() => undefined); // setSecret prints ::add-mask::
    try {
      setSecret('hunter2-secret');
      tail = await fetchLogTail(client, 'd', 'r', 'BUILD_FAILED');
    } finally {
      restore();
    }
    expect(tail).toEqual({ lines: ['echo ***', 'export TOKEN=***'] });
  });
});

describe('renderLogEntry', () => {
  it('prefixes the message with timestamp and level when present', () => {
    expect(
      renderLogEntry({ timestamp: '2026-03-01T10:00:00Z', level: 'error', message: 'boom' }),
    ).toBe('2026-03-01T10:00:00Z ERROR boom');
    expect(renderLogEntry({ message: 'just text' })).toBe('just text');
    expect(renderLogEntry({ level: 'info', message: 'no time' })).toBe('INFO no time');
    expect(renderLogEntry({ timestamp: '12:00', message: 'no level', extra: 1 })).toBe(
      '12:00 no level',
    );
  });

  it('turns numeric timestamps (seconds or milliseconds) into ISO times', () => {
    const iso = '2026-03-01T10:00:00.000Z';
    const ms = Date.parse(iso);
    expect(renderLogEntry({ timestamp: ms, message: 'm' })).toBe(`${iso} m`);
    expect(renderLogEntry({ timestamp: ms / 1000, message: 's' })).toBe(`${iso} s`);
  });

  it('takes a string entry as is', () => {
    expect(renderLogEntry('Step 3/9 : RUN pip install .')).toBe('Step 3/9 : RUN pip install .');
  });

  it('renders anything else as JSON', () => {
    expect(renderLogEntry({ msg_id: 7, text_body: 'x' })).toBe('{"msg_id":7,"text_body":"x"}');
    expect(renderLogEntry({ message: 42 })).toBe('{"message":42}');
    expect(renderLogEntry(42)).toBe('42');
    expect(renderLogEntry(null)).toBe('null');
    expect(renderLogEntry(['a', 1])).toBe('["a",1]');
    expect(renderLogEntry(undefined)).toBe('undefined');
    const circular: Record<string, unknown> = {};
    circular['self'] = circular;
    expect(renderLogEntry(circular)).toBe('[object Object]');
  });

  it('removes colour codes and truncates long lines', () => {
    expect(renderLogEntry('\u001b[31mred\u001b[0m text')).toBe('red text');
    expect(renderLogEntry('\u001b]8;;https://x.test\u0007link\u001b]8;;\u0007 text')).toBe(
      'link text',
    );
    const long = renderLogEntry({ message: 'x'.repeat(5000) });
    expect(long.length).toBeLessThan(MAX_LINE_CHARS + 40);
    expect(long.startsWith('x'.repeat(MAX_LINE_CHARS))).toBe(true);
    expect(long).toMatch(/… \(4500 more characters\)$/);
  });

  it('redacts before truncating, so no part of a secret survives the cut', () => {
    const secret = 's3cr3t-' + 'k'.repeat(40);
    const restore = captureOutputForTests(() => undefined);
    try {
      setSecret(secret);
      const line = renderLogEntry('y'.repeat(MAX_LINE_CHARS - 10) + secret);
      expect(line).not.toContain('s3cr3t');
      expect(line).toContain('***');
    } finally {
      restore();
    }
  });
});

type Call = { kind: string; body: Parameters<ControlPlane['getRevisionLogs']>[3] };

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

/** The runner's output while a test runs: where the stream prints its blocks. */
let output: string[] = [];
let restoreOutput = () => {};

/** The blocks printed so far: each group's title, and its lines between the stop-commands markers. */
function printed() {
  const block = /^::group::(.*)\n::stop-commands::(\S+)\n([\s\S]*?)^::\2::$/gm;
  return [...output.join('').matchAll(block)].map(([, title = '', , body = '']) => ({
    title,
    lines: body.split('\n').slice(0, -1),
  }));
}

function stream(client: ControlPlane) {
  const debug: string[] = [];
  const s = new BuildLogStream({
    client,
    deploymentId: 'dep-1',
    revisionId: 'rev-1',
    logger: { debug: (m) => void debug.push(m) },
  });
  return { s, debug };
}

describe('BuildLogStream', () => {
  beforeEach(() => {
    output = [];
    restoreOutput = captureOutputForTests((t) => output.push(t));
  });
  afterEach(() => restoreOutput());

  it('streams only while the revision builds, like the CLI (AWAITING_BUILD, BUILDING)', () => {
    const streamed = Object.keys(REVISION_STATUS).filter(
      (s) => revisionStatus(s).phase === 'building',
    );
    expect(streamed).toEqual(['AWAITING_BUILD', 'BUILDING']);
  });

  it('reads with order asc from the last next_offset at each check, printing only new lines', async () => {
    const log = [entry(1), entry(2)];
    const { client, calls } = plane(log);
    const { s } = stream(client);
    s.onPoll('QUEUED'); // not building: no read
    s.onPoll('BUILDING');
    await s.settle();
    log.push(...Array.from({ length: 51 }, (_, i) => entry(i + 3))); // a page of 50, then one
    s.onPoll('BUILDING');
    await s.settle();
    s.onPoll('BUILDING'); // nothing new
    await s.settle();
    expect(calls.map((c) => c.body)).toEqual([
      { order: 'asc', limit: 50 },
      { order: 'asc', limit: 50, offset: '2' },
      { order: 'asc', limit: 50, offset: '52' },
      { order: 'asc', limit: 50, offset: '53' },
    ]);
    expect(calls.every((c) => c.kind === 'build')).toBe(true);
    const steps = (from: number, to: number) =>
      Array.from({ length: to - from + 1 }, (_, i) => `step ${from + i}`);
    expect(printed().map((p) => p.lines.map((l) => l.replace(/^\S+ INFO /, '')))).toEqual([
      steps(1, 2),
      steps(3, 52),
      steps(53, 53),
    ]);
    expect(printed().map((p) => p.title)).toEqual([
      'Build log of revision rev-1, live: lines 1–2',
      'Build log of revision rev-1, live: lines 3–52',
      'Build log of revision rev-1, live: lines 53–53',
    ]);
    expect(s.printed).toBe(53);
  });

  it('renders epoch-millisecond and string timestamps', async () => {
    const { client } = plane([
      { id: 'a', timestamp: 1767225600000, level: 'info', message: 'one' },
      { id: 'b', timestamp: '2026-01-01 00:00:01', level: 'ERROR', message: 'two' },
    ]);
    const { s } = stream(client);
    s.onPoll('AWAITING_BUILD');
    await s.finish();
    expect(printed()[0]?.lines).toEqual([
      '2026-01-01T00:00:00.000Z INFO one',
      '2026-01-01 00:00:01 ERROR two',
    ]);
  });

  it('keeps its offset when next_offset is null, and does not print an entry twice', async () => {
    const log = [entry(1)];
    const { client, calls } = plane(log, { nextOffset: 'null' });
    const { s } = stream(client);
    s.onPoll('BUILDING');
    await s.settle();
    s.onPoll('BUILDING');
    await s.settle();
    expect(calls.map((c) => c.body.offset)).toEqual([undefined, undefined]);
    expect(printed()).toHaveLength(1);
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
    const { client, calls } = plane(Array.from({ length: 300 }, (_, i) => entry(i)));
    const { s } = stream(client);
    s.onPoll('BUILDING');
    await s.settle();
    expect(calls).toHaveLength(5); // five pages of 50 at most per check
    expect(printed().flatMap((p) => p.lines)).toHaveLength(250);
  });

  it('finish reads what the build wrote after the last check; nothing when it never streamed', async () => {
    const log = [entry(1)];
    const { client, calls } = plane(log);
    const idle = stream(client);
    await idle.s.finish();
    expect(calls).toHaveLength(0);
    const { s } = stream(client);
    s.onPoll('BUILDING');
    log.push(entry(2));
    await s.finish();
    expect(
      printed()
        .flatMap((p) => p.lines)
        .map((l) => l.replace(/^\S+ INFO /, '')),
    ).toEqual(['step 1', 'step 2']);
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
          throw new ApiError('HTTP 503', { status: 503 });
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
    expect(printed()).toHaveLength(1);
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
