/**
 * End to end on the bundle: `skip-unchanged` with `source: upload`. The keyed record names the
 * archive and where it was uploaded; a later upload without `secrets` keeps the record but puts
 * another archive live, so a run that uploads the first archive again must build.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { runAction } from '../../scripts/run-action.js';
import { useSimulator } from '../helpers/simulator.js';
import {
  baseInputs,
  byRoute,
  expectExit,
  mark,
  REVISIONS_PATH,
  SHORT_TIMELINE,
  uniqueName,
} from './deploy-support.js';

const sim = useSimulator({ timeline: SHORT_TIMELINE });
const made: string[] = [];

/** A checkout whose agent file says `text` (so two checkouts make two archives). */
function checkout(text: string): string {
  const ws = mkdtempSync(join(tmpdir(), 'skip-upload-e2e-'));
  made.push(ws);
  writeFileSync(
    join(ws, 'langgraph.json'),
    JSON.stringify({ dependencies: ['.'], graphs: { agent: './agent.py:graph' } }),
  );
  writeFileSync(join(ws, 'requirements.txt'), 'langgraph\n');
  writeFileSync(join(ws, 'agent.py'), `graph = None  # ${text}\n`);
  return ws;
}

afterAll(() => {
  for (const ws of made) rmSync(ws, { recursive: true, force: true });
});

describe('skip-unchanged with source: upload', () => {
  it('builds when another archive went live after the record (an upload without secrets)', async () => {
    const name = uniqueName('skip-upload');
    const [S, T] = [checkout('archive S'), checkout('archive T')];
    const inputs = (extra: Record<string, string> = {}) =>
      baseInputs(sim, {
        name,
        source: 'upload',
        'skip-unchanged': 'true',
        'health-check': 'false',
        ...extra,
      });

    const first = await runAction({ workspace: S, inputs: inputs({ secrets: 'A=1' }) });
    expectExit(first, 0);
    // The same archive and inputs again: the record proves S is live, so the run skips.
    const again = await runAction({ workspace: S, inputs: inputs({ secrets: 'A=1' }) });
    expectExit(again, 0);
    expect(again.outputs['skipped-build']).toBe('true');

    // Archive T, without `secrets`: the environment (and the record naming S) is kept.
    const other = await runAction({ workspace: T, inputs: inputs() });
    expectExit(other, 0);
    expect(other.outputs['skipped-build']).toBe('false');
    expect(other.outputs['source-digest']).not.toBe(first.outputs['source-digest']);

    // S with run 1's inputs: the record matches S, but T is live, so the run builds.
    const log = mark(sim);
    const third = await runAction({ workspace: S, inputs: inputs({ secrets: 'A=1' }) });
    expectExit(third, 0);
    expect(third.outputs['skipped-build']).toBe('false');
    expect(byRoute(log.since(), 'POST', REVISIONS_PATH)).toHaveLength(1);
    expect(third.stdout).toMatch(
      /skip-unchanged: a new revision is requested because .*source_tarball_path/,
    );
  });
});
