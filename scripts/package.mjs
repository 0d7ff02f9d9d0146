// Bundles src/index.ts into dist/ (committed; the runner executes dist/index.js).
//
// esbuild rather than ncc, measured here: ncc puts everything in one CommonJS file that loads
// @actions/core, undici and zod at start (~1.9x a bare `node -e 0`); esbuild's ESM output
// with code splitting keeps the entry small and leaves the GitHub client, the agent-server
// SDK and the rest in chunks loaded only by the runs that need them (`npm run bench`).
import { build } from 'esbuild';
import { rmSync } from 'node:fs';

// `--outdir DIR` builds elsewhere (for parallel test runs); the committed bundle is dist/.
const flag = process.argv.indexOf('--outdir');
const outdir = flag > 0 ? process.argv[flag + 1] : 'dist';
rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: { index: 'src/index.ts' },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  // Prefer ESM builds: jsonc-parser's `main` is a UMD file whose dynamic require()s break
  // once bundled.
  mainFields: ['module', 'main'],
  target: 'node20',
  minify: true,
  legalComments: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
  // Some dependencies are CommonJS and call require(); give the ESM bundle one.
  banner: {
    js: "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);",
  },
  logLevel: 'warning',
});
