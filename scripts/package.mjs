// Bundles the action into dist/ (committed; the runner executes dist/index.js).
//
// Two parts, chosen by measurement (`npm run bench`, cold start):
// - dist/index.js: the entry (inputs and workflow commands only), one CommonJS file, marked
//   so by dist/package.json. A run that fails on an input error loads nothing else and ends
//   in about the time Node needs to start (an ESM entry costs ~5 ms more to load, a split
//   one with shared chunks ~10 ms more, and ncc's single bundle, which loads @actions/core
//   and undici at start, ~40 ms more).
// - dist/flow.mjs and dist/chunks/*.mjs: everything after the inputs are valid, ESM with code
//   splitting, so the GitHub client and the agent-server SDK load only in runs that use them.
import { build } from 'esbuild';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

// `--outdir DIR` builds elsewhere (for parallel test runs); the committed bundle is dist/.
const flag = process.argv.indexOf('--outdir');
const outdir = flag > 0 ? process.argv[flag + 1] : 'dist';
rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });
writeFileSync(join(outdir, 'package.json'), '{ "type": "commonjs" }\n');

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  minify: true,
  legalComments: 'linked',
  // Prefer ESM builds: jsonc-parser's `main` is a UMD file whose dynamic require()s break
  // once bundled.
  mainFields: ['module', 'main'],
  logLevel: 'warning',
};

// The flow: the entry loads it with import('./flow.js'), which becomes ./flow.mjs here. The
// tests-file validator (and its YAML parser) likewise: import('../verify/tests-file.js') from
// the input stage becomes ./tests-file.mjs, loaded only when the `tests` input is set. Matched
// by the resolved source file, so the importer may live in any folder.
const LAZY_ENTRIES = {
  [resolve('src/flow.js')]: './flow.mjs',
  [resolve('src/verify/tests-file.js')]: './tests-file.mjs',
};
const flowIsExternal = {
  name: 'flow-is-external',
  setup(b) {
    b.onResolve({ filter: /(flow|tests-file)\.js$/ }, (args) => {
      const lazy = LAZY_ENTRIES[resolve(args.resolveDir, args.path)];
      return lazy ? { path: lazy, external: true } : undefined;
    });
  },
};

await build({
  ...common,
  entryPoints: ['src/index.ts'],
  outfile: join(outdir, 'index.js'),
  format: 'cjs',
  plugins: [flowIsExternal],
});

await build({
  ...common,
  entryPoints: { flow: 'src/flow.ts', 'tests-file': 'src/verify/tests-file.ts' },
  outdir,
  format: 'esm',
  splitting: true,
  outExtension: { '.js': '.mjs' },
  chunkNames: 'chunks/[name]-[hash]',
  // Some dependencies are CommonJS and call require(); give the ESM bundle one.
  banner: {
    js: "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);",
  },
});
