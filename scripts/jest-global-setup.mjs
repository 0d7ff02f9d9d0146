// Jest global setup: the end-to-end tests run a bundle built from the current source, never
// a stale dist/. It is built into a temporary folder (so dist/ stays as committed; CI checks
// separately that dist/ matches src/) and named in E2E_DIST, which the test workers inherit.
// A bundle given in E2E_DIST already (a parallel run, a bundle under test) is used as is.
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

export default function globalSetup() {
  if (process.env.E2E_DIST) return;
  const outdir = mkdtempSync(join(tmpdir(), 'e2e-dist-'));
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'package.mjs'), '--outdir', outdir], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  process.env.E2E_DIST = join(outdir, 'index.js');
  process.env.E2E_DIST_BUILT_BY_SETUP = outdir;
}
