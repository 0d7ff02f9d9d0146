import { describe, expect, it } from '@jest/globals';
import type { ControlPlane } from '../../src/api/client.js';
import type { Revision, RevisionsList } from '../../src/api/schemas.js';
import { ActionError, ApiError, CancelledError, DeadlineError } from '../../src/lib/errors.js';
import { Deadline } from '../../src/lib/time.js';
import { FakeClock, recordingLogger, unusedPlane } from '../helpers/fakes.js';
import { REVISION_STATUS } from '../../src/deployment/revision-status.js';
import {
  isTransientPollError,
  waitForRevision,
  type StatusChange,
} from '../../src/deployment/wait.js';

const DEPLOYMENT = 'dep-5f0c7a2e-1111';
const REVISION = '1a2b3c4d-aaaa-bbbb-cccc-000000000001';
const START = 1_700_000_000_000;

function revision(id: string, status: string, created = START, updated = START): Revision {
  return {
    id,
    status,
    created_at: new Date(created).toISOString(),
    updated_at: new Date(updated).toISOString(),
    source: 'github',
    source_revision_config: { repo_commit_sha: 'abc123' },
  };
}

function apiError(status: number | undefined): ApiError {
  const path = `/v2/deployments/${DEPLOYMENT}/revisions/${REVISION}`;
  return new ApiError(`GET ${path} answered ${status ?? 'nothing'}`, { status });
}

/** A step of the script: a status, an error to throw, or a promise to hand back as is. */
type Step = string | Error | (() => Promise<Revision>);

/**
 * An in-memory control plane: `getRevision` answers the scripted steps one per call (the
 * last one repeats), or `statusAt(now)` when given. Only what the wait uses is implemented.
 */
const unused = unusedPlane();

class FakePlane implements ControlPlane {
  readonly revisionCalls: { id: string; revisionId: string; at: number }[] = [];
  readonly listCalls: { id: string; query: unknown }[] = [];
  earlier: Revision[] | Error = [revision('old-1', 'DEPLOYED', START - 900_000, START - 610_000)];
  constructor(
    private readonly clock: FakeClock,
    private readonly steps: Step[] = [],
    private readonly statusAt?: (now: number) => string,
  ) {}

  async getRevision(id: string, revisionId: string): Promise<Revision> {
    this.revisionCalls.push({ id, revisionId, at: this.clock.now() });
    if (revisionId !== REVISION) return revision(revisionId, 'DEPLOYED'); // "latest" is done
    if (this.statusAt) return revision(revisionId, this.statusAt(this.clock.now()));
    const step = this.steps[Math.min(this.revisionCalls.length, this.steps.length) - 1];
    if (step === undefined) throw new Error('script is empty');
    if (step instanceof Error) throw step;
    if (typeof step === 'function') return step();
    return revision(revisionId, step);
  }
  async listRevisions(id: string, query: { limit?: number }): Promise<RevisionsList> {
    this.listCalls.push({ id, query });
    if (this.earlier instanceof Error) throw this.earlier;
    return { resources: [revision('newer-than-ours', 'QUEUED'), ...this.earlier], offset: 0 };
  }
  readonly listDeployments = unused.listDeployments;
  readonly findDeploymentByName = unused.findDeploymentByName;
  readonly getDeployment = unused.getDeployment;
  readonly listGithubIntegrations = unused.listGithubIntegrations;
  readonly listGithubRepos = unused.listGithubRepos;
  readonly createDeployment = unused.createDeployment;
  readonly patchDeployment = unused.patchDeployment;
  readonly deleteDeployment = unused.deleteDeployment;
  readonly getRevisionLogs = unused.getRevisionLogs;
  readonly createRevision = unused.createRevision;
  readonly interruptRevision = unused.interruptRevision;
  readonly requestUploadUrl = unused.requestUploadUrl;
  readonly requestPushToken = unused.requestPushToken;
}

