/**
 * Benchmark of the conversation tests (not a test: nothing is asserted). A 12-case file, two
 * turns each, against the simulator's agent server where every run takes 0.5 s, over loopback
 * HTTP with the real SDK and the action's HTTP layer, feedback on (default key `ci`).
 *
 *   npx tsx bench/conversation-tests.ts [--rounds N]
 *
 * Prints the wall time of each round, its median, and the largest number of runs the agent
 * server had in flight at once. The floor with four cases at a time is 12 / 4 × 2 × 0.5 s = 3 s.
 */
import { parseArgs } from 'node:util';
import { startSimulator } from '../simulator/index.js';
import type { Logger } from '../src/lib/untrusted.js';
import { Deadline, systemClock } from '../src/lib/time.js';
import { runConversationTests } from '../src/verify/conversation-tests.js';
import { parseTestsFile } from '../src/inputs/tests-file.js';
import { median } from './stats.js';

const CASES = 12;
const TURNS = 2;
const RUN_MS = 500;

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' } } });
const rounds = Math.max(1, Number(values.rounds) || 5);

const yaml = [
  'cases:',
  ...Array.from({ length: CASES }, (_, i) =>
    [
      `  - name: case ${i + 1}`,
      '    turns:',
      ...Array.from({ length: TURNS }, (_, t) =>
        [
          `      - input: {messages: [{role: user, content: "turn ${t + 1}"}]}`,
          `        expect: {contains: "You said: turn ${t + 1}"}`,
        ].join('\n'),
      ),
      `    checkpoints: ${TURNS * 2}`,
    ].join('\n'),
  ),
].join('\n');
const parsed = parseTestsFile(yaml, 'bench.yaml');
if (!parsed.ok) throw new Error(parsed.problems.join('\n'));

const quiet: Logger = {
  info: () => undefined,
  debug: () => undefined,
  notice: () => undefined,
  warning: (m) => console.warn(m),
  error: (m) => console.error(m),
};

const sim = await startSimulator();
const walls: number[] = [];
const maxInFlight: number[] = [];
try {
  for (let round = 1; round <= rounds; round++) {
    sim.reset();
    const id = sim.seedDeployment({ name: 'bench' }).id;
    sim.agent(id).runDelayMs = RUN_MS;
    const started = performance.now();
    const result = await runConversationTests(
      {
        http: {
          clock: systemClock,
          deadline: new Deadline(systemClock, systemClock.now() + 120 * 1000),
          logger: quiet,
        },
        config: { apiKey: sim.apiKey },
        logger: quiet,
      },
      { url: sim.agentUrl(id), file: 'bench.yaml', cases: parsed.cases, feedbackKey: 'ci' },
    );
    const wall = performance.now() - started;
    const runs = sim.agentRuns();
    walls.push(wall);
    maxInFlight.push(runs.maxInFlight);
    console.log(
      `round ${round}: ${(wall / 1000).toFixed(2)} s, ${result.passed}/${CASES} passed, ` +
        `${runs.started} runs, at most ${runs.maxInFlight} in flight, ` +
        `${sim.feedback().length} verdicts recorded`,
    );
  }
} finally {
  await sim.close();
}
console.log(
  `\n${CASES} cases × ${TURNS} turns, ${RUN_MS} ms per run: median wall time ` +
    `${(median(walls) / 1000).toFixed(2)} s (floor ${((CASES / 4) * TURNS * RUN_MS) / 1000} s); ` +
    `largest number of runs in flight: ${Math.max(...maxInFlight)}.`,
);
