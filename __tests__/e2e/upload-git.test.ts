/**
 * End to end on the bundle: `.git` never goes into the `source: upload` archive, wherever it
 * is inside the archived folders (the checkout's own `.git` folder when the archive is rooted
 * at the repository root, a submodule's `.git` file, a `.git` folder in any case). The archive
 * the storage server received is listed entry by entry.
 */
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from '@jest/globals';
import { runAction } from '../../scripts/run-action.js';
import { useSimulator } from '../helpers/simulator.js';
import { tarNames } from '../helpers/tar.js';
import {
  baseInputs,
  byRoute,
  expectExit,
  mark,
  SHORT_TIMELINE,
  tempWorkspaces,
  uniqueName,
} from './deploy-support.js';

const workspaces = tempWorkspaces('upload-git');
const sim = useSimulator({ timeline: SHORT_TIMELINE });
afterAll(() => workspaces.removeAll());

describe('source: upload leaves .git out', () => {
  it('the archive rooted at the repository root lists no .git entry, and every other file', async () => {
    const ws = workspaces.make({
      '.git/HEAD': 'ref: refs/heads/main\n',
      '.git/config': '[http]\n\textraheader = AUTHORIZATION: basic JOB-TOKEN-SECRET\n',
      '.git/objects/ab/cdef': 'object',
      'langgraph.json': JSON.stringify({ dependencies: ['.'], graphs: { a: './agent/a.py:g' } }),
      'agent/a.py': 'g = None\n',
      'vendor/lib/.git': 'gitdir: ../../.git/modules/lib\n',
      'vendor/lib/lib.py': 'x = 1\n',
      'vendor/old/.GIT/config': 'SUBMODULE-CONFIG',
      'docs/.github/workflow.yml': 'kept: only .git itself is left out\n',
    });
    const log = mark(sim);
    const result = await runAction({
      workspace: ws,
      inputs: baseInputs(sim, {
        name: uniqueName('git'),
        source: 'upload',
        'health-check': 'false',
      }),
    });
    expectExit(result, 0);
    const [revision] = byRoute(log.since(), 'POST', /\/revisions$/);
    const { source_tarball_path: tarball } = (
      revision!.body as { source_revision_config: { source_tarball_path: string } }
    ).source_revision_config;
    const archive = sim.storage.objects.get(tarball)!.body!;
    expect(tarNames(archive)).toEqual([
      'agent/a.py',
      'docs/.github/workflow.yml',
      'langgraph.json',
      'vendor/lib/lib.py',
    ]);
    const content = gunzipSync(archive).toString('latin1');
    for (const secret of ['JOB-TOKEN-SECRET', 'SUBMODULE-CONFIG', 'gitdir:']) {
      expect(content).not.toContain(secret);
    }
  });
});