/** Records, for every sleep, the remaining time before the deadline when it began. */
class CheckingClock extends FakeClock {
  readonly remainingAtSleep: number[] = [];
  deadlineAt = Infinity;
  override async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.remainingAtSleep.push(this.deadlineAt - this.current);
    return super.sleep(ms, signal);
  }
}

function setup(
  steps: Step[],
  options: { timeoutS?: number; pollIntervalMs?: number; statusAt?: (t: number) => string } = {},
) {
  const clock = new CheckingClock(START);
  const deadline = new Deadline(clock, clock.now() + (options.timeoutS ?? 1800) * 1000);
  clock.deadlineAt = deadline.at;
  const client = new FakePlane(clock, steps, options.statusAt);
  const logger = recordingLogger();
  const changes: StatusChange[] = [];
  const opts = {
    client,
    deploymentId: DEPLOYMENT,
    revisionId: REVISION,
    clock,
    deadline,
    logger,
    pollIntervalMs: options.pollIntervalMs ?? 15_000,
    onStatus: (c: StatusChange) => void changes.push(c),
  };
  return { clock, deadline, client, logger, changes, opts };
}

describe('waitForRevision outcomes', () => {
  const cases: [string, 'deployed' | 'failed' | 'skipped'][] = [
    ['DEPLOYED', 'deployed'],
    ['CREATE_FAILED', 'failed'],
    ['BUILD_FAILED', 'failed'],
    ['DEPLOY_FAILED', 'failed'],
    ['SKIPPED', 'skipped'],
  ];
  for (const [status, outcome] of cases) {
    it(`${status} ends the wait as ${outcome}`, async () => {
      const { opts, client, changes } = setup(['QUEUED', 'BUILDING', status]);
      const result = await waitForRevision(opts);
      expect(result.outcome).toBe(outcome);
      expect(result.status).toBe(status);
      expect(result.revision.id).toBe(REVISION);
      expect(result.revision.source_revision_config.repo_commit_sha).toBe('abc123');
      expect(result.pollCount).toBe(3);
      expect(client.revisionCalls).toHaveLength(3);
      expect(changes.map((c) => c.status)).toEqual(['QUEUED', 'BUILDING', status]);
    });
  }

  it('checks at once, before any sleep', async () => {
    const { opts, client, clock } = setup(['DEPLOYED']);
    const result = await waitForRevision(opts);
    expect(result.outcome).toBe('deployed');
    expect(client.revisionCalls[0]?.at).toBe(START);
    expect(clock.sleeps).toEqual([]);
  });

  it('polls only the given revision, never whatever is latest', async () => {
    const { opts, client } = setup(['QUEUED', 'BUILDING', 'DEPLOYING', 'DEPLOYED']);
    await waitForRevision(opts);
    expect(client.revisionCalls.map(({ id, revisionId }) => [id, revisionId])).toEqual(
      Array(4).fill([DEPLOYMENT, REVISION]),
    );
    expect(client.listCalls).toEqual([{ id: DEPLOYMENT, query: { limit: 20 } }]);
  });
});

describe('waitForRevision timing a status from updated_at', () => {
  const deploying = (updated: number) => async () =>
    revision(REVISION, 'DEPLOYING', START, updated);

  it('times DEPLOYING from when it began (updated_at), not from the check that first saw it', async () => {
    // BUILDING, then status checks that fail (the platform is briefly down), then DEPLOYING:
    // dated 5 s after the start, it has lasted long enough to be near its end (dense checks);
    // undated, it is taken as just begun (a long gap).
    const down = Array.from({ length: 4 }, () => apiError(503));
    const gapAfterDeploying = async (updatedAt: number): Promise<number> => {
      const { opts, client } = setup([
        'BUILDING',
        ...down,
        deploying(updatedAt),
        deploying(updatedAt),
        'DEPLOYED',
      ]);
      await waitForRevision(opts);
      const calls = client.revisionCalls.map((c) => c.at);
      return calls[down.length + 2]! - calls[down.length + 1]!;
    };
    const dated = await gapAfterDeploying(START + 5_000);
    const undated = await gapAfterDeploying(START);
    expect(dated).toBeLessThan(undated);
    expect(dated).toBeLessThanOrEqual(3_300);
  });
});

