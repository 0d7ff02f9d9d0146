/**
 * `npm run bench`: a benchmark, not a test. It measures the built action (`dist/`, from
 * `npm run package`) against the simulator and prints a table, with the goals next to the
 * numbers (PASS/MISS: measured, never asserted; the exit code does not depend on them).
 *
 *   --quick             fewer replays and rounds
 *   --write             also write this benchmark's section of bench/RESULTS.md (table,
 *                       date, Node version, cores); the rest of the file is kept
 *   --only lag|cold|scale|rerun|interrupt|upload|monorepo|eval   some parts only (repeatable, or comma-separated)
 *   --replays N         replays of the lag part per history setting (default 48; --quick 4)
 *   --concurrency N     lag replays at once (default 8; --quick 4): fewer on a loaded machine
 *   --seed N            seed of the ±40 % variations (default 20240611)
 */
import { existsSync, writeFileSync } from 'node:fs';
import { readIfExists, replaceSection } from './results-file.js';
import { availableParallelism, cpus, platform, release } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DIST, ROOT } from '../scripts/run-action.js';
import { benchColdStart, type ColdStartResults } from './cold-start.js';
import {
  benchLag,
  modelLag,
  NOMINAL_DEPLOY_MS,
  PHASES,
  type LagModel,
  type LagResults,
  type PollerResults,
} from './lag.js';
import { benchScale, type ScaleResults } from './scale.js';
import {
  benchRerun,
  benchSecondPush,
  type RerunResults,
  type SecondPushResults,
  type SecondPushRound,
} from './pushes.js';
import { bytes, count, median, millis, p95, seconds } from './stats.js';
import { benchUpload, uploadSection } from './upload.js';
import { benchMonorepo, monorepoSection } from './monorepo.js';
import { benchEval, evalSection } from './eval.js';
import { actionEvaluation } from './eval-action.js';

const PARTS = ['lag', 'cold', 'scale', 'rerun', 'interrupt', 'upload', 'monorepo', 'eval'] as const;
type Part = (typeof PARTS)[number];

/** Wall time of one nominal (290 s) replay. */
const REPLAY_MS = 10_000;
/** The tail goal (issue #18): median lag, p95 lag and status requests of our policy. */
const LAG_GOAL_MS = 1_000;
const LAG_P95_GOAL_MS = 3_000;
const STATUS_REQUESTS_GOAL = 30;
/** A re-run of a live commit: at most this fraction of a full deploy's wall time. */
const RERUN_GOAL_RATIO = 0.05;

interface Settings {
  quick: boolean;
  write: boolean;
  parts: Part[];
  seed: number;
  /** Lag replays per history setting; undefined: the default for --quick or not. */
  replays?: number;
  /** Lag replays at once; undefined: the default. */
  concurrency?: number;
}

