/**
 * Scale: many deploys at once (a matrix job) against one API key under a rate limit, each one
 * the real action following a time-scaled realistic deploy. All should succeed, the 429s are
 * counted, and no name may end up with two deployments.
 */
import { runAction } from '../scripts/run-action.js';
import { scaleTimeline, startSimulator } from '../simulator/index.js';
import { msUntilDeployed, NOMINAL_DEPLOY_MS, realisticTimeline } from './lag.js';
import { seededRandom } from './stats.js';

export interface ScaleOptions {
  deploys: number;
  /** Requests per window of real time; the window is scaled like the deploys. */
  rateLimit: { requests: number; windowMs: number };
  replayMs: number;
  seed: number;
  progress?: (line: string) => void;
}

export interface ScaleResults {
  deploys: number;
  scale: number;
  /** As given (real time) and as applied (scaled). */
  rateLimit: { requests: number; windowMs: number };
  scaledWindowMs: number;
  succeeded: number;
  failures: string[];
  totalRequests: number;
  tooManyRequests: number;
  /** Creates the simulator accepted (POST answered 201). */
  creates: number;
  /** Names with more than one deployment in the simulator at the end. */
  duplicateNames: string[];
  /** Names with no deployment at all at the end. */
  missingNames: string[];
  wallMs: number;
  /** The longest (scaled) deploy of the batch, for comparison with wallMs. */
  longestDeployMs: number;
}

const INTEGRATION_ID = '00000000-0000-4000-8000-0000000017e6';

export async function benchScale(options: ScaleOptions): Promise<ScaleResults> {
  const scale = options.replayMs / NOMINAL_DEPLOY_MS;
  // The limit applies in wall time, not scaled: the 20 runs' requests really compete for it
  // (a window scaled to 1/29 would let every burst through and prove nothing).
  const scaledWindowMs = options.rateLimit.windowMs;
  const random = seededRandom(options.seed + 2);
  const timelines = Array.from({ length: options.deploys }, () =>
    scaleTimeline(realisticTimeline(random), scale),
  );
  const sim = await startSimulator({
    timeline: timelines[0],
    rateLimit: { requests: options.rateLimit.requests, windowMs: scaledWindowMs },
  });
  try {
    // Each new revision takes the next queued timeline, whichever run creates it.
    for (const timeline of timelines) sim.queueTimeline(timeline);
    const names = timelines.map((_, i) => `bench-scale-${i}`);
    const started = performance.now();
    let done = 0;
    const runs = await Promise.all(
      names.map(async (name) => {
        try {
          const result = await runAction({
            inputs: {
              'api-key': sim.apiKey,
              'control-plane-url': sim.url,
              name,
              'integration-id': INTEGRATION_ID,
              'repo-ref': 'main',
              'poll-interval': String(15 * scale),
              timeout: String(1800 * scale),
              'health-check': 'false',
              'pr-comment': 'false',
            },
            timeoutMs: 1800 * scale * 1000 + 30_000,
          });
          const ok = result.code === 0 && result.outputs.status === 'DEPLOYED';
          const error = result.annotations.find((a) => a.kind === 'error')?.message;
          return ok
            ? undefined
            : `${name}: exit ${String(result.code)}, status ${result.outputs.status ?? '(none)'}` +
                (error ? `: ${error}` : '');
        } catch (error) {
          return `${name}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
        } finally {
          options.progress?.(`scale: ${++done}/${names.length} deploys done`);
        }
      }),
    );
    const wallMs = performance.now() - started;

    const perName = new Map<string, number>();
    for (const d of sim.deployments()) perName.set(d.name, (perName.get(d.name) ?? 0) + 1);
    const failures = runs.filter((r): r is string => r !== undefined);
    return {
      deploys: options.deploys,
      scale,
      rateLimit: options.rateLimit,
      scaledWindowMs,
      succeeded: options.deploys - failures.length,
      failures,
      totalRequests: sim.requests.length,
      tooManyRequests: sim.requests.filter((r) => r.status === 429).length,
      creates: sim.requests.filter((r) => r.method === 'POST' && r.status === 201).length,
      duplicateNames: [...perName].filter(([, n]) => n > 1).map(([name]) => name),
      missingNames: names.filter((name) => !perName.has(name)),
      wallMs,
      longestDeployMs: Math.max(...timelines.map(msUntilDeployed)),
    };
  } finally {
    await sim.close();
  }
}