describe('waitForRevision logging', () => {
  it('logs each status change once, with only what the checks observed', async () => {
    const { opts, logger, changes } = setup([
      'QUEUED',
      'QUEUED',
      'AWAITING_BUILD',
      'BUILDING',
      'BUILDING',
      'BUILDING',
      'AWAITING_DEPLOY',
      'DEPLOYED',
    ]);
    await waitForRevision(opts);
    const statusLines = logger.messages('info').filter((m) => m.includes(' status: '));
    // Checks at 0, 15, 30, 45, 60, 75, 90 and 105 s: each line names the previous check's
    // status and how long ago that check was, never a time "spent" in a status.
    expect(statusLines).toEqual([
      'Revision 1a2b3c4d… status: QUEUED',
      'Revision 1a2b3c4d… status: AWAITING_BUILD (the previous check, 15.0 s earlier, saw QUEUED)',
      'Revision 1a2b3c4d… status: BUILDING (the previous check, 15.0 s earlier, saw AWAITING_BUILD)',
      'Revision 1a2b3c4d… status: AWAITING_DEPLOY (the previous check, 15.0 s earlier, saw BUILDING)',
      'Revision 1a2b3c4d… status: DEPLOYED (the previous check, 15.0 s earlier, saw AWAITING_DEPLOY)',
    ]);
    expect(statusLines.join('\n')).not.toMatch(/after [\d.]+ s in /);
    // The callback's objects: later checks update lastSeenAt in place.
    expect(changes).toEqual([
      { status: 'QUEUED', at: START, lastSeenAt: START + 15_000 },
      { status: 'AWAITING_BUILD', at: START + 30_000, lastSeenAt: START + 30_000 },
      { status: 'BUILDING', at: START + 45_000, lastSeenAt: START + 75_000 },
      { status: 'AWAITING_DEPLOY', at: START + 90_000, lastSeenAt: START + 90_000 },
      { status: 'DEPLOYED', at: START + 105_000, lastSeenAt: START + 105_000 },
    ]);
  });

  it('keeps waiting through a status it does not know, and says so once', async () => {
    const { opts, logger } = setup([
      'BUILDING',
      'REBALANCING',
      'REBALANCING',
      'REBALANCING',
      'DEPLOYED',
    ]);
    const result = await waitForRevision(opts);
    expect(result.outcome).toBe('deployed');
    const mentions = logger.lines.filter((l) => l.message.includes('REBALANCING'));
    expect(mentions.filter((l) => l.message.includes('status: REBALANCING'))).toHaveLength(1);
    expect(mentions[0]?.message).toMatch(/not a status this action knows.*keeps waiting/);
    expect(result.pollCount).toBe(5);
  });

  it('follows INTERRUPTED on: a revision that goes on from it is followed to DEPLOYED', async () => {
    const { opts, client, logger } = setup(['BUILDING', 'INTERRUPTED', 'INTERRUPTED', 'DEPLOYED']);
    const result = await waitForRevision(opts);
    expect(result).toMatchObject({ outcome: 'deployed', status: 'DEPLOYED' });
    expect(client.revisionCalls).toHaveLength(4);
    const line = logger.messages('info').find((m) => m.includes('status: INTERRUPTED'));
    expect(line).toMatch(/not a final status; the action keeps waiting up to 5 minutes/);
  });

  it('ends the wait as a failure naming INTERRUPTED once it stays so for 5 minutes', async () => {
    const { opts, client, clock, logger } = setup(['BUILDING', 'INTERRUPTED']);
    const result = await waitForRevision(opts);
    expect(result).toMatchObject({ outcome: 'failed', status: 'INTERRUPTED' });
    const seen = client.revisionCalls.find((_, i) => i === 1)!.at;
    // Checked again right when the 5 minutes are over, not a poll interval later.
    expect(clock.now() - seen).toBe(REVISION_STATUS.INTERRUPTED.finalAfterMs);
    expect(logger.messages('info').at(-1)).toMatch(
      /stayed INTERRUPTED for 5 min 00 s.*stops waiting/,
    );
  });

  it('ends at the timeout as a failure naming INTERRUPTED when that comes first', async () => {
    const { opts, clock } = setup(['INTERRUPTED'], { timeoutS: 60 });
    const result = await waitForRevision(opts);
    expect(result).toMatchObject({ outcome: 'failed', status: 'INTERRUPTED' });
    expect(clock.now() - START).toBe(60_000);
  });

  it('still times out on an in-progress status at the deadline', async () => {
    const { opts } = setup(['BUILDING'], { timeoutS: 60 });
    await expect(waitForRevision(opts)).rejects.toThrow(/last status was BUILDING/);
  });

  it('uses the revision its create call answered instead of a first read', async () => {
    const { opts, client, changes } = setup(['DEPLOYED']);
    const result = await waitForRevision({ ...opts, initial: revision(REVISION, 'QUEUED') });
    expect(changes.map((c) => c.status)).toEqual(['QUEUED', 'DEPLOYED']);
    expect(result.pollCount).toBe(2);
    expect(client.revisionCalls).toHaveLength(1);
  });

  for (const status of ['UNKNOWN']) {
    it(`treats ${status} as still in progress`, async () => {
      const { opts, logger } = setup(['BUILDING', status, status, 'BUILDING', 'DEPLOYED']);
      const result = await waitForRevision(opts);
      expect(result.outcome).toBe('deployed');
      const lines = logger.messages('info').filter((m) => m.includes(`status: ${status}`));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/not a final status; the action keeps waiting/);
    });
  }

  it('shows status_message with the status, and again when it changes (neutralised)', async () => {
    const withMessage = (status: string, message: string | null) => async () => ({
      ...revision(REVISION, status),
      status_message: message,
    });
    const { opts, logger } = setup([
      withMessage('BUILDING', null),
      withMessage('BUILDING', 'Installing dependencies'),
      withMessage('BUILDING', 'Installing dependencies'),
      withMessage('BUILD_FAILED', 'pip failed\n::error::forged'),
    ]);
    const result = await waitForRevision(opts);
    expect(result.status).toBe('BUILD_FAILED');
    const lines = logger.messages('info').filter((m) => m.includes('status:'));
    expect(lines).toHaveLength(3);
    expect(lines[0]).not.toContain(' — ');
    expect(lines[1]).toMatch(/status: BUILDING — Installing dependencies$/);
    expect(lines[2]).toMatch(/status: BUILD_FAILED .* — pip failed/);
    expect(lines[2]).not.toContain('\n');
    expect(lines[2]).not.toContain('::error::');
  });

  it('calls onPoll after every successful check, without waiting for it', async () => {
    const { opts, client } = setup(['QUEUED', 'BUILDING', 'BUILDING', 'DEPLOYED']);
    const polled: string[] = [];
    let release!: () => void;
    const never = new Promise<void>((resolve) => (release = resolve));
    const result = await waitForRevision({
      ...opts,
      onPoll: (status) => {
        polled.push(status);
        void never; // work of its own that the wait must not await
      },
    });
    release();
    expect(result.outcome).toBe('deployed');
    expect(polled).toEqual(['QUEUED', 'BUILDING', 'BUILDING', 'DEPLOYED']);
    expect(client.revisionCalls).toHaveLength(4);
  });

  it('the gaps between checks are the same with and without onPoll', async () => {
    const steps = ['QUEUED', 'AWAITING_BUILD', 'BUILDING', 'BUILDING', 'BUILDING', 'DEPLOYED'];
    const plain = setup(steps);
    await waitForRevision(plain.opts);
    const hooked = setup(steps);
    await waitForRevision({ ...hooked.opts, onPoll: () => undefined });
    const times = (c: FakePlane) => c.revisionCalls.map((r) => r.at);
    expect(times(hooked.client)).toEqual(times(plain.client));
  });

  it('a failing status callback does not end the wait', async () => {
    const { opts } = setup(['BUILDING', 'DEPLOYED']);
    const result = await waitForRevision({
      ...opts,
      onStatus: () => {
        throw new Error('comment update failed');
      },
    });
    expect(result.outcome).toBe('deployed');
  });

  it('earlier revisions that cannot be read change nothing but a debug line', async () => {
    const { opts, client, logger } = setup(['BUILDING', 'DEPLOYED']);
    client.earlier = apiError(500);
    const result = await waitForRevision(opts);
    expect(result.outcome).toBe('deployed');
    expect(
      logger.lines.some((l) => l.level === 'debug' && /earlier revisions/.test(l.message)),
    ).toBe(true);
  });
});

