import { describe, expect, it } from '@jest/globals';
import type { Revision } from '../../src/api/schemas.js';
import {
  historyFromRevisions,
  nextPollDelay,
  statusStartEstimate,
  type DeployHistory,
  type PollState,
} from '../../src/deployment/poll-policy.js';

// ---------------------------------------------------------------------------------------------
// A pure simulation of the wait loop against the reference deploy: no clock, no I/O.

/** mulberry32: small seeded PRNG, so every run of the suite sees the same scenarios. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PHASES: [string, number][] = [
  ['QUEUED', 10_000],
  ['AWAITING_BUILD', 5_000],
  ['BUILDING', 180_000],
  ['AWAITING_DEPLOY', 5_000],
  ['DEPLOYING', 90_000],
];

interface Scenario {
  phases: { status: string; from: number; to: number }[];
  deployedAt: number;
}

/** BUILDING and DEPLOYING ±40 % (uniform), as the bench replays them (`allVary`: every phase). */
function scenario(random: () => number, scale = 1, allVary = true): Scenario {
  const phases: Scenario['phases'] = [];
  let t = 0;
  for (const [status, nominal] of PHASES) {
    const varies = allVary || status === 'BUILDING' || status === 'DEPLOYING';
    const ms = nominal * (varies ? 0.6 + 0.8 * random() : 1) * scale;
    phases.push({ status, from: t, to: t + ms });
    t += ms;
  }
  return { phases, deployedAt: t };
}

function statusAt(s: Scenario, t: number): string {
  if (t >= s.deployedAt) return 'DEPLOYED';
  return s.phases.find((p) => t >= p.from && t < p.to)?.status ?? 'QUEUED';
}

type Policy = (state: PollState) => number;

/**
 * What waitForRevision does: check at once, then sleep what the policy says. A new status is
 * timed from its start as `updated_at` tells it (`datesKnown`), or from the check that saw it.
 */
