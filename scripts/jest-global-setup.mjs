// Jest global setup: the end-to-end tests run a bundle built from the current source, never
// a stale dist/. It is built into a temporary folder (so dist/ stays as committed; CI checks
// separately that dist/ matches src/) and named in E2E_DIST, which the test workers inherit.
// A bundle given in E2E_DIST already (a parallel run, a bundle under test) is used as is.
// A run whose test path patterns select no end-to-end test (`npm test -- __tests__/inputs`)
// builds nothing: ncc type-checks as it bundles, which takes about half a minute.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Whether the run's path patterns (none: every test) select an end-to-end test. */
function selectsEndToEndTests(globalConfig) {
  const patterns = globalConfig?.testPathPatterns;
  if (!patterns?.isSet?.() || typeof patterns.toExecutor !== 'function') return true;
  const executor = patterns.toExecutor({ rootDir: globalConfig.rootDir ?? ROOT });
  const e2e = join(ROOT, '__tests__', 'e2e');
  return readdirSync(e2e)
    .filter((name) => name.endsWith('.test.ts'))
    .some((name) => executor.isMatch(join(e2e, name)));
}

export default function globalSetup(globalConfig) {
  if (process.env.E2E_DIST || !selectsEndToEndTests(globalConfig)) return;
  const outdir = mkdtempSync(join(tmpdir(), 'e2e-dist-'));
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'package.mjs'), '--outdir', outdir], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  process.env.E2E_DIST = join(outdir, 'index.js');
  process.env.E2E_DIST_BUILT_BY_SETUP = outdir;
}