describe('waitForRevision through faults', () => {
  const transient = (): Error[] => [
    apiError(503),
    apiError(undefined),
    Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
    Object.assign(new Error('request sent, no answer'), { name: 'OutcomeUnknownError' }),
    apiError(502),
    apiError(500),
    new TypeError('fetch failed'),
    apiError(504),
    apiError(408),
  ];

  it('9 failed checks in a row, then success, still succeeds', async () => {
    const { opts, logger } = setup(['BUILDING', ...transient(), 'DEPLOYED']);
    const result = await waitForRevision(opts);
    expect(result.outcome).toBe('deployed');
    expect(result.pollCount).toBe(11);
    expect(logger.messages('info').filter((m) => m.includes('keeps waiting'))).toHaveLength(9);
  });

  it('failures that are not in a row do not add up', async () => {
    const { opts } = setup(['BUILDING', ...transient(), 'BUILDING', ...transient(), 'DEPLOYED']);
    expect((await waitForRevision(opts)).outcome).toBe('deployed');
  });

  it('10 failed checks in a row end the wait: the platform seems down', async () => {
    const { opts, client } = setup(['BUILDING', ...transient(), apiError(503), 'DEPLOYED']);
    const error = await waitForRevision(opts).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ActionError);
    expect(error).not.toBeInstanceOf(DeadlineError);
    const message = (error as Error).message;
    expect(message).toMatch(/seems to be down/);
    expect(message).toContain(DEPLOYMENT);
    expect(message).toContain(REVISION);
    expect(message).toContain('BUILDING');
    expect(client.revisionCalls).toHaveLength(11);
  });

  it('429 answers (rate limiting) do not count as failures', async () => {
    const { opts } = setup([
      'BUILDING',
      ...Array.from({ length: 12 }, () => apiError(429)),
      'DEPLOYED',
    ]);
    expect((await waitForRevision(opts)).outcome).toBe('deployed');
  });

  for (const status of [404, 401, 403]) {
    it(`a ${status} ends the wait at once`, async () => {
      const { opts, client } = setup(['BUILDING', apiError(status), 'DEPLOYED']);
      const error = await waitForRevision(opts).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(status);
      expect((error as Error).message).toContain(REVISION);
      expect((error as Error).message).toContain(DEPLOYMENT);
      if (status === 404) expect((error as Error).message).toMatch(/no longer exists/);
      expect(client.revisionCalls).toHaveLength(2);
    });
  }
});

