/**
 * `source: upload`: archive and upload a generated tree (mostly incompressible) with the built
 * action to the simulator's storage server, against `tar -czf` of the same tree in the same
 * run; and the action's peak RSS for two tree sizes (it should not grow with the tree: the
 * archive is streamed to a temporary file and from it).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, runAction } from '../scripts/run-action.js';
import { startSimulator } from '../simulator/index.js';
import { bytes, seconds } from './stats.js';

export interface UploadRun {
  treeMb: number;
  tarMs: number;
  tarBytes: number;
  actionMs: number;
  archiveBytes: number;
  maxRssKb: number;
}

export interface UploadResults {
  runs: UploadRun[];
}

const MB = 1024 * 1024;

/** A tree of `mb` MiB: 1 MiB random files in folders, plus a few source files that compress. */
function generateTree(mb: number): string {
  const root = mkdtempSync(join(tmpdir(), `bench-upload-${mb}-`));
  writeFileSync(
    join(root, 'langgraph.json'),
    JSON.stringify({ dependencies: ['.'], graphs: { agent: './agent/graph.py:graph' } }),
  );
  mkdirSync(join(root, 'agent'));
  for (let i = 0; i < 50; i++) {
    writeFileSync(
      join(root, 'agent', `module_${i}.py`),
      `def f_${i}():\n    return ${i}\n`.repeat(200),
    );
  }
  writeFileSync(join(root, 'agent', 'graph.py'), 'graph = None\n');
  for (let i = 0; i < mb; i++) {
    const dir = join(root, 'data', `part-${Math.floor(i / 16)}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `blob-${i}.bin`), randomBytes(MB));
  }
  return root;
}

function timeTar(tree: string, out: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn('tar', ['-czf', out, '-C', tree, '.'], { stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(performance.now() - started) : reject(new Error(`tar exited ${code}`)),
    );
  });
}

export async function benchUpload(options: {
  sizesMb: number[];
  progress: (line: string) => void;
}): Promise<UploadResults> {
  const sim = await startSimulator({
    timeline: [
      { status: 'QUEUED', durationMs: 10 },
      { status: 'DEPLOYED', durationMs: 0 },
    ],
  });
  const runs: UploadRun[] = [];
  try {
    for (const mb of options.sizesMb) {
      options.progress(`upload: generating a ${mb} MB tree…`);
      const tree = generateTree(mb);
      const scratch = mkdtempSync(join(tmpdir(), 'bench-tar-'));
      try {
        options.progress(`upload: tar -czf of ${mb} MB…`);
        const tarFile = join(scratch, 'tree.tar.gz');
        const tarMs = await timeTar(tree, tarFile);
        const tarBytes = statSync(tarFile).size;
        rmSync(tarFile);
        options.progress(`upload: the action on ${mb} MB…`);
        const result = await runAction({
          workspace: tree,
          timeoutMs: 600_000,
          env: {
            NODE_OPTIONS: `--import ${pathToFileURL(join(ROOT, 'bench', 'rss-probe.mjs')).href}`,
          },
          inputs: {
            'api-key': sim.apiKey,
            'control-plane-url': sim.url,
            name: `bench-upload-${mb}-${runs.length}`,
            source: 'upload',
            wait: 'false',
            timeout: '600',
          },
        });
        if (result.code !== 0) {
          throw new Error(
            `the action failed on the ${mb} MB tree:\n${result.stdout}\n${result.stderr}`,
          );
        }
        const rss = /bench-max-rss-kb=(\d+)/.exec(result.stderr)?.[1];
        const stored = [...sim.storage.objects.values()].at(-1);
        runs.push({
          treeMb: mb,
          tarMs,
          tarBytes,
          actionMs: result.elapsedMs,
          archiveBytes: stored?.bytes ?? 0,
          maxRssKb: rss ? Number(rss) : NaN,
        });
      } finally {
        rmSync(tree, { recursive: true, force: true });
        rmSync(scratch, { recursive: true, force: true });
      }
    }
  } finally {
    await sim.close();
  }
  return { runs };
}

export const UPLOAD_TIME_GOAL_RATIO = 1.5;
export const UPLOAD_RSS_GOAL_BYTES = 150e6;

export function uploadSection(
  results: UploadResults,
  goals: { goal: string; measured: string; pass: boolean }[],
): string {
  const rows = results.runs.map((r) => [
    `${r.treeMb} MB`,
    seconds(r.tarMs),
    seconds(r.actionMs),
    `${(r.actionMs / r.tarMs).toFixed(2)}×`,
    bytes(r.archiveBytes),
    bytes(r.maxRssKb * 1024),
  ]);
  const biggest = results.runs.reduce((a, b) => (b.treeMb > a.treeMb ? b : a));
  const smallest = results.runs.reduce((a, b) => (b.treeMb < a.treeMb ? b : a));
  const ratio = biggest.actionMs / biggest.tarMs;
  goals.push({
    goal: `source upload: archive + upload of ${biggest.treeMb} MB within ${UPLOAD_TIME_GOAL_RATIO}× \`tar -czf\``,
    measured: `${ratio.toFixed(2)}× (${seconds(biggest.actionMs)} vs ${seconds(biggest.tarMs)})`,
    pass: ratio <= UPLOAD_TIME_GOAL_RATIO,
  });
  const peak = Math.max(...results.runs.map((r) => r.maxRssKb * 1024));
  const growth = (biggest.maxRssKb - smallest.maxRssKb) * 1024;
  goals.push({
    goal: 'source upload: peak RSS under 150 MB, flat from the smallest to the largest tree',
    measured: `${bytes(peak)} peak; ${bytes(growth)} more at ${biggest.treeMb} MB than at ${smallest.treeMb} MB`,
    pass: peak < UPLOAD_RSS_GOAL_BYTES && growth < 16e6,
  });
  const header = [
    'tree',
    '`tar -czf`',
    'action (archive + upload)',
    'ratio',
    'archive',
    'peak RSS',
  ];
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [
    '## 4. Source upload',
    '',
    'A generated tree (1 MiB random files, plus some source files), archived and uploaded by the ' +
      'built action (`source: upload`, `wait: false`, so the time is the whole run: start, ' +
      'archive, create, upload-url, PUT to the loopback storage server, PATCH) against `tar -czf` ' +
      'of the same tree in the same run. Peak RSS of the action process (`resourceUsage().maxRSS`).',
    '',
    [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n'),
  ].join('\n');
}
