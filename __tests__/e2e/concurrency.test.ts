/**
 * End to end: twenty runs at once against one control plane with a tight rate limit (per API
 * key, so they compete for it). All succeed, none makes a duplicate deployment, and ten that
 * deploy the same name go through the create-conflict path: one creates, the others update.
 */
import { expect, test } from '@jest/globals';
import { useSimulator } from '../helpers/simulator.js';
import { runAction, type RunResult } from '../../scripts/run-action.js';

const INTEGRATION_ID = '5c1a4b2e-8f3d-4e6a-9b7c-0d1e2f3a4b5c';
const SHARED = 'conc-shared';

const sim = useSimulator({
  // Tight enough that the first second's burst (a lookup, a create and the first checks of
  // twenty runs) is refused in part with 429 + Retry-After on an idle machine. A loaded
  // machine starts the twenty processes too slowly to burst, so the test also answers the
  // first lookups 429 itself (below): the limit is met on every machine.
  rateLimit: { requests: 40, windowMs: 1000 },
  timeline: [
    { status: 'QUEUED', durationMs: 50 },
    { status: 'BUILDING', durationMs: 50 },
    { status: 'DEPLOYED', durationMs: 0 },
  ],
  // Keep every revision: a PATCH of one run must not mark another run's revision SKIPPED,
  // so that all ten runs of the shared name follow their own revision to DEPLOYED.
  supersede: false,
});

test('twenty runs at once under a tight rate limit: all succeed, no duplicate', async () => {
  const names = [
    ...Array.from({ length: 10 }, (_, i) => `conc-own-${i}`),
    ...Array.from({ length: 10 }, () => SHARED),
  ];
  // A slow create (as a busy platform has): the runs of the shared name that looked it up
  // before the first create was done all try to create it too.
  sim.inject({ kind: 'delay', ms: 400, method: 'POST', path: '/v2/deployments', times: 20 });
  // As the rate limiter answers, whatever the machine's load: 429 with Retry-After.
  sim.inject({
    kind: 'status',
    status: 429,
    headers: { 'retry-after': '1' },
    body: { detail: 'Rate limit exceeded' },
    method: 'GET',
    path: '/v2/deployments',
    times: 8,
  });
  const results: RunResult[] = await Promise.all(
    names.map((name) =>
      runAction({
        inputs: {
          'api-key': sim.apiKey,
          'control-plane-url': sim.url,
          name,
          'integration-id': INTEGRATION_ID,
          'poll-interval': '0.2',
          timeout: '90',
          // Each of the ten runs of one name follows its own revision to DEPLOYED here; with
          // interrupt-previous a later run stops an earlier run's revision (as it should).
          'interrupt-previous': 'false',
        },
        timeoutMs: 100_000,
      }),
    ),
  );

  const failed = results
    .map((r, i) => ({ name: names[i], code: r.code, errors: r.annotations }))
    .filter((r) => r.code !== 0);
  expect(failed).toEqual([]);

  // The limit really was hit, and honoured: otherwise this test proves nothing.
  const limited = sim.requests.filter((q) => q.status === 429);
  expect(limited.length).toBeGreaterThan(0);

  // Each name exactly once.
  const counts = new Map<string, number>();
  for (const d of sim.deployments()) counts.set(d.name, (counts.get(d.name) ?? 0) + 1);
  expect(Object.fromEntries(counts)).toEqual(
    Object.fromEntries([...new Set(names)].map((n) => [n, 1])),
  );

  // The ten runs of one name: exactly one created it; the others updated it, each following
  // its own revision.
  const shared = results.filter((_, i) => names[i] === SHARED);
  const sharedId = sim.deployments().find((d) => d.name === SHARED)!.id;
  expect(shared.filter((r) => r.outputs.created === 'true')).toHaveLength(1);
  expect(shared.filter((r) => r.outputs.created === 'false')).toHaveLength(9);
  expect(new Set(shared.map((r) => r.outputs['deployment-id']))).toEqual(new Set([sharedId]));
  const revisionIds = shared.map((r) => r.outputs['revision-id']);
  expect(new Set(revisionIds).size).toBe(10);
  expect(new Set(sim.revisions(sharedId).map((r) => r.id))).toEqual(new Set(revisionIds));
  expect(shared.every((r) => r.outputs.status === 'DEPLOYED')).toBe(true);

  // The runs that own a name each created it.
  results
    .filter((_, i) => names[i] !== SHARED)
    .forEach((r) => expect(r.outputs.created).toBe('true'));

  // Some losers of the race took the conflict path: their POST was refused with 409.
  const posts = sim.requests.filter(
    (q) => q.method === 'POST' && (q.body as { name?: string }).name === SHARED,
  );
  expect(posts.filter((q) => q.status === 201)).toHaveLength(1);
  expect(posts.filter((q) => q.status === 409).length).toBeGreaterThan(0);
}, 120_000);