function parseCli(argv: string[]): Settings {
  try {
    return parseSettings(argv);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

function parseSettings(argv: string[]): Settings {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean', default: false },
      write: { type: 'boolean', default: false },
      only: { type: 'string', multiple: true },
      seed: { type: 'string' },
      replays: { type: 'string' },
      concurrency: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(
      'Usage: npm run bench -- [--quick] [--write] [--only lag|cold|scale|rerun|interrupt|upload|monorepo|eval] ' +
        '[--replays N] [--concurrency N] [--seed N]\n' +
        'Run `npm run package` first: the bench measures dist/index.js.',
    );
    process.exit(0);
  }
  const only = (values.only ?? []).flatMap((v) => v.split(',')).map((v) => v.trim());
  for (const part of only) {
    if (!(PARTS as readonly string[]).includes(part)) {
      throw new Error(`--only ${part}: expected one of ${PARTS.join(', ')}.`);
    }
  }
  const seed = values.seed === undefined ? 20240611 : Number(values.seed);
  if (!Number.isInteger(seed)) throw new Error(`--seed ${values.seed}: expected an integer.`);
  const replays = values.replays === undefined ? undefined : Number(values.replays);
  if (replays !== undefined && !(Number.isInteger(replays) && replays >= 1)) {
    throw new Error(`--replays ${values.replays}: expected a whole number of at least 1.`);
  }
  const concurrency = values.concurrency === undefined ? undefined : Number(values.concurrency);
  if (concurrency !== undefined && !(Number.isInteger(concurrency) && concurrency >= 1)) {
    throw new Error(`--concurrency ${values.concurrency}: expected a whole number of at least 1.`);
  }
  return {
    quick: values.quick,
    write: values.write,
    parts: only.length > 0 ? PARTS.filter((p) => only.includes(p)) : [...PARTS],
    seed,
    ...(replays !== undefined ? { replays } : {}),
    ...(concurrency !== undefined ? { concurrency } : {}),
  };
}

const startedAt = performance.now();
function progress(line: string): void {
  const t = ((performance.now() - startedAt) / 1000).toFixed(0).padStart(4);
  process.stderr.write(`[${t} s] ${line}\n`);
}

// ---------------------------------------------------------------- table rendering

function table(head: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}

interface Goal {
  goal: string;
  measured: string;
  pass: boolean;
}

const scaleLabel = (scale: number) => `1/${(1 / scale).toFixed(0)}`;

/** The model of the same replays: what the policy allows, whatever the machine's load. */
function modelSection(model: LagModel): string {
  const rows: string[][] = [];
  for (const config of model.configs) {
    const history = config.history ? 'yes' : 'no';
    const pollers = [
      { label: 'our policy (poll-interval 15 s)', obs: config.ours },
      ...config.fixed.map((obs, k) => ({ label: `fixed ${[3, 5, 60][k]} s`, obs })),
    ];
    for (const p of pollers) {
      rows.push([
        history,
        p.label,
        seconds(median(p.obs.map((o) => o.lagMs))),
        seconds(p95(p.obs.map((o) => o.lagMs))),
        count(median(p.obs.map((o) => o.statusRequests))),
      ]);
    }
  }
  return [
    'The same replays through a model of the wait loop (no request takes time, no timer fires ' +
      'late: what the policy itself allows, whatever the load of the machine; the goal rows ' +
      'above are judged on the measured table):',
    '',
    table(['history', 'poller', 'median lag', 'p95 lag', 'status requests (median)'], rows),
    '',
    'Why these goals sit at the limit of this deploy: DEPLOYING ends anywhere in 54–126 s, ' +
      'evenly. A median lag of 1 s needs half of those 72 s of possible ends seen within 1 s, ' +
      'and one check covers at most 1 s of them that way: at least 36 checks inside the window. ' +
      'A p95 of 3 s needs gaps of at most about 3.3 s wherever an end is possible. The median ' +
      'replay (BUILDING ≈ 180 s, DEPLOYING ≈ 90 s) already pays about 14 checks before DEPLOYING ' +
      '(the longest gap is `poll-interval`, 15 s) and 4 to reach 57 s, then 10 at 3.3 s up to ' +
      '90 s: about 28–29. So the policy checks every 3.3 s until 90 s and every 1.2 s after (ends ' +
      'the median replay does not pay for), which puts all three at their limit together: a ' +
      'tighter tail or median costs more than 30 requests on the median replay, fewer requests ' +
      'miss a lag goal. It rests on timing DEPLOYING from its `updated_at`: from the check that ' +
      'first saw it (up to 15 s late) the p95 is 5–6 s. History shifts the window by the ' +
      'typical duration of earlier revisions, which in these replays is drawn independently of ' +
      'the current one (±8 %), hence a slightly longer tail with it. On a loaded machine the ' +
      'measured rows are worse than the model: at 1/29 of real time, every 100 ms a timer fires ' +
      'late or a request waits for the CPU adds 2.9 s of (scaled) lag; the fixed pollers suffer ' +
      'the same.',
  ].join('\n');
}

function lagSection(lag: LagResults, goals: Goal[], model?: LagModel): string {
  const phases = PHASES.map((p) => `${p.status} ${p.seconds} s${p.varies ? ' ±40 %' : ''}`).join(
    ', ',
  );
  const rows: string[][] = [];
  const stat = (p: PollerResults) => {
    const ok = p.observations.filter((o) => o.ok);
    return {
      ok,
      lag: median(ok.map((o) => o.lagMs)),
      lag95: p95(ok.map((o) => o.lagMs)),
      status: median(ok.map((o) => o.statusRequests)),
      all: median(ok.map((o) => o.allRequests)),
    };
  };
  const detectToExit: number[] = [];
  const failures: string[] = [];
  for (const config of lag.configs) {
    const history = config.history ? 'yes' : 'no';
    for (const poller of [config.ours, ...config.fixed]) {
      const s = stat(poller);
      rows.push([
        history,
        poller.label,
        `${s.ok.length}/${poller.observations.length}`,
        seconds(s.lag),
        seconds(s.lag95),
        count(s.status),
        count(s.all),
      ]);
      for (const o of poller.observations) {
        if (o.detectToExitMs !== undefined) detectToExit.push(o.detectToExitMs);
        if (!o.ok) failures.push(`${poller.label}, history ${history}: ${o.error ?? 'failed'}`);
      }
    }
    const ours = stat(config.ours);
    const five = stat(config.fixed.find((f) => f.intervalS === 5)!);
    const which = config.history ? 'with earlier revisions' : 'without earlier revisions';
    goals.push({
      goal: `Our policy beats the fixed 5 s poller on both axes (${which})`,
      measured:
        `lag ${seconds(ours.lag)} vs ${seconds(five.lag)}; ` +
        `${count(ours.status)} vs ${count(five.status)} status requests (at most ${count(five.status / 2)})`,
      pass: ours.lag < five.lag && ours.status <= five.status / 2,
    });
    goals.push({
      goal:
        `Median lag ≤ ${seconds(LAG_GOAL_MS, 1)}, p95 ≤ ${seconds(LAG_P95_GOAL_MS, 1)}, at most ` +
        `${STATUS_REQUESTS_GOAL} status requests (${which})`,
      measured:
        `median ${seconds(ours.lag)}, p95 ${seconds(ours.lag95)} (5 s poller: ` +
        `${seconds(five.lag95)}); ${count(ours.status)} requests`,
      pass:
        ours.lag <= LAG_GOAL_MS &&
        ours.lag95 <= LAG_P95_GOAL_MS &&
        ours.status <= STATUS_REQUESTS_GOAL,
    });
  }
  const uniqueFailures = [...new Set(failures)];
  const buckets = deployingBuckets(lag);
  return [
    '## 1. Detection lag and request count',
    '',
    `A ${NOMINAL_DEPLOY_MS / 1000} s deploy (${phases}) replayed at ${scaleLabel(lag.scale)} ` +
      `of real time (one replay ≈ ${(REPLAY_MS / 1000).toFixed(0)} s), ${lag.replays} replays per ` +
      `history setting, seeded. Each replay runs our action (\`node dist/index.js\`, poll-interval ` +
      `${lag.pollIntervalS} s scaled) and the fixed-interval pollers side by side in one simulator. ` +
      'Lags are scaled back to real seconds: from the moment the revision became DEPLOYED to the ' +
      'first status request at or after it. History: the deployment has earlier DEPLOYED ' +
      'revisions (created → updated ≈ 290 s, scaled).',
    '',
    table(
      [
        'history',
        'poller',
        'ok',
        'median lag',
        'p95 lag',
        'status requests (median)',
        'all requests (median)',
      ],
      rows,
    ),
    '',
    ...(model ? [modelSection(model), ''] : []),
    'Median lag by the length of the DEPLOYING phase (real seconds; replays of both history ' +
      'settings):',
    '',
    table(['DEPLOYING', 'replays', ...buckets.labels], buckets.rows),
    '',
    `Detection → exit of the action (unscaled, from the first request that saw DEPLOYED to the ` +
      `process exit): median ${millis(median(detectToExit))}, p95 ${millis(p95(detectToExit))} ` +
      `(${detectToExit.length} runs).`,
    ...(uniqueFailures.length > 0
      ? ['', 'Failed runs:', '', ...uniqueFailures.slice(0, 10).map((f) => `- ${f}`)]
      : []),
    '',
    `Wall time of this part: ${seconds(lag.wallMs, 0)}.`,
  ].join('\n');
}

/** Median lag of each poller for DEPLOYING phases in four equal ranges (54–126 s). */
function deployingBuckets(lag: LagResults): { labels: string[]; rows: string[][] } {
  const edges = [54, 72, 90, 108, 126].map((s) => s * 1000);
  const first = lag.configs[0];
  if (!first) return { labels: [], rows: [] };
  const labels = [first.ours, ...first.fixed].map((p) => p.label.replace(/ \(.*\)$/, ''));
  const rows: string[][] = [];
  for (let b = 0; b < edges.length - 1; b++) {
    const lo = edges[b]!;
    const hi = edges[b + 1]!;
    const inBucket = (i: number) => {
      const ms = lag.deployingMs[i]!;
      return ms >= lo && (ms < hi || (b === edges.length - 2 && ms <= hi));
    };
    const lags = labels.map((_, k) =>
      lag.configs.flatMap((c) => {
        const poller = [c.ours, ...c.fixed][k]!;
        return poller.observations.filter((o, i) => o.ok && inBucket(i)).map((o) => o.lagMs);
      }),
    );
    const replays = lag.deployingMs.filter((_, i) => inBucket(i)).length * lag.configs.length;
    rows.push([
      `${lo / 1000}–${hi / 1000} s`,
      String(replays),
      ...lags.map((l) => seconds(median(l))),
    ]);
  }
  return { labels, rows };
}

/** Start time and bundle size: information, not goals (issue #24: the one ncc bundle). */
function coldSection(cold: ColdStartResults): string {
  return [
    '## 2. Cold start',
    '',
    `Median of ${cold.rounds} interleaved rounds; the action fails on an input error (empty ` +
      'api-key, every other input at its default), so this is its start-up cost alone. The ' +
      'environment is the one the runner gives a step (as scripts/run-action.ts builds it). ' +
      'Information, not a goal: next to a deploy that takes minutes, tens of milliseconds do ' +
      'not matter, and `dist/` is the one ncc bundle (`npm run package`).',
    '',
    table(
      ['run', 'median', 'p95'],
      [
        ['`node -e 0` (the floor)', millis(cold.medianNodeMs), millis(p95(cold.nodeMs))],
        [
          '`node empty.mjs` (the floor + the ESM loader, for information)',
          millis(median(cold.esmMs)),
          millis(p95(cold.esmMs)),
        ],
        [
          '`node dist/index.js`, empty api-key',
          millis(cold.medianActionMs),
          millis(p95(cold.actionMs)),
        ],
        [
          '`node dist/index.js`, pre-flight failure (broken langgraph.json, nothing sent)',
          millis(median(cold.preflightMs)),
          millis(p95(cold.preflightMs)),
        ],
        ['ratio (medians)', `${cold.ratio.toFixed(2)}×`, ''],
        ...inheritedRows(cold),
        ['size of dist/index.js', bytes(cold.indexBytes), ''],
        [`size of dist/ (${cold.distFiles} files, for information)`, bytes(cold.distBytes), ''],
      ],
    ),
    ...(cold.problem ? ['', `Problem: ${cold.problem}`] : []),
  ].join('\n');
}

/** The same runs with the bench's own Node start-up variables, for information. */
function inheritedRows(cold: ColdStartResults): string[][] {
  const inh = cold.inherited;
  if (!inh) return [];
  const names = inh.names.join(', ');
  const node = median(inh.nodeMs);
  const action = median(inh.actionMs);
  return [
    [
      `\`node -e 0\` with this shell's ${names} (information)`,
      millis(node),
      millis(p95(inh.nodeMs)),
    ],
    [
      `\`node dist/index.js\` with this shell's ${names} (information)`,
      millis(action),
      millis(p95(inh.actionMs)),
    ],
    [`ratio with ${names} (information)`, `${(action / node).toFixed(2)}×`, ''],
  ];
}

function scaleSection(scale: ScaleResults, goals: Goal[]): string {
  goals.push({
    goal: `${scale.deploys} deploys at once under the rate limit all succeed`,
    measured: `${scale.succeeded}/${scale.deploys}`,
    pass: scale.succeeded === scale.deploys,
  });
  goals.push({
    goal: 'No duplicate deployment',
    measured:
      scale.duplicateNames.length === 0
        ? `one deployment per name (${scale.creates} creates accepted)`
        : `duplicates: ${scale.duplicateNames.join(', ')}`,
    pass: scale.duplicateNames.length === 0 && scale.missingNames.length === 0,
  });
  const rl = scale.rateLimit;
  return [
    '## 3. Scale',
    '',
    `${scale.deploys} runs of the action at once, one API key, each following a realistic deploy ` +
      `at ${scaleLabel(scale.scale)} of real time; rate limit ${rl.requests} requests per ` +
      `${rl.windowMs} ms of wall time (not scaled, so the runs really compete for it).`,
    '',
    table(
      ['measure', 'value'],
      [
        ['succeeded', `${scale.succeeded}/${scale.deploys}`],
        ['requests in all', String(scale.totalRequests)],
        ['requests per deploy', count(scale.totalRequests / scale.deploys)],
        ['429 answers', String(scale.tooManyRequests)],
        ['creates accepted (201)', String(scale.creates)],
        [
          'deployments per name',
          scale.duplicateNames.length === 0 && scale.missingNames.length === 0
            ? '1 each'
            : `duplicates: ${scale.duplicateNames.join(', ') || 'none'}; ` +
              `missing: ${scale.missingNames.join(', ') || 'none'}`,
        ],
        [
          'wall time (longest deploy, scaled)',
          `${seconds(scale.wallMs, 1)} (${seconds(scale.longestDeployMs, 1)})`,
        ],
      ],
    ),
    ...(scale.failures.length > 0
      ? ['', 'Failed runs:', '', ...scale.failures.slice(0, 10).map((f) => `- ${f}`)]
      : []),
  ].join('\n');
}

function rerunSection(rerun: RerunResults, goals: Goal[]): string {
  const ok = rerun.rounds.filter((r) => r.ok);
  const full = median(ok.map((r) => r.fullMs));
  const fullReal = median(ok.map((r) => r.fullRealMs));
  const again = median(ok.map((r) => r.rerunMs));
  const ratio = again / fullReal;
  const newRevisions = ok.reduce((sum, r) => sum + r.newRevisions, 0);
  const skipped = ok.filter((r) => r.skippedBuild).length;
  goals.push({
    goal: `Re-run of a live commit under ${(RERUN_GOAL_RATIO * 100).toFixed(0)} % of a full deploy, no new revision`,
    measured:
      `${(ratio * 100).toFixed(2)} % (${millis(again)} vs ${seconds(fullReal, 0)}); ` +
      `${newRevisions} new revisions in ${ok.length} re-runs`,
    pass:
      ok.length === rerun.rounds.length &&
      ok.length > 0 &&
      ratio < RERUN_GOAL_RATIO &&
      newRevisions === 0,
  });
  return [
    '## 4. Re-run of a live commit (`skip-unchanged`)',
    '',
    `${rerun.rounds.length} rounds, one at a time, each in its own simulator: a full deploy of a ` +
      `commit (create, the realistic deploy at ${scaleLabel(rerun.scale)} of real time, health ` +
      'check), then the same workflow run again for the same commit. Wall time of the whole step ' +
      '(spawn → exit of `node dist/index.js`). The full deploy at real speed is its revision’s ' +
      'created → DEPLOYED span scaled back plus the rest of its step as measured; the ratio ' +
      'against the scaled replay is the harshest reading (the deploy 29 times shorter than it is).',
    '',
    table(
      ['measure', 'value'],
      [
        ['full deploy at real speed (median)', seconds(fullReal, 1)],
        ['re-run (median)', millis(again)],
        ['ratio', `${(ratio * 100).toFixed(2)} %`],
        [
          'ratio against the scaled replay as measured (information)',
          `${((again / full) * 100).toFixed(1)} % of ${seconds(full, 2)}`,
        ],
        ['re-runs with skipped-build=true', `${skipped}/${ok.length}`],
        ['new revisions requested by the re-runs', String(newRevisions)],
      ],
    ),
    ...failuresOf(rerun.rounds),
    '',
    `Wall time of this part: ${seconds(rerun.wallMs, 0)}.`,
  ].join('\n');
}

function interruptSection(push: SecondPushResults, goals: Goal[]): string {
  const stat = (rounds: SecondPushRound[]) => {
    const ok = rounds.filter((r) => r.ok);
    return {
      ok,
      deployed: median(ok.map((r) => r.toDeployedMs)),
      deployed95: p95(ok.map((r) => r.toDeployedMs)),
      step: median(ok.map((r) => r.stepMs)),
      first: [...new Set(ok.map((r) => r.firstStatus))].join(', '),
    };
  };
  const withIt = stat(push.interrupt);
  const without = stat(push.queue);
  const ratio = withIt.deployed / without.deployed;
  goals.push({
    goal: 'A second push while the first builds is DEPLOYED sooner with interrupt-previous',
    measured:
      `${seconds(withIt.deployed, 0)} vs ${seconds(without.deployed, 0)} from the push ` +
      `(${(ratio * 100).toFixed(0)} %)`,
    pass: withIt.ok.length > 0 && without.ok.length > 0 && ratio < 1,
  });
  const row = (label: string, s: ReturnType<typeof stat>, rounds: SecondPushRound[]) => [
    label,
    `${s.ok.length}/${rounds.length}`,
    seconds(s.deployed, 1),
    seconds(s.deployed95, 1),
    seconds(s.step, 1),
    s.first,
  ];
  return [
    '## 5. Second push while the first revision builds (`interrupt-previous`)',
    '',
    `${push.interrupt.length} rounds per setting, each in its own simulator, which queues a new ` +
      'revision behind the one in progress (as the platform does). The first push starts a ' +
      `revision (realistic deploy at ${scaleLabel(push.scale)} of real time); ` +
      `${push.pushAfterS} s later (it is building) the second push runs the action. Times in ` +
      'real seconds: from the second PATCH to its revision becoming DEPLOYED (the simulator’s ' +
      'record), and the wall time of the second step, scaled back (which also multiplies its ' +
      'start-up, lookup and detection by 29: that column overstates them).',
    '',
    table(
      [
        'interrupt-previous',
        'ok',
        'push → DEPLOYED (median)',
        'p95',
        'step (median)',
        'first revision',
      ],
      [row('true', withIt, push.interrupt), row('false', without, push.queue)],
    ),
    '',
    `Ratio of the medians (push → DEPLOYED): ${(ratio * 100).toFixed(0)} %.`,
    ...failuresOf([...push.interrupt, ...push.queue]),
    '',
    `Wall time of this part: ${seconds(push.wallMs, 0)}.`,
  ].join('\n');
}

function failuresOf(rounds: { ok: boolean; error?: string }[]): string[] {
  const failures = [...new Set(rounds.filter((r) => !r.ok).map((r) => r.error ?? 'failed'))];
  return failures.length > 0 ? ['', 'Failed runs:', '', ...failures.map((f) => `- ${f}`)] : [];
}

function goalsSection(goals: Goal[]): string {
  return [
    '## Goals',
    '',
    table(
      ['goal', 'measured', 'result'],
      goals.map((g) => [g.goal, g.measured, g.pass ? 'PASS' : 'MISS']),
    ),
  ].join('\n');
}

async function markdown(text: string): Promise<string> {
  const prettier = await import('prettier');
  const options = await prettier.resolveConfig(join(ROOT, 'bench', 'RESULTS.md'));
  return prettier.format(text, { ...options, parser: 'markdown' });
}

// ---------------------------------------------------------------- main

async function main(): Promise<void> {
  const settings = parseCli(process.argv.slice(2));
  // The evaluation part runs in process against the simulator: it needs no bundle.
  if (settings.parts.some((p) => p !== 'eval') && !existsSync(DIST)) {
    console.error(`${DIST} is missing: run \`npm run package\` first.`);
    process.exitCode = 1;
    return;
  }
  const q = settings.quick;
  const sections: string[] = [];
  const goals: Goal[] = [];
  const wall = performance.now();

  if (settings.parts.includes('lag')) {
    progress('detection lag: replaying deploys…');
    const replays = settings.replays ?? (q ? 4 : 48);
    const lag = await benchLag({
      replays,
      concurrency: settings.concurrency ?? (q ? 4 : 8),
      replayMs: REPLAY_MS,
      seed: settings.seed,
      progress,
    });
    sections.push(lagSection(lag, goals, modelLag({ replays, seed: settings.seed })));
  }
  if (settings.parts.includes('cold')) {
    progress('cold start…');
    const cold = await benchColdStart({ rounds: q ? 10 : 30, warmup: q ? 1 : 3, progress });
    sections.push(coldSection(cold));
  }
  if (settings.parts.includes('scale')) {
    progress('scale: deploys at once…');
    const scale = await benchScale({
      deploys: 20,
      rateLimit: { requests: 30, windowMs: 1000 },
      replayMs: REPLAY_MS,
      seed: settings.seed,
      progress,
    });
    sections.push(scaleSection(scale, goals));
  }
  if (settings.parts.includes('rerun')) {
    progress('re-run of a live commit…');
    const rerun = await benchRerun({
      rounds: q ? 2 : 3,
      replayMs: REPLAY_MS,
      seed: settings.seed,
      progress,
    });
    sections.push(rerunSection(rerun, goals));
  }
  if (settings.parts.includes('interrupt')) {
    progress('second push while the first builds…');
    const push = await benchSecondPush({
      rounds: q ? 2 : 4,
      replayMs: REPLAY_MS,
      seed: settings.seed,
      progress,
    });
    sections.push(interruptSection(push, goals));
  }
  if (settings.parts.includes('upload')) {
    const upload = await benchUpload({ sizesMb: [50, 150], progress });
    sections.push(uploadSection(upload, goals));
  }
  if (settings.parts.includes('monorepo')) {
    const monorepo = await benchMonorepo({ progress });
    sections.push(monorepoSection(monorepo, goals));
  }
  if (settings.parts.includes('eval')) {
    const evaluation = await benchEval({
      progress,
      driver: actionEvaluation,
      driverName: "the action's `evaluate()` (src/verify/eval/, through bench/eval-action.ts)",
    });
    sections.push(evalSection(evaluation, goals));
  }
  progress('done');

  // Formatted as `npm run format` would (aligned tables; RESULTS.md passes format:check).
  const output = await markdown([goalsSection(goals), ...sections].join('\n\n'));
  console.log(output.trimEnd());

  if (settings.write) {
    const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
    const header = [
      `Written by \`npm run bench -- ${process.argv.slice(2).join(' ')}\` on ` +
        `${new Date().toISOString()}: Node ${process.version}, ` +
        (process.env.E2E_NODE ? `(the action: E2E_NODE=${process.env.E2E_NODE}), ` : '') +
        `${availableParallelism()} cores (${cpu}), ${platform()} ${release()}; ` +
        `seed ${settings.seed}; the bench took ${seconds(performance.now() - wall, 0)}. ` +
        'Goals are measured, not asserted.',
    ].join('\n');
    const file = join(ROOT, 'bench', 'RESULTS.md');
    // Only this benchmark's section: other benchmarks write their own sections of the file.
    const section = await markdown(`${header}\n\n${output.replace(/^## /gm, '### ')}`);
    writeFileSync(file, await markdown(replaceSection(readIfExists(file), section)));
    progress(`wrote the polling section of ${file}`);
  }
}

class UsageError extends Error {}

main().catch((error: unknown) => {
  if (error instanceof UsageError) console.error(`${error.message} (see --help)`);
  else console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exitCode = 1;
});
