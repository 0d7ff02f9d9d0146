/**
 * End to end: "Say what is happening" (INTERFACE.md v1.3, usability round 4), as the runner
 * shows it: unknown and unused inputs, a sign of life during a long build, how long each phase
 * took, and a run stopped by `timeout` titled as not finished.
 */
import { describe, expect, it } from '@jest/globals';
import { runAction } from '../../scripts/run-action.js';
import { useSimulator } from '../helpers/simulator.js';
import {
  baseInputs,
  expectExit,
  INTEGRATION_ID,
  SHORT_TIMELINE,
  uniqueName,
  warnings,
} from './deploy-support.js';

const sim = useSimulator({ timeline: SHORT_TIMELINE });

const notices = (result: Awaited<ReturnType<typeof runAction>>) =>
  result.annotations.filter((a) => a.kind === 'notice');

describe('unknown and unused inputs', () => {
  it('warns about a misspelt input (underscores), naming the closest input', async () => {
    const name = uniqueName('typo');
    const result = await runAction({
      // `with: deployment_type: prod` reaches the action as INPUT_DEPLOYMENT_TYPE.
      inputs: baseInputs(sim, {
        name,
        'integration-id': INTEGRATION_ID,
        deployment_type: 'prod',
        smoke_test: '{}',
      }),
    });
    expectExit(result, 0);
    const unknown = warnings(result).filter((w) => w.props.includes('title=Unknown input'));
    expect(unknown.map((w) => w.message)).toEqual([
      expect.stringMatching(
        /^Input `deployment_type` is not an input of this action.*`deployment-type`/,
      ),
      expect.stringMatching(/^Input `smoke_test` is not an input of this action.*`smoke-test`/),
    ]);
    // The declared inputs (INPUT_DEPLOYMENT-TYPE and the rest, defaults included) are not flagged.
    expect(unknown).toHaveLength(2);
  });

  it('gives a notice for a non-default input the command or source does not use, none for defaults', async () => {
    const name = uniqueName('unused');
    sim.seedDeployment({ name });
    const deleted = await runAction({
      inputs: baseInputs(sim, {
        command: 'delete',
        name,
        secrets: 'OPENAI_API_KEY=sk-x',
        'deployment-type': 'prod',
      }),
    });
    expectExit(deleted, 0);
    expect(notices(deleted).filter((n) => n.props.includes('title=Input not used'))).toEqual([
      expect.objectContaining({
        message: expect.stringMatching(/`deployment-type`.*`command: delete`/),
      }),
      expect.objectContaining({ message: expect.stringMatching(/`secrets`.*`command: delete`/) }),
    ]);
    // Every other input is at its default (the runner sets them all): no notice.
    const plain = await runAction({ inputs: baseInputs(sim, { command: 'delete', name }) });
    expect(notices(plain).filter((n) => n.props.includes('Input not used'))).toEqual([]);
  });

  it('gives a notice for an input the chosen source does not use', async () => {
    const result = await runAction({
      inputs: baseInputs(sim, {
        name: uniqueName('docker'),
        source: 'external_docker',
        'image-uri': 'registry.example.com/agent:1',
        'build-on-push': 'true',
        wait: 'false',
      }),
    });
    expectExit(result, 0);
    expect(notices(result).map((n) => n.message)).toContainEqual(
      expect.stringMatching(/`build-on-push`.*`source: external_docker`/),
    );
  });
});

describe('progress during a long build', () => {
  it('says which status the revision is still in, and for how long, while it builds', async () => {
    // Four checks make the longest silence when polling fast (a minute at the default).
    sim.queueTimeline([
      { status: 'QUEUED', durationMs: 200 },
      { status: 'BUILDING', durationMs: 2500 },
      { status: 'DEPLOYING', durationMs: 200 },
      { status: 'DEPLOYED', durationMs: 0 },
    ]);
    const result = await runAction({
      inputs: baseInputs(sim, {
        name: uniqueName('long-build'),
        'integration-id': INTEGRATION_ID,
        'poll-interval': '0.25',
      }),
    });
    expectExit(result, 0);
    const still = result.stdout.split('\n').filter((l) => / still BUILDING \(/.test(l));
    expect(still.length).toBeGreaterThanOrEqual(1);
    expect(still[0]).toMatch(/^Revision [0-9a-f]{8}… still BUILDING \(\d\.\d s\)$/);
  });
});

describe('how long it took, and what a stopped wait is', () => {
  const createInputs = (name: string, extra: Record<string, string> = {}) =>
    baseInputs(sim, { name, 'integration-id': INTEGRATION_ID, ...extra });

  it('the step summary shows each phase and the total', async () => {
    sim.queueTimeline([
      { status: 'QUEUED', durationMs: 300 },
      { status: 'BUILDING', durationMs: 600 },
      { status: 'DEPLOYING', durationMs: 300 },
      { status: 'DEPLOYED', durationMs: 0 },
    ]);
    const result = await runAction({ inputs: createInputs(uniqueName('durations')) });
    expectExit(result, 0);
    const durations = result.summary.slice(result.summary.indexOf('#### Durations'));
    const rows = durations
      .split('\n')
      .filter((l) => /^\| (Queued|Build|Deploy|Checks|\*\*Total\*\*) \|/.test(l));
    expect(rows.map((r) => r.split('|')[1]!.trim())).toEqual([
      'Queued',
      'Build',
      'Deploy',
      'Checks',
      '**Total**',
    ]);
    const seconds = (row: string) => Number(/([\d.]+) s/.exec(row)?.[1]);
    expect(seconds(rows[1]!)).toBeGreaterThanOrEqual(0.4);
    expect(seconds(rows[4]!)).toBeGreaterThanOrEqual(1.2);
  });

  it('a run stopped by `timeout` is titled as not finished, with no agent link', async () => {
    sim.queueTimeline([
      { status: 'QUEUED', durationMs: 30 },
      { status: 'BUILDING', durationMs: 600_000 },
    ]);
    const result = await runAction({
      inputs: createInputs(uniqueName('stopped'), { timeout: '1.5' }),
    });
    expectExit(result, 1);
    const title = result.summary.split('\n')[0];
    expect(title).toMatch(/^### ⏱️ .*not finished.*the revision goes on/);
    expect(title).not.toMatch(/❌|failed/);
    expect(result.summary).not.toContain('Agent server');
    expect(result.summary).toMatch(/\| Build \| [\d.]+ s so far/);
  });

  it('a failed build has no agent link', async () => {
    sim.queueTimeline([
      { status: 'QUEUED', durationMs: 30 },
      { status: 'BUILDING', durationMs: 30 },
      { status: 'BUILD_FAILED', durationMs: 0 },
    ]);
    const result = await runAction({ inputs: createInputs(uniqueName('broken')) });
    expectExit(result, 1);
    expect(result.outputs['url']).toMatch(/^http/);
    expect(result.summary).toContain('### ❌ The build of');
    expect(result.summary).not.toContain('Agent server');
  });
});