describe('waitForRevision and the deadline', () => {
  it('times out naming the last status and both IDs, after a last check at the deadline', async () => {
    const { opts, client, clock, deadline } = setup(['QUEUED', 'BUILDING'], { timeoutS: 100 });
    const error = await waitForRevision(opts).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeadlineError);
    const message = (error as Error).message;
    expect(message).toContain('BUILDING');
    expect(message).toContain(DEPLOYMENT);
    expect(message).toContain(REVISION);
    expect(message).toMatch(/goes on on the platform/);
    expect(client.revisionCalls.at(-1)?.at).toBe(deadline.at);
    expect(clock.now()).toBe(deadline.at);
  });

  it('never sleeps past the deadline', async () => {
    const { opts, clock } = setup(['BUILDING'], { timeoutS: 37 });
    await expect(waitForRevision(opts)).rejects.toBeInstanceOf(DeadlineError);
    expect(clock.sleeps).toEqual([15_000, 15_000, 7_000]);
  });

  it('a deadline error from the HTTP layer becomes one that names the revision', async () => {
    const { opts } = setup(['BUILDING', new DeadlineError('retry budget exhausted')]);
    const error = await waitForRevision(opts).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeadlineError);
    expect((error as Error).message).toContain(REVISION);
    expect((error as Error).message).toContain('BUILDING');
  });

  it('a realistic deploy: no sleep above poll-interval or the time left, DEPLOYED seen fast', async () => {
    // QUEUED 10 s, AWAITING_BUILD 5 s, BUILDING 180 s, AWAITING_DEPLOY 5 s, DEPLOYING 90 s.
    const bounds: [number, string][] = [
      [10, 'QUEUED'],
      [15, 'AWAITING_BUILD'],
      [195, 'BUILDING'],
      [200, 'AWAITING_DEPLOY'],
      [290, 'DEPLOYING'],
    ];
    const statusAt = (now: number) =>
      bounds.find(([end]) => now - START < end * 1000)?.[1] ?? 'DEPLOYED';
    for (const [timeoutS, pollIntervalMs] of [
      [1800, 15_000],
      [300, 15_000],
      [1800, 7_000],
    ] as const) {
      const { opts, clock, client } = setup([], { timeoutS, pollIntervalMs, statusAt });
      const result = await waitForRevision(opts);
      expect(result.outcome).toBe('deployed');
      clock.sleeps.forEach((ms, i) => {
        expect(ms).toBeLessThanOrEqual(pollIntervalMs);
        expect(ms).toBeLessThanOrEqual(clock.remainingAtSleep[i]!);
      });
      const lag = client.revisionCalls.at(-1)!.at - (START + 290_000);
      expect(lag).toBeLessThan(2_000);
      // A fixed 5 s poller makes 59 checks here.
      if (pollIntervalMs === 15_000) expect(result.pollCount).toBeLessThanOrEqual(32);
    }
  });
});

