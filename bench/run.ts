/**
 * `npm run bench`: a benchmark, not a test. It measures the built action (`dist/`, from
 * `npm run package`) against the simulator and prints a table, with the goals next to the
 * numbers (PASS/MISS: measured, never asserted; the exit code does not depend on them).
 *
 *   --quick             fewer replays and rounds
 *   --write             also write this benchmark's section of bench/RESULTS.md (table,
 *                       date, Node version, cores); the rest of the file is kept
 *   --only lag|cold|scale   one part only (repeatable, or comma-separated)
 *   --seed N            seed of the ±40 % variations (default 20240611)
 */
import { existsSync, writeFileSync } from 'node:fs';
import { readIfExists, replaceSection } from './results-file.js';
import { availableParallelism, cpus, platform, release } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DIST, ROOT } from '../scripts/run-action.js';
import { benchColdStart, type ColdStartResults } from './cold-start.js';
import { benchLag, NOMINAL_DEPLOY_MS, PHASES, type LagResults, type PollerResults } from './lag.js';
import { benchScale, type ScaleResults } from './scale.js';
import { bytes, count, median, millis, p95, seconds } from './stats.js';

const PARTS = ['lag', 'cold', 'scale'] as const;
type Part = (typeof PARTS)[number];

/** Wall time of one nominal (290 s) replay. */
const REPLAY_MS = 10_000;
const DIST_INDEX_LIMIT_BYTES = 1_500_000;
const LAG_GOAL_MS = 2_000;
const COLD_START_GOAL_RATIO = 1.25;

interface Settings {
  quick: boolean;
  write: boolean;
  parts: Part[];
  seed: number;
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
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(
      'Usage: npm run bench -- [--quick] [--write] [--only lag|cold|scale] [--seed N]\n' +
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
  return {
    quick: values.quick,
    write: values.write,
    parts: only.length > 0 ? PARTS.filter((p) => only.includes(p)) : [...PARTS],
    seed,
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

function lagSection(lag: LagResults, goals: Goal[]): string {
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
      goal: `Median detection lag under 2 s (${which})`,
      measured: seconds(ours.lag),
      pass: ours.lag < LAG_GOAL_MS,
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

function coldSection(cold: ColdStartResults, goals: Goal[]): string {
  goals.push({
    goal: 'Cold start within 25 % of the bare-Node floor',
    measured: `${cold.ratio.toFixed(2)}× (${millis(cold.medianActionMs)} vs ${millis(cold.medianNodeMs)})`,
    pass: cold.ratio <= COLD_START_GOAL_RATIO && cold.problem === undefined,
  });
  goals.push({
    goal: 'dist/index.js under 1.5 MB',
    measured: bytes(cold.indexBytes),
    pass: cold.indexBytes < DIST_INDEX_LIMIT_BYTES,
  });
  return [
    '## 2. Cold start',
    '',
    `Median of ${cold.rounds} interleaved rounds; the action fails on an input error (empty ` +
      'api-key, every other input at its default), so this is its start-up cost alone. The ' +
      'environment is the one the runner gives a step (as scripts/run-action.ts builds it); the ' +
      'goal is judged on it.',
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
  if (!existsSync(DIST)) {
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
    const lag = await benchLag({
      replays: q ? 4 : 48,
      concurrency: q ? 4 : 8,
      replayMs: REPLAY_MS,
      seed: settings.seed,
      progress,
    });
    sections.push(lagSection(lag, goals));
  }
  if (settings.parts.includes('cold')) {
    progress('cold start…');
    const cold = await benchColdStart({ rounds: q ? 10 : 30, warmup: q ? 1 : 3, progress });
    sections.push(coldSection(cold, goals));
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
