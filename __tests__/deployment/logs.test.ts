import { afterEach, describe, expect, it } from '@jest/globals';
import { unusedPlane } from '../helpers/fakes.js';
import type { ControlPlane } from '../../src/api/client.js';
import type { RevisionLogs } from '../../src/api/schemas.js';
import { ApiError } from '../../src/lib/errors.js';
import {
  fetchLogTail,
  logTypeFor,
  MAX_LINE_CHARS,
  renderLogEntry,
} from '../../src/deployment/logs.js';
import { captureOutputForTests, resetSecretsForTests, setSecret } from '../../src/lib/untrusted.js';

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

function debugSink() {
  const lines: string[] = [];
  return { lines, logger: { debug: (m: string) => void lines.push(m) } };
}

afterEach(() => resetSecretsForTests());

describe('logTypeFor', () => {
  it('maps failures to the logs that explain them', () => {
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

  it('reads deploy logs for DEPLOY_FAILED, with the limit given', async () => {
    const { client, calls } = planeWithLogs(async () => ({
      logs: ['third', 'second', 'first'],
    }));
    const tail = await fetchLogTail(client, 'dep-1', 'rev-1', 'DEPLOY_FAILED', 3);
    expect(calls[0]?.query).toEqual({ type: 'deploy', order: 'desc', limit: 3 });
    expect(tail).toEqual({ lines: ['first', 'second', 'third'] });
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
      throw new ApiError('GET …/logs answered 500', { status: 500, method: 'GET', path: '/x' });
    });
    const sink = debugSink();
    const tail = await fetchLogTail(client, 'dep-9', 'rev-9', 'DEPLOY_FAILED', 50, sink.logger);
    expect(tail).toEqual({ unavailable: true });
    expect(sink.lines).toHaveLength(1);
    expect(sink.lines[0]).toMatch(/deploy logs of revision rev-9 of deployment dep-9.*500/);
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
