/**
 * `npx tsx bench/hostile.ts [--dist DIR/index.js]`: what hostile answers cost the built action,
 * measured, never asserted (the goals are in INTERFACE.md, "Untrusted text never drives the
 * runner"). `E2E_DIST` (or `--dist`) picks another build, e.g. the base commit's, for a before
 * and after:
 *
 * - peak RSS of the action when the control plane answers the lookup with 192 MiB;
 * - time to fail when the agent server's `/ok` answers a redirect (timeout 30 s);
 * - time from the result line to the process exit while the background revisions list hangs;
 * - time to fail the pre-flight of a `langgraph.json` with 2,000 broken webhook headers (the
 *   checks must stay linear: each finding once, its line found without rescanning the text).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { dist: { type: 'string' } } });
if (values.dist) process.env.E2E_DIST = values.dist;
// Imported after E2E_DIST is set: run-action reads it at load.
const { runAction, DIST } = await import('../scripts/run-action.js');
const { startSimulator } = await import('../simulator/index.js');

const MiB = 1024 * 1024;
const ANSWER_MIB = 192;

/** Reports the process's peak RSS on stderr as it exits (loaded with --require). */
function rssProbe(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rss-'));
  const file = join(dir, 'probe.cjs');
  writeFileSync(
    file,
    "process.on('exit', () => require('node:fs').writeSync(2, `\\nMAXRSS_KB ${process.resourceUsage().maxRSS}\\n`));\n",
  );
  return file;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function peakRssOnHugeAnswer(): Promise<{
  rssMiB: number;
  code: number | null;
  error: string;
}> {
  const chunk = Buffer.alloc(MiB, ' ');
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    // No Content-Length: the client must count as it reads.
    let sent = 0;
    const pump = () => {
      while (sent < ANSWER_MIB) {
        sent++;
        const last = sent === ANSWER_MIB;
        const ok = res.write(last ? Buffer.from(' {"resources": [], "offset": 0}') : chunk);
        if (last) return res.end();
        if (!ok) return res.once('drain', pump);
      }
    };
    res.on('error', () => undefined);
    req.on('close', () => res.destroy());
    pump();
  });
  const url = await listen(server);
  try {
    const result = await runAction({
      inputs: {
        'api-key': 'bench-key',
        'control-plane-url': url,
        name: 'huge-answer',
        'integration-id': '5c1a4b2e-8f3d-4e6a-9b7c-0d1e2f3a4b5c',
        timeout: '60',
      },
      env: { NODE_OPTIONS: `--require ${rssProbe()}` },
      timeoutMs: 120_000,
    });
    const kb = Number(/MAXRSS_KB (\d+)/.exec(result.stderr)?.[1] ?? NaN);
    const error = result.annotations.find((a) => a.kind === 'error')?.message ?? '(none)';
    return { rssMiB: kb / 1024, code: result.code, error: error.slice(0, 160) };
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

async function redirectingOk(): Promise<{ seconds: number; code: number | null }> {
  const sim = await startSimulator({ timeline: [{ status: 'DEPLOYED', durationMs: 0 }] });
  try {
    const seeded = sim.seedDeployment({
      name: 'redirecting',
      repoUrl: 'https://github.com/acme/agent',
    });
    sim.inject({
      kind: 'status',
      method: 'GET',
      path: /^\/agents\/[^/]+\/ok$/,
      status: 302,
      headers: { location: 'https://login.example/ok' },
      times: 100_000,
    });
    const result = await runAction({
      inputs: {
        'api-key': sim.apiKey,
        'control-plane-url': sim.url,
        'deployment-id': seeded.id,
        'poll-interval': '0.2',
        timeout: '30',
      },
      timeoutMs: 120_000,
    });
    return { seconds: result.elapsedMs / 1000, code: result.code };
  } finally {
    await sim.close();
  }
}

async function hangingBackground(): Promise<{ afterResultSeconds: number; code: number | null }> {
  const sim = await startSimulator({ timeline: [{ status: 'DEPLOYED', durationMs: 0 }] });
  try {
    const seeded = sim.seedDeployment({
      name: 'hanging',
      repoUrl: 'https://github.com/acme/agent',
    });
    sim.inject({
      kind: 'hang',
      method: 'GET',
      path: `/v2/deployments/${seeded.id}/revisions`,
      times: 100,
    });
    let resultAt: number | undefined;
    const started = performance.now();
    const result = await runAction({
      inputs: {
        'api-key': sim.apiKey,
        'control-plane-url': sim.url,
        'deployment-id': seeded.id,
        'poll-interval': '0.2',
        timeout: '40',
      },
      signal: {
        name: 'SIGINT',
        when: (stdout) => {
          if (resultAt === undefined && /is live/.test(stdout)) resultAt = performance.now();
          return false;
        },
      },
      timeoutMs: 180_000,
    });
    const exitAt = started + result.elapsedMs;
    return {
      afterResultSeconds: ((exitAt - (resultAt ?? exitAt)) as number) / 1000,
      code: result.code,
    };
  } finally {
    await sim.close();
  }
}

/** The action run on a checkout whose langgraph.json holds 2,000 broken headers: fails before any request. */
async function largeBrokenConfig(): Promise<{
  seconds: number;
  code: number | null;
  errors: number;
}> {
  const workspace = mkdtempSync(join(tmpdir(), 'ws-preflight-'));
  const headers: Record<string, string> = {};
  for (let i = 0; i < 2000; i++) headers[`X-H${i}`] = `\${{ env.TOKEN_${i} }}`;
  const config = {
    dependencies: ['.'],
    graphs: { agent: './agent.py:graph' },
    webhooks: { headers },
  };
  writeFileSync(join(workspace, 'langgraph.json'), JSON.stringify(config, null, 2));
  writeFileSync(join(workspace, 'agent.py'), 'graph = None\n');
  const result = await runAction({
    inputs: {
      'api-key': 'lsv2_bench',
      'control-plane-url': 'http://127.0.0.1:9',
      name: 'preflight',
      // With secrets given, the `${{ env.* }}` references are checked before any request.
      secrets: 'OTHER=1',
      'repo-url': 'https://github.com/acme/agent',
      'integration-id': '00000000-0000-4000-8000-000000000000',
    },
    workspace,
    timeoutMs: 120_000,
  });
  const errors = result.annotations.filter((a) => a.kind === 'error').length;
  return { seconds: result.elapsedMs / 1000, code: result.code, errors };
}

console.log(`bundle: ${DIST}`);
const rss = await peakRssOnHugeAnswer();
console.log(
  `peak RSS with a ${ANSWER_MIB} MiB answer: ${rss.rssMiB.toFixed(0)} MiB (exit ${rss.code}; error: ${rss.error})`,
);
const redirect = await redirectingOk();
console.log(
  `time to fail on a redirecting /ok: ${redirect.seconds.toFixed(2)} s (exit ${redirect.code})`,
);
const hang = await hangingBackground();
console.log(
  `time from result to exit, revisions list hanging: ${hang.afterResultSeconds.toFixed(2)} s (exit ${hang.code})`,
);
const broken = await largeBrokenConfig();
console.log(
  `time to fail the pre-flight of 2,000 broken headers: ${broken.seconds.toFixed(2)} s (exit ${broken.code}; ${broken.errors} ::error lines)`,
);