describe('waitForRevision cancellation', () => {
  it('a cancel during a check that hangs ends the wait at once', async () => {
    const controller = new AbortController();
    const { opts, client } = setup([
      'BUILDING',
      () => {
        setImmediate(() => controller.abort(new Error('SIGTERM')));
        return new Promise<Revision>(() => undefined); // never answers
      },
    ]);
    const error = await waitForRevision({ ...opts, signal: controller.signal }).catch((e) => e);
    expect(error).toBeInstanceOf(CancelledError);
    const message = (error as Error).message;
    expect(message).toContain(DEPLOYMENT);
    expect(message).toContain(REVISION);
    expect(message).toContain('BUILDING');
    expect(message).toMatch(/goes on on the platform/);
    expect(client.revisionCalls).toHaveLength(2);
  });

  it('a cancel between checks stops before the next one', async () => {
    const controller = new AbortController();
    const { opts, client } = setup([
      'QUEUED',
      async () => {
        controller.abort(new Error('SIGINT'));
        return revision(REVISION, 'BUILDING');
      },
      'DEPLOYED',
    ]);
    const error = await waitForRevision({ ...opts, signal: controller.signal }).catch((e) => e);
    expect(error).toBeInstanceOf(CancelledError);
    expect(client.revisionCalls).toHaveLength(2);
  });

  it('a cancel during a real sleep rejects without waiting the sleep out', async () => {
    const controller = new AbortController();
    const { opts } = setup(['BUILDING']);
    const sleeping = {
      now: () => START,
      sleep: (_ms: number, signal?: AbortSignal) =>
        new Promise<void>((_, reject) => {
          signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
          setImmediate(() => controller.abort(new Error('SIGTERM')));
        }),
    };
    const error = await waitForRevision({
      ...opts,
      clock: sleeping,
      deadline: new Deadline(sleeping, START + 60_000),
      signal: controller.signal,
    }).catch((e) => e);
    expect(error).toBeInstanceOf(CancelledError);
  });

  it('an already cancelled run makes no check', async () => {
    const controller = new AbortController();
    controller.abort();
    const { opts, client } = setup(['DEPLOYED']);
    await expect(waitForRevision({ ...opts, signal: controller.signal })).rejects.toBeInstanceOf(
      CancelledError,
    );
    expect(client.revisionCalls).toHaveLength(0);
  });
});

