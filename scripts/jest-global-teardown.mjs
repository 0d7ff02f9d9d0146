// Removes the bundle that the global setup built for this test run.
import { rmSync } from 'node:fs';

export default function globalTeardown() {
  const outdir = process.env.E2E_DIST_BUILT_BY_SETUP;
  if (outdir) rmSync(outdir, { recursive: true, force: true });
}
