// Bundles the action into dist/ (committed; the runner executes dist/index.js) with @vercel/ncc:
// one entry, src/index.ts, and the licenses of everything bundled in dist/licenses.txt. The
// package is `"type": "module"`, so ncc emits ESM (with a dist/package.json that says so).
// The features loaded with `import()` (the agent-server SDK, the tests-file parser) become
// numbered files beside index.js. ncc type-checks as it builds (tsconfig.json), so a type error
// fails the build.
//
// `--outdir DIR` builds elsewhere (the Jest global setup builds a private bundle for the
// end-to-end tests); the committed bundle is dist/.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const flag = process.argv.indexOf('--outdir');
const outdir = resolve(ROOT, flag > 0 ? process.argv[flag + 1] : 'dist');

// Stale numbered chunks of an earlier build must not stay behind.
rmSync(outdir, { recursive: true, force: true });
const cli = join(dirname(createRequire(import.meta.url).resolve('@vercel/ncc')), 'cli.js');
execFileSync(
  process.execPath,
  [
    cli,
    'build',
    'src/index.ts',
    '--out',
    outdir,
    '--license',
    'licenses.txt',
    '--minify',
    '--quiet',
  ],
  { cwd: ROOT, stdio: 'inherit' },
);