describe('isTransientPollError', () => {
  it('retries server and network trouble, not answers that will not change', () => {
    expect(isTransientPollError(apiError(500))).toBe(true);
    expect(isTransientPollError(apiError(503))).toBe(true);
    expect(isTransientPollError(apiError(undefined))).toBe(true);
    expect(isTransientPollError(apiError(429))).toBe(true);
    expect(isTransientPollError(new TypeError('fetch failed'))).toBe(true);
    expect(isTransientPollError(Object.assign(new Error('x'), { code: 'ETIMEDOUT' }))).toBe(true);
    expect(isTransientPollError(new Error('x', { cause: { code: 'x' } }))).toBe(false);
    expect(
      isTransientPollError(
        new Error('x', { cause: Object.assign(new Error('y'), { code: 'EPIPE' }) }),
      ),
    ).toBe(true);
    for (const status of [400, 401, 403, 404, 409, 422]) {
      expect(isTransientPollError(apiError(status))).toBe(false);
    }
    expect(isTransientPollError(new CancelledError('The run was cancelled.'))).toBe(false);
    expect(isTransientPollError(new Error('bug'))).toBe(false);
    expect(isTransientPollError('string')).toBe(false);
  });
});

describe('waitForRevision progress during long phases', () => {
  /** The wait's info lines, each with the fake clock's time (seconds since START). */
  function timedLines(pollIntervalMs: number, buildMs: number) {
    const statusAt = (now: number) =>
      now - START < 20_000 ? 'QUEUED' : now - START < 20_000 + buildMs ? 'BUILDING' : 'DEPLOYED';
    const { opts, clock } = setup([], { pollIntervalMs, statusAt });
    const lines: [number, string][] = [];
    const logger = {
      ...opts.logger,
      info: (message: string) => void lines.push([(clock.now() - START) / 1000, message]),
    };
    return { run: () => waitForRevision({ ...opts, logger }), lines };
  }

  it('says at least once a minute which status it is still in, and for how long', async () => {
    const { run, lines } = timedLines(15_000, 10 * 60_000);
    await expect(run()).resolves.toMatchObject({ outcome: 'deployed' });
    const still = lines.filter(([, m]) => m.includes('still BUILDING'));
    expect(still.length).toBeGreaterThanOrEqual(9);
    expect(still[0]).toEqual([90, 'Revision 1a2b3c4d… still BUILDING (1 min 00 s)']);
    expect(still.at(-1)?.[1]).toMatch(/still BUILDING \(9 min 00 s\)$/);
    const times = lines.map(([t]) => t);
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(60);
  });

  it('keeps that pace with a poll-interval longer than a minute', async () => {
    const { run, lines } = timedLines(150_000, 5 * 60_000);
    await run();
    const times = lines.map(([t]) => t);
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    expect(lines.filter(([, m]) => m.includes('still BUILDING')).length).toBeGreaterThanOrEqual(3);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(60);
  });

  it('speaks as often as every four checks when polling faster (a quick simulator)', async () => {
    const { run, lines } = timedLines(1_000, 10_000);
    await run();
    const still = lines.filter(([, m]) => m.includes('still BUILDING'));
    expect(still.map(([t, m]) => [t, m.replace(/.*still/, 'still')])).toEqual([
      [24, 'still BUILDING (4.0 s)'],
      [28, 'still BUILDING (8.0 s)'],
    ]);
  });
});