function simulate(
  s: Scenario,
  policy: Policy,
  pollIntervalMs: number,
  history?: DeployHistory,
  datesKnown = true,
): { requests: number; lagMs: number } {
  let t = 0;
  let requests = 0;
  let last: string | undefined;
  let since = 0;
  let previous = 0;
  const iso = (ms: number) => new Date(Date.parse('2026-01-01T00:00:00Z') + ms).toISOString();
  for (;;) {
    requests++;
    const status = statusAt(s, t);
    if (status === 'DEPLOYED') return { requests, lagMs: t - s.deployedAt };
    const changed = status !== last;
    if (changed) {
      const began = s.phases.find((p) => p.status === status)?.from ?? t;
      since =
        last === undefined || !datesKnown
          ? t
          : statusStartEstimate({
              created_at: iso(0),
              updated_at: iso(began),
              waitStartedAt: 0,
              previousCheckAt: previous,
              now: t,
            });
      last = status;
    }
    previous = t;
    const delay = policy({
      status,
      msInStatus: t - since,
      history,
      pollIntervalMs,
    });
    if (!(delay > 0)) throw new Error(`policy returned ${delay} for ${status}`);
    t += delay;
    if (requests > 10_000) throw new Error('policy never reached DEPLOYED');
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Earlier revisions of the same deployment, as the control plane would list them. */
function earlierRevisions(random: () => number, count: number, scale: number): Revision[] {
  const base = Date.parse('2026-01-01T00:00:00Z');
  return Array.from({ length: count }, (_, i) => {
    const created = base + i * 3_600_000;
    return revision(`old-${i}`, 'DEPLOYED', created, created + scenario(random, scale).deployedAt);
  });
}

function benchmark(
  policy: Policy,
  options: {
    runs?: number;
    seed?: number;
    scale?: number;
    withHistory?: boolean;
    allVary?: boolean;
    datesKnown?: boolean;
  } = {},
) {
  const { runs = 200, seed = 1, scale = 1, withHistory = false, allVary = true } = options;
  const random = prng(seed);
  const lags: number[] = [];
  const requests: number[] = [];
  const fixed: number[] = [];
  for (let i = 0; i < runs; i++) {
    const s = scenario(random, scale, allVary);
    const history = withHistory
      ? historyFromRevisions(earlierRevisions(random, 5, scale), 'current')
      : undefined;
    if (withHistory) expect(history).toBeDefined();
    const ours = simulate(s, policy, 15_000 * scale, history, options.datesKnown ?? true);
    lags.push(ours.lagMs / scale);
    requests.push(ours.requests);
    fixed.push(simulate(s, () => 5_000 * scale, 15_000 * scale).requests);
  }
  return {
    medianLagMs: median(lags),
    p95LagMs: quantile(lags, 0.95),
    medianRequests: median(requests),
    fixed5s: median(fixed),
  };
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  return sorted[lo]! + (sorted[Math.ceil(pos)]! - sorted[lo]!) * (pos - lo);
}

describe('nextPollDelay against the reference deploy (290 s, phases ±40 %)', () => {
  for (const withHistory of [false, true]) {
    const label = withHistory ? 'with history' : 'without history';

    it(`${label}: median lag under 1 s with about half the requests of a 5 s poller`, () => {
      for (const seed of [1, 2, 3]) {
        const r = benchmark(nextPollDelay, { seed, withHistory });
        expect(r.fixed5s).toBeGreaterThanOrEqual(55); // the reference poller makes ~58
        expect(r.medianLagMs).toBeLessThan(1_000);
        // Half, give or take three requests (the price of the tighter tail; see RESULTS.md).
        expect(r.medianRequests).toBeLessThanOrEqual(r.fixed5s / 2 + 3);
      }
    });

    it(`${label}: the same holds ten times faster with poll-interval 1.5 s`, () => {
      const r = benchmark(nextPollDelay, { seed: 4, scale: 0.1, withHistory });
      expect(r.medianLagMs).toBeLessThan(1_000); // lag is reported at the reference scale
      expect(r.medianRequests).toBeLessThanOrEqual(r.fixed5s / 2 + 4);
    });
  }

  for (const withHistory of [false, true]) {
    it(`the bench's deploy (only BUILDING and DEPLOYING vary), ${withHistory ? 'with' : 'without'} history: median lag under 1 s, p95 about 3 s (under 3.3 s), at most 31 requests`, () => {
      for (const seed of [1, 2]) {
        const r = benchmark(nextPollDelay, { seed, withHistory, allVary: false, runs: 1000 });
        expect(r.medianLagMs).toBeLessThan(1_000);
        expect(r.p95LagMs).toBeLessThan(3_300);
        expect(r.medianRequests).toBeLessThanOrEqual(31);
      }
    });
  }

  it('without usable revision dates the tail is longer (DEPLOYING is timed from when it was seen)', () => {
    const dated = benchmark(nextPollDelay, { allVary: false, runs: 1000 });
    const undated = benchmark(nextPollDelay, { allVary: false, runs: 1000, datesKnown: false });
    expect(undated.p95LagMs).toBeGreaterThan(dated.p95LagMs + 1_000);
  });

  it('the simulation tells policies apart (a fixed max gap misses, a 1 s poller overspends)', () => {
    const slow = benchmark((s) => s.pollIntervalMs);
    expect(slow.medianLagMs).toBeGreaterThan(2_000);
    const eager = benchmark((s) => s.pollIntervalMs / 15);
    expect(eager.medianLagMs).toBeLessThan(2_000);
    expect(eager.medianRequests).toBeGreaterThan(eager.fixed5s / 2);
  });
});

// ---------------------------------------------------------------------------------------------

function state(overrides: Partial<PollState>): PollState {
  return {
    status: 'BUILDING',
    msInStatus: 0,
    pollIntervalMs: 15_000,
    ...overrides,
  };
}

const STATUSES = [
  'CREATING',
  'QUEUED',
  'AWAITING_BUILD',
  'BUILDING',
  'AWAITING_DEPLOY',
  'DEPLOYING',
  'INTERRUPTED',
  'UNKNOWN',
  'SOMETHING_NEW',
];

function allStates(pollIntervalMs: number): PollState[] {
  const out: PollState[] = [];
  const histories: (DeployHistory | undefined)[] = [
    undefined,
    { typicalTotalMs: 290_000, samples: 5 },
    { typicalTotalMs: 600_000, samples: 1 },
    { typicalTotalMs: 120_000, samples: 3 },
    { typicalTotalMs: 50 * 290_000, samples: 9 }, // far off the interval's scale: ignored
  ];
  for (const status of STATUSES) {
    for (let s = 0; s <= 400; s += 2.5) {
      for (const history of histories) {
        out.push(
          state({
            status,
            msInStatus: s * 1000 * (pollIntervalMs / 15_000),
            pollIntervalMs,
            history: history && {
              ...history,
              typicalTotalMs: history.typicalTotalMs * (pollIntervalMs / 15_000),
            },
          }),
        );
      }
    }
  }
  return out;
}

/** States whose delay is not the reference state's delay divided by `factor`. */
function mismatches(reference: PollState[], scaled: PollState[], factor: number) {
  return reference
    .map((s, i) => ({ s, expected: nextPollDelay(s) / factor, got: nextPollDelay(scaled[i]!) }))
    .filter(({ expected, got }) => Math.abs(expected - got) > 1e-6 * Math.max(1, expected));
}

describe('nextPollDelay bounds and scaling', () => {
  it('never exceeds poll-interval nor goes below poll-interval / 15', () => {
    for (const pollIntervalMs of [15_000, 1_500, 60_000, 7_000]) {
      const outside = allStates(pollIntervalMs).filter((s) => {
        const delay = nextPollDelay(s);
        return !(delay <= pollIntervalMs && delay >= pollIntervalMs / 15 - 1e-9);
      });
      expect(outside).toEqual([]);
    }
  });

  it('halving the interval (and the times it sees) halves every delay', () => {
    const full = allStates(15_000);
    const half = allStates(7_500);
    expect(half).toHaveLength(full.length);
    expect(mismatches(full, half, 2)).toEqual([]);
  });

  it('a tenth of the interval gives a tenth of every delay', () => {
    const full = allStates(15_000);
    expect(mismatches(full, allStates(1_500), 10)).toEqual([]);
  });

  it('waits the longest gap in long phases and in statuses it does not know', () => {
    for (const status of ['CREATING', 'QUEUED', 'AWAITING_BUILD', 'BUILDING', 'INTERRUPTED']) {
      expect(nextPollDelay(state({ status, msInStatus: 30_000 }))).toBe(15_000);
      expect(nextPollDelay(state({ status }))).toBe(15_000);
    }
    expect(nextPollDelay(state({ status: 'UNKNOWN' }))).toBe(15_000);
    expect(nextPollDelay(state({ status: 'BRAND_NEW_STATUS', msInStatus: 90_000 }))).toBe(15_000);
  });

  it('waits the longest gap in AWAITING_DEPLOY too (DEPLOYING is timed from its updated_at)', () => {
    expect(nextPollDelay(state({ status: 'AWAITING_DEPLOY' }))).toBe(15_000);
  });

  it('no DEPLOYING end (54–126 s at the reference) is left more than 3.3 s without a check', () => {
    let t = 0;
    const checks: number[] = [];
    while (t <= 130_000) {
      checks.push(t);
      t += nextPollDelay(state({ status: 'DEPLOYING', msInStatus: t }));
    }
    const gaps = checks.slice(1).map((c, i) => ({ at: checks[i]!, gap: c - checks[i]! }));
    const inWindow = gaps.filter((g) => g.at + g.gap > 54_000 && g.at < 126_000);
    // The longest an end inside the window waits for the next check.
    const worst = inWindow.map((g) => g.at + g.gap - Math.max(g.at, 54_000));
    expect(Math.max(...worst)).toBeLessThanOrEqual(3_300 + 1e-6);
    // Denser once half of the ends have passed.
    expect(Math.max(...inWindow.filter((g) => g.at >= 90_000).map((g) => g.gap))).toBeLessThan(
      1_500,
    );
    // Sparse before: no check is wasted before the earliest end but the landing one.
    expect(checks.filter((c) => c > 0 && c < 54_000).length).toBeLessThanOrEqual(3);
  });

  it('polls DEPLOYING sparsely early and densely (under 2 s) once its end is likely', () => {
    expect(nextPollDelay(state({ status: 'DEPLOYING' }))).toBe(15_000);
    expect(nextPollDelay(state({ status: 'DEPLOYING', msInStatus: 20_000 }))).toBe(15_000);
    const middle = nextPollDelay(state({ status: 'DEPLOYING', msInStatus: 70_000 }));
    expect(middle).toBeLessThan(15_000);
    expect(middle).toBeGreaterThan(2_000);
    for (const s of [90_000, 100_000, 120_000]) {
      expect(nextPollDelay(state({ status: 'DEPLOYING', msInStatus: s }))).toBeLessThan(2_000);
    }
  });

  it('backs off again, up to the longest gap, when DEPLOYING lasts far longer than usual', () => {
    const late = [150_000, 200_000, 300_000, 3_600_000].map((msInStatus) =>
      nextPollDelay(state({ status: 'DEPLOYING', msInStatus })),
    );
    expect(late[0]).toBeGreaterThan(2_000);
    for (let i = 1; i < late.length; i++) expect(late[i]).toBeGreaterThanOrEqual(late[i - 1]!);
    expect(late.at(-1)).toBe(15_000);
  });

  it('with history of slower deploys, densifies later in DEPLOYING', () => {
    const slow: DeployHistory = { typicalTotalMs: 580_000, samples: 5 };
    const at = (msInStatus: number, history?: DeployHistory) =>
      nextPollDelay(state({ status: 'DEPLOYING', msInStatus, history }));
    expect(at(100_000)).toBeLessThan(2_000);
    expect(at(90_000, slow)).toBeGreaterThan(2_000);
    expect(at(200_000, slow)).toBeLessThan(2_000);
    // A history of typical deploys changes nothing.
    expect(at(100_000, { typicalTotalMs: 290_000, samples: 5 })).toBe(at(100_000));
  });

  it('ignores a history wildly off the poll interval’s time scale', () => {
    const absurd: DeployHistory = { typicalTotalMs: 290_000 * 50, samples: 5 };
    for (const msInStatus of [30_000, 70_000, 100_000, 200_000]) {
      expect(nextPollDelay(state({ status: 'DEPLOYING', msInStatus, history: absurd }))).toBe(
        nextPollDelay(state({ status: 'DEPLOYING', msInStatus })),
      );
    }
  });

  it('falls back to the default interval when given a non-positive one', () => {
    expect(nextPollDelay(state({ pollIntervalMs: 0 }))).toBe(15_000);
    expect(nextPollDelay(state({ pollIntervalMs: Number.NaN }))).toBe(15_000);
  });
});

// ---------------------------------------------------------------------------------------------

function revision(id: string, status: string, created: number, updated: number): Revision {
  return {
    id,
    status,
    created_at: new Date(created).toISOString(),
    updated_at: new Date(updated).toISOString(),
    source: 'github',
    source_revision_config: {},
  };
}

describe('statusStartEstimate', () => {
  const created = '2026-03-01T10:00:00.000Z';
  const at = (s: number) => new Date(Date.parse(created) + s * 1000).toISOString();
  const base = {
    created_at: created,
    waitStartedAt: 1_000,
    previousCheckAt: 200_000,
    now: 215_000,
  };

  it('times the status from updated_at, counted from the start of the wait', () => {
    expect(statusStartEstimate({ ...base, updated_at: at(205) })).toBe(206_000);
  });

  it('keeps the estimate between the previous check and this one', () => {
    expect(statusStartEstimate({ ...base, updated_at: at(100) })).toBe(200_000);
    expect(statusStartEstimate({ ...base, updated_at: at(900) })).toBe(215_000);
  });

  it('falls back to this check when the dates are unusable', () => {
    expect(statusStartEstimate({ ...base, updated_at: 'yesterday' })).toBe(215_000);
    expect(statusStartEstimate({ ...base, updated_at: at(-5) })).toBe(215_000);
    expect(statusStartEstimate({ ...base, updated_at: created })).toBe(215_000);
  });
});

describe('historyFromRevisions', () => {
  const t0 = Date.parse('2026-03-01T10:00:00Z');
  const deployed = (id: string, seconds: number) =>
    revision(id, 'DEPLOYED', t0, t0 + seconds * 1000);

  it('is the median created → updated time of earlier DEPLOYED revisions', () => {
    const h = historyFromRevisions(
      [deployed('a', 300), deployed('b', 200), deployed('c', 250)],
      'current',
    );
    expect(h).toEqual({ typicalTotalMs: 250_000, samples: 3 });
    expect(historyFromRevisions([deployed('a', 300), deployed('b', 200)], 'x')).toEqual({
      typicalTotalMs: 250_000,
      samples: 2,
    });
  });

  it('skips the current revision, other statuses and absurd or unreadable durations', () => {
    const revisions = [
      deployed('current', 10),
      revision('failed', 'BUILD_FAILED', t0, t0 + 50_000),
      revision('skipped', 'SKIPPED', t0, t0 + 60_000),
      deployed('negative', -100),
      deployed('instant', 0),
      deployed('weeks', 14 * 24 * 3600),
      { ...deployed('garbled', 100), created_at: 'not a date' },
      deployed('good', 280),
    ];
    expect(historyFromRevisions(revisions, 'current')).toEqual({
      typicalTotalMs: 280_000,
      samples: 1,
    });
  });

  it('is undefined without any usable revision', () => {
    expect(historyFromRevisions([], 'current')).toBeUndefined();
    expect(historyFromRevisions([deployed('current', 300)], 'current')).toBeUndefined();
  });
});
