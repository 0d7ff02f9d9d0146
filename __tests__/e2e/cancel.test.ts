/**
 * End to end: a cancelled workflow (SIGTERM or SIGINT while the revision builds) stops within
 * two seconds, exits 1, and logs the IDs, the last status and that the revision goes on.
 */
import { describe, expect, test } from '@jest/globals';
import { useSimulator } from '../helpers/simulator.js';
import { runAction } from '../../scripts/run-action.js';

const INTEGRATION_ID = '5c1a4b2e-8f3d-4e6a-9b7c-0d1e2f3a4b5c';

// BUILDING lasts far longer than any test: only the signal can end the wait.
const sim = useSimulator({
  timeline: [
    { status: 'QUEUED', durationMs: 30 },
    { status: 'BUILDING', durationMs: 600_000 },
    { status: 'DEPLOYED', durationMs: 0 },
  ],
});

describe.each(['SIGTERM', 'SIGINT'] as const)('%s during the wait', (signal) => {
  test('exits 1 within 2 s, logging the IDs, the last status and that the revision goes on', async () => {
    const name = `cancel-${signal.toLowerCase()}`;
    const r = await runAction({
      inputs: {
        'api-key': sim.apiKey,
        'control-plane-url': sim.url,
        name,
        'integration-id': INTEGRATION_ID,
        'poll-interval': '0.2',
        timeout: '120',
      },
      signal: { name: signal, when: (stdout) => stdout.includes('status: BUILDING') },
      timeoutMs: 20_000,
    });
    expect(r.afterSignalMs).toBeDefined();
    expect(r.afterSignalMs!).toBeLessThan(2000);
    expect(r.code).toBe(1);

    const dep = sim.deployments().find((d) => d.name === name)!;
    const revisionId = sim.revisions(dep.id)[0]!.id;
    // The outputs were set before the wait, so a later step has them.
    expect(r.outputs).toMatchObject({ 'deployment-id': dep.id, 'revision-id': revisionId });
    const cancelled = r.annotations.filter((a) => a.kind === 'error' && /Cancelled/.test(a.props));
    expect(cancelled).toHaveLength(1);
    const message = cancelled[0]!.message;
    expect(message).toContain(dep.id);
    expect(message).toContain(revisionId);
    expect(message).toMatch(/last status BUILDING/);
    expect(message).toMatch(/revision continues on the platform/);
    // The summary says so too.
    expect(r.summary).toMatch(/cancelled/i);
    expect(r.summary).toContain(revisionId);
  });
});

test('SIGTERM during a hanging lookup: exits 1 within 2 s, says nothing was changed yet', async () => {
  sim.inject({ kind: 'delay', ms: 30_000, method: 'GET', path: '/v2/deployments' });
  const r = await runAction({
    inputs: {
      'api-key': sim.apiKey,
      'control-plane-url': sim.url,
      name: 'cancel-hanging',
      'integration-id': INTEGRATION_ID,
      'poll-interval': '0.2',
      timeout: '120',
    },
    // The pre-flight notice is printed right before the lookup starts.
    signal: { name: 'SIGTERM', when: (stdout) => stdout.includes('Pre-flight') },
    timeoutMs: 20_000,
  });
  expect(r.afterSignalMs!).toBeLessThan(2000);
  expect(r.code).toBe(1);
  const cancelled = r.annotations.filter((a) => a.kind === 'error' && /Cancelled/.test(a.props));
  expect(cancelled).toHaveLength(1);
  expect(cancelled[0]!.message).toMatch(/No deployment change had been requested yet/);
  const posts = sim.requests.filter(
    (q) => q.method === 'POST' && (q.body as { name?: string }).name === 'cancel-hanging',
  );
  expect(posts).toHaveLength(0);
});
