/**
 * End to end on the bundle: what a hostile checkout can make `source: upload` send
 * (INTERFACE v1.2, "Nothing leaves the runner that is not the agent's source"). The archive
 * the storage server received is listed entry by entry; refused checkouts make no request.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync, symlinkSync, truncateSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { runAction } from '../../scripts/run-action.js';
import { useSimulator } from '../helpers/simulator.js';
import { tarNames } from '../helpers/tar.js';
import {
  baseInputs,
  byRoute,
  DEPLOYMENT_PATH,
  errors,
  expectExit,
  mark,
  SHORT_TIMELINE,
  tempWorkspaces,
  uniqueName,
} from './deploy-support.js';

const workspaces = tempWorkspaces('upload-hostile');
const outside = mkdtempSync(join(tmpdir(), 'upload-hostile-outside-'));
writeFileSync(join(outside, 'id_rsa'), 'OUTSIDE-SECRET');

const sim = useSimulator({ timeline: SHORT_TIMELINE });

afterAll(async () => {
  workspaces.removeAll();
  rmSync(outside, { recursive: true, force: true });
});

function inputs(name: string) {
  return baseInputs(sim, {
    name,
    source: 'upload',
    'config-path': 'agent/langgraph.json',
    'health-check': 'false',
  });
}

function errorText(result: { stdout: string }): string {
  return errors(result as Parameters<typeof errors>[0])
    .map((e) => e.message)
    .join('\n');
}

describe('source: upload from a hostile checkout', () => {
  it('sends only the regular files git would track: no .git, credentials, ignored files or specials', async () => {
    const ws = workspaces.make({
      '.git/config': '[http]\n\textraheader = AUTHORIZATION: basic JOB-TOKEN-SECRET\n',
      '.git/info/exclude': '*.pem\n',
      '.gitignore': 'secrets/\n',
      'agent/langgraph.json': JSON.stringify({ dependencies: ['.'], graphs: { a: './a.py:g' } }),
      'agent/a.py': 'g = None\n',
      'agent/key.pem': 'PEM-SECRET',
      'agent/secrets/token': 'IGNORED-SECRET',
      'agent/gha-creds-0123abcd.json': '{"private_key": "GCP-SECRET"}',
      'agent/sub/.gitignore': 'local.txt\n',
      'agent/sub/local.txt': 'NESTED-IGNORED',
      'agent/sub/b.py': 'b = 1\n',
    });
    execFileSync('mkfifo', [join(ws, 'agent/pipe')]);
    symlinkSync(join(ws, '.git'), join(ws, 'agent/git'));
    const name = uniqueName('hostile-ok');
    const log = mark(sim);
    const result = await runAction({ workspace: ws, inputs: inputs(name) });
    expectExit(result, 0);
    const patch = byRoute(log.since(), 'PATCH', DEPLOYMENT_PATH).concat(
      byRoute(log.since(), 'POST', /\/revisions$/),
    );
    const tarball = (patch[0]!.body as { source_revision_config: { source_tarball_path: string } })
      .source_revision_config.source_tarball_path;
    const object = sim.storage.objects.get(tarball)!;
    expect(tarNames(object.body!)).toEqual([
      'a.py',
      'langgraph.json',
      'sub/.gitignore',
      'sub/b.py',
    ]);
    for (const secret of ['JOB-TOKEN', 'PEM-SECRET', 'IGNORED-SECRET', 'GCP-SECRET', 'NESTED'])
      expect(object.body!.includes(secret)).toBe(false);
    expect(result.stdout).toMatch(/Left out of the source archive: 2 links or special files/);
  });

  it.each([
    [
      'a symlink to a folder outside the workspace',
      './keys',
      /"\.\/keys" .* lies outside the repository/,
    ],
    ['the .git folder', '../.git', /"\.\.\/\.git" .*`\.git` folder/],
  ])('refuses %s as a dependency, naming it, before any request', async (_what, dep, why) => {
    const ws = workspaces.make({
      'agent/langgraph.json': JSON.stringify({
        dependencies: ['.', dep],
        graphs: { a: './a.py:g' },
      }),
      'agent/a.py': '',
    });
    symlinkSync(outside, join(ws, 'agent/keys'));
    const log = mark(sim);
    const result = await runAction({ workspace: ws, inputs: inputs(uniqueName('hostile-dep')) });
    expectExit(result, 1);
    expect(errorText(result)).toMatch(why);
    expect(log.since()).toHaveLength(0);
    expect(result.stdout).not.toContain('OUTSIDE-SECRET');
  });

  it('refuses a sparse 3 GiB file at once from its size, before any request', async () => {
    const ws = workspaces.make({
      'agent/langgraph.json': JSON.stringify({ dependencies: ['.'], graphs: { a: './a.py:g' } }),
      'agent/a.py': '',
    });
    writeFileSync(join(ws, 'agent/model.bin'), '');
    truncateSync(join(ws, 'agent/model.bin'), 3 * 1024 ** 3);
    const log = mark(sim);
    const started = Date.now();
    const result = await runAction({ workspace: ws, inputs: inputs(uniqueName('hostile-big')) });
    expectExit(result, 1);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(errorText(result)).toMatch(/add up to 3072\.0 MiB.*model\.bin \(3072\.0 MiB\)/s);
    expect(log.since()).toHaveLength(0);
  });

  it('stops building the archive when `timeout` runs out, before any request', async () => {
    const ws = workspaces.make({
      'agent/langgraph.json': JSON.stringify({ dependencies: ['.'], graphs: { a: './a.py:g' } }),
      'agent/a.py': '',
    });
    // 96 MB that does not compress: seconds of gzip, far past a 1 s budget.
    writeFileSync(join(ws, 'agent/noise.bin'), randomBytes(96 * 1024 * 1024));
    const log = mark(sim);
    const started = Date.now();
    const result = await runAction({
      workspace: ws,
      inputs: { ...inputs(uniqueName('hostile-slow')), timeout: '1' },
    });
    expectExit(result, 1);
    expect(errorText(result)).toMatch(
      /The `timeout` ran out while the `source: upload` archive was built; nothing was sent/,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(log.since()).toHaveLength(0);
  });
});
