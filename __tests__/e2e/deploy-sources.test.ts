/**
 * End to end: the fields each `source` sends (INTERFACE.md "Source-specific fields"), inputs of
 * the other source, and the guards before an update ("Found deployment of another kind",
 * "`name` and `deployment-id` together").
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { runAction } from '../../scripts/run-action.js';
import { useSimulator } from '../helpers/simulator.js';
import {
  baseInputs,
  byRoute,
  DEPLOYMENT_PATH,
  REVISIONS_PATH,
  errors,
  expectExit,
  HEALTH_PATH,
  idOf,
  INTEGRATION_ID,
  mark,
  ORIGIN_ENTRY,
  REPO_URL,
  SHORT_TIMELINE,
  uniqueName,
  warnings,
} from './deploy-support.js';

const LISTENER_ID = '0f7e6d5c-4b3a-4291-8877-665544332211';
const RESOURCE_SPEC = { min_scale: 1, max_scale: 2, cpu: 1, memory_mb: 1024 };

const sim = useSimulator({ timeline: SHORT_TIMELINE });

describe('external_docker', () => {
  it('creates with exactly image_uri, custom_url, resource_spec and the listener (no github field)', async () => {
    const name = uniqueName('docker');
    const customUrl = `${sim.url}/agents/not-checked`;
    const log = mark(sim);
    const result = await runAction({
      inputs: baseInputs(sim, {
        name,
        source: 'external_docker',
        'image-uri': 'registry.example.com/agents/my-agent:1.2.3',
        'custom-url': customUrl,
        'resource-spec': JSON.stringify(RESOURCE_SPEC),
        'listener-id': LISTENER_ID,
        'k8s-namespace': 'agents',
        'health-check': 'false',
      }),
    });
    expectExit(result, 0);
    const requests = log.since();
    const posts = byRoute(requests, 'POST', '/v2/deployments');
    expect(posts).toHaveLength(1);
    // `deployment-type`, `build-on-push` and `config-path` have defaults: simply not sent.
    expect(posts[0]!.body).toEqual({
      name,
      source: 'external_docker',
      source_config: {
        resource_spec: RESOURCE_SPEC,
        custom_url: customUrl,
        listener_id: LISTENER_ID,
        listener_config: { k8s_namespace: 'agents' },
      },
      source_revision_config: { image_uri: 'registry.example.com/agents/my-agent:1.2.3' },
      secrets: [ORIGIN_ENTRY],
    });
    const id = idOf(sim, name)!;
    expect(result.outputs).toMatchObject({
      'deployment-id': id,
      created: 'true',
      status: 'DEPLOYED',
      url: customUrl,
    });
    expect(byRoute(requests, 'GET', HEALTH_PATH)).toHaveLength(0);
  });

  it('updates with the new image and custom_url only, then checks the agent server', async () => {
    const name = uniqueName('docker-upd');
    const id = randomUUID();
    const customUrl = sim.agentUrl(id);
    sim.seedDeployment({ id, name, source: 'external_docker', customUrl });
    const log = mark(sim);
    const result = await runAction({
      inputs: baseInputs(sim, {
        name,
        source: 'external_docker',
        'image-uri': 'registry.example.com/agents/my-agent:2.0.0',
        'custom-url': customUrl,
      }),
    });
    expectExit(result, 0);
    const requests = log.since();
    const patches = byRoute(requests, 'POST', REVISIONS_PATH);
    expect(patches.map((p) => [p.path, p.body])).toEqual([
      [
        `/v2/deployments/${id}/revisions`,
        {
          source_revision_config: { image_uri: 'registry.example.com/agents/my-agent:2.0.0' },
          source_config: { custom_url: customUrl },
        },
      ],
    ]);
    expect(result.outputs).toMatchObject({
      'deployment-id': id,
      'revision-id': sim.revisions(id)[0]!.id,
      created: 'false',
      status: 'DEPLOYED',
      url: customUrl,
    });
    expect(byRoute(requests, 'GET', `/agents/${id}/ok`).length).toBeGreaterThanOrEqual(1);
  });

  it('without custom-url: no url output and no health check, one warning', async () => {
    const name = uniqueName('docker-nourl');
    const log = mark(sim);
    const result = await runAction({
      inputs: baseInputs(sim, {
        name,
        source: 'external_docker',
        'image-uri': 'registry.example.com/agents/my-agent:1.0.0',
      }),
    });
    expectExit(result, 0);
    expect(result.outputs['url']).toBeUndefined();
    expect(result.outputs['status']).toBe('DEPLOYED');
    expect(byRoute(log.since(), 'GET', HEALTH_PATH)).toHaveLength(0);
    const [warning, ...more] = warnings(result);
    expect(warning?.message).toContain('custom-url');
    expect(more).toHaveLength(0);
  });
});

describe('inputs of the other source', () => {
  it('github with image-uri and custom-url: one input error each, zero requests', async () => {
    const log = mark(sim);
    const result = await runAction({
      inputs: baseInputs(sim, {
        name: uniqueName('gh-docker'),
        'integration-id': INTEGRATION_ID,
        'image-uri': 'registry.example.com/a:1',
        'custom-url': 'https://agent.example.com',
      }),
    });
    expectExit(result, 1);
    const titles = errors(result).map((e) => e.props);
    expect(titles).toEqual(
      expect.arrayContaining([
        expect.stringContaining('image-uri'),
        expect.stringContaining('custom-url'),
      ]),
    );
    expect(log.since()).toHaveLength(0);
  });

  it('external_docker with integration-id and repo-ref: one input error each, zero requests', async () => {
    const log = mark(sim);
    const result = await runAction({
      inputs: baseInputs(sim, {
        name: uniqueName('docker-gh'),
        source: 'external_docker',
        'image-uri': 'registry.example.com/a:1',
        'integration-id': INTEGRATION_ID,
        'repo-ref': 'main',
      }),
    });
    expectExit(result, 1);
    const titles = errors(result).map((e) => e.props);
    expect(titles).toEqual(
      expect.arrayContaining([
        expect.stringContaining('integration-id'),
        expect.stringContaining('repo-ref'),
      ]),
    );
    expect(log.since()).toHaveLength(0);
  });
});

describe('guards before an update', () => {
  it('a deployment of that name with another source: an error naming both, no PATCH', async () => {
    const name = uniqueName('kind');
    const seeded = sim.seedDeployment({ name, source: 'external_docker' });
    const log = mark(sim);
    const result = await runAction({
      inputs: baseInputs(sim, { name, 'integration-id': INTEGRATION_ID }),
    });
    expectExit(result, 1);
    const [error] = errors(result);
    expect(error?.message).toContain('external_docker');
    expect(error?.message).toContain('github');
    expect(error?.message).toContain(seeded.id);
    const requests = log.since();
    expect(byRoute(requests, 'PATCH', DEPLOYMENT_PATH)).toHaveLength(0);
    expect(byRoute(requests, 'POST', REVISIONS_PATH)).toHaveLength(0);
    expect(byRoute(requests, 'POST', '/v2/deployments')).toHaveLength(0);
    expect(sim.revisions(seeded.id)).toHaveLength(1);
  });

  it('a github deployment of that name from another repository: an error naming both, no PATCH', async () => {
    const name = uniqueName('repo');
    sim.seedDeployment({ name, repoUrl: 'https://github.com/someone-else/agent' });
    const log = mark(sim);
    const result = await runAction({ inputs: baseInputs(sim, { name }) });
    expectExit(result, 1);
    const [error] = errors(result);
    expect(error?.message).toContain('https://github.com/someone-else/agent');
    expect(error?.message).toContain(REPO_URL);
    expect(byRoute(log.since(), 'PATCH', DEPLOYMENT_PATH)).toHaveLength(0);
    expect(byRoute(log.since(), 'POST', REVISIONS_PATH)).toHaveLength(0);
  });

  it('name and deployment-id that disagree: an error naming both, no PATCH', async () => {
    const seeded = sim.seedDeployment({ name: uniqueName('named'), repoUrl: REPO_URL });
    const other = uniqueName('other');
    const log = mark(sim);
    const result = await runAction({
      inputs: baseInputs(sim, { name: other, 'deployment-id': seeded.id }),
    });
    expectExit(result, 1);
    const [error] = errors(result);
    expect(error?.message).toContain(seeded.name);
    expect(error?.message).toContain(other);
    expect(error?.message).toContain(seeded.id);
    const requests = log.since();
    expect(byRoute(requests, 'PATCH', DEPLOYMENT_PATH)).toHaveLength(0);
    expect(byRoute(requests, 'POST', REVISIONS_PATH)).toHaveLength(0);
    expect(byRoute(requests, 'POST', '/v2/deployments')).toHaveLength(0);
  });

  it('deployment-id alone: updates that deployment without a lookup by name', async () => {
    const seeded = sim.seedDeployment({ name: uniqueName('by-id'), repoUrl: REPO_URL });
    const log = mark(sim);
    const result = await runAction({
      inputs: baseInputs(sim, { 'deployment-id': seeded.id, wait: 'false' }),
    });
    expectExit(result, 0);
    const requests = log.since();
    expect(byRoute(requests, 'GET', '/v2/deployments')).toHaveLength(0);
    expect(byRoute(requests, 'POST', REVISIONS_PATH).map((p) => p.path)).toEqual([
      `/v2/deployments/${seeded.id}/revisions`,
    ]);
    expect(result.outputs).toMatchObject({
      'deployment-id': seeded.id,
      name: seeded.name,
      created: 'false',
    });
  });
});
