/**
 * The request bodies and the checks on what the lookup found (src/deployment/requests.ts).
 */
import { describe, expect, it } from '@jest/globals';
import { SECRET_VALUE, dockerConfig, makeConfig, named, setup, wire } from './upsert-plane.js';
import {
  checkCreatable,
  checkSameKind,
  createRequest,
  normalizeRepoUrl,
  revisionRequest,
} from '../../src/deployment/requests.js';
import { ActionError } from '../../src/lib/errors.js';

describe('normalizeRepoUrl', () => {
  it('ignores case, surrounding spaces, trailing slashes and a .git suffix', () => {
    const canonical = 'https://github.com/acme/agent';
    for (const url of [
      'https://github.com/acme/agent',
      'https://GitHub.com/Acme/Agent',
      'https://github.com/acme/agent/',
      'https://github.com/acme/agent//',
      'https://github.com/acme/agent.git',
      'https://github.com/acme/agent.git/',
      '  HTTPS://GITHUB.COM/ACME/AGENT.GIT/ ',
    ]) {
      expect(normalizeRepoUrl(url)).toBe(canonical);
    }
  });

  it('keeps different repositories different', () => {
    expect(normalizeRepoUrl('https://github.com/acme/agent2')).not.toBe(
      normalizeRepoUrl('https://github.com/acme/agent'),
    );
    expect(normalizeRepoUrl('https://github.com/acme/agent.github')).toBe(
      'https://github.com/acme/agent.github',
    );
    expect(normalizeRepoUrl('https://github.com/other/agent')).not.toBe(
      normalizeRepoUrl('https://github.com/acme/agent'),
    );
  });
});

describe('createRequest', () => {
  it('github: exactly the github fields, secrets [] when the input is empty', () => {
    const config = makeConfig({
      repoRef: 'feature/x',
      configPath: 'apps/agent/langgraph.json',
      deploymentType: 'prod',
      buildOnPush: true,
      // Fields of the other source never go out with a github body.
      imageUri: 'ghcr.io/acme/agent:1',
      customUrl: 'https://agent.example.com',
      listenerId: 'listener-1',
      k8sNamespace: 'ns',
      resourceSpec: { min_scale: 1 },
    });
    expect(wire(createRequest(named(config)))).toStrictEqual({
      name: 'my-agent',
      source: 'github',
      source_config: {
        integration_id: '8f9e0d1c-0000-4000-8000-00000000abcd',
        repo_url: 'https://github.com/acme/agent',
        deployment_type: 'prod',
        build_on_push: true,
      },
      source_revision_config: {
        repo_ref: 'feature/x',
        langgraph_config_path: 'apps/agent/langgraph.json',
      },
      secrets: [],
    });
  });

  it('sends the secrets as given', () => {
    const secrets = [
      { name: 'OPENAI_API_KEY', value: SECRET_VALUE },
      { name: 'MODE', value: 'a=b' },
    ];
    expect(createRequest(named(makeConfig({ secrets }))).secrets).toStrictEqual(secrets);
    expect(createRequest(named(dockerConfig({ secrets }))).secrets).toStrictEqual(secrets);
  });

  it('external_docker minimal: image_uri only, no github fields, secrets []', () => {
    // Defaulted github inputs (config-path, deployment-type, build-on-push) are in the Config
    // but must not be sent, nor github fields that happen to be set.
    const config = dockerConfig({ repoUrl: 'https://github.com/acme/agent', repoRef: 'main' });
    expect(wire(createRequest(named(config)))).toStrictEqual({
      name: 'my-agent',
      source: 'external_docker',
      source_config: {},
      source_revision_config: { image_uri: 'ghcr.io/acme/agent:1.2.3' },
      secrets: [],
    });
  });

  it('external_docker full: resource_spec, custom_url, listener_id, listener_config', () => {
    const config = dockerConfig({
      customUrl: 'https://agent.example.com',
      listenerId: 'listener-1',
      k8sNamespace: 'agents',
      resourceSpec: { min_scale: 1, max_scale: 3 },
    });
    expect(wire(createRequest(named(config)))).toStrictEqual({
      name: 'my-agent',
      source: 'external_docker',
      source_config: {
        resource_spec: { min_scale: 1, max_scale: 3 },
        custom_url: 'https://agent.example.com',
        listener_id: 'listener-1',
        listener_config: { k8s_namespace: 'agents' },
      },
      source_revision_config: { image_uri: 'ghcr.io/acme/agent:1.2.3' },
      secrets: [],
    });
  });

  it('external_docker: listener_config only with a k8s namespace', () => {
    const body = wire(createRequest(named(dockerConfig({ listenerId: 'listener-1' })))) as {
      source_config: Record<string, unknown>;
    };
    expect(body.source_config).toStrictEqual({ listener_id: 'listener-1' });
  });
});

describe('revisionRequest', () => {
  it('github: repo_ref and langgraph_config_path only; no secrets when the input is empty', () => {
    const config = makeConfig({
      repoRef: 'v2',
      configPath: 'sub/langgraph.json',
      buildOnPush: true,
    });
    expect(wire(revisionRequest(config))).toStrictEqual({
      source_revision_config: { repo_ref: 'v2', langgraph_config_path: 'sub/langgraph.json' },
    });
    expect('secrets' in revisionRequest(config)).toBe(false);
  });

  it('github: install-command and build-command go to source_config, on create and update', () => {
    const config = makeConfig({ installCommand: 'npm ci', buildCommand: 'npm run build' });
    const commands = { install_command: 'npm ci', build_command: 'npm run build' };
    expect(wire(revisionRequest(config))).toMatchObject({ source_config: commands });
    expect(wire(createRequest(named(config)))).toMatchObject({ source_config: commands });
    const onlyBuild = wire(revisionRequest(makeConfig({ buildCommand: 'make' }))) as {
      source_config?: object;
    };
    expect(onlyBuild.source_config).toStrictEqual({ build_command: 'make' });
  });

  it('sends secrets when the input is set, as given (also an empty list)', () => {
    const secrets = [{ name: 'OPENAI_API_KEY', value: SECRET_VALUE }];
    expect(revisionRequest(makeConfig({ secrets })).secrets).toStrictEqual(secrets);
    expect(revisionRequest(dockerConfig({ secrets })).secrets).toStrictEqual(secrets);
    expect(revisionRequest(makeConfig({ secrets: [] })).secrets).toStrictEqual([]);
  });

  it('external_docker: image_uri; no source_config when nothing in it may change', () => {
    // listener_id / listener_config cannot be changed after creation: never on PATCH.
    const config = dockerConfig({ listenerId: 'listener-1', k8sNamespace: 'agents' });
    expect(wire(revisionRequest(config))).toStrictEqual({
      source_revision_config: { image_uri: 'ghcr.io/acme/agent:1.2.3' },
    });
  });

  it('external_docker: resource_spec and custom_url when set, no github fields', () => {
    const config = dockerConfig({
      customUrl: 'https://agent.example.com',
      resourceSpec: { min_scale: 2 },
      repoRef: 'main',
    });
    expect(wire(revisionRequest(config))).toStrictEqual({
      source_revision_config: { image_uri: 'ghcr.io/acme/agent:1.2.3' },
      source_config: { resource_spec: { min_scale: 2 }, custom_url: 'https://agent.example.com' },
    });
  });
});

describe('checkSameKind', () => {
  it('refuses a deployment of another source, naming both', () => {
    const { plane } = setup();
    const found = plane.add({ id: 'dep-7', name: 'my-agent', source: 'external_docker' });
    const error = (() => {
      try {
        checkSameKind(makeConfig(), found);
      } catch (e) {
        return e as ActionError;
      }
      throw new Error('expected an error');
    })();
    expect(error).toBeInstanceOf(ActionError);
    expect(error.message).toContain("'external_docker'");
    expect(error.message).toContain("'github'");
    expect(error.message).toContain('dep-7');
    expect(error.message).toContain('`source`');
  });

  it('refuses a github deployment of another repository, naming both', () => {
    const { plane } = setup();
    const found = plane.add({
      name: 'my-agent',
      source_config: { repo_url: 'https://github.com/other/thing' },
    });
    expect(() => checkSameKind(makeConfig(), found)).toThrow(ActionError);
    try {
      checkSameKind(makeConfig(), found);
    } catch (e) {
      expect((e as Error).message).toContain('https://github.com/other/thing');
      expect((e as Error).message).toContain('https://github.com/acme/agent');
      expect((e as Error).message).toContain('`repo-url`');
    }
  });

  it('accepts the same repository written differently', () => {
    const { plane } = setup();
    const found = plane.add({
      name: 'my-agent',
      source_config: { repo_url: 'https://GitHub.com/Acme/Agent.git' },
    });
    expect(() =>
      checkSameKind(makeConfig({ repoUrl: 'https://github.com/acme/agent/' }), found),
    ).not.toThrow();
  });

  it('refuses a github deployment that reports no repository', () => {
    const { plane } = setup();
    const found = plane.add({ name: 'my-agent', source_config: { repo_url: null } });
    expect(() => checkSameKind(makeConfig(), found)).toThrow(/no repository/);
  });

  it('external_docker: the same source is enough', () => {
    const { plane } = setup();
    const found = plane.add({
      name: 'my-agent',
      source: 'external_docker',
      source_config: {},
      source_revision_config: { image_uri: 'ghcr.io/acme/agent:0.9' },
    });
    expect(() => checkSameKind(dockerConfig(), found)).not.toThrow();
  });
});

describe('checkCreatable', () => {
  it('a github create needs integration-id', () => {
    expect(() => checkCreatable(makeConfig({ integrationId: undefined }))).toThrow(
      /integration-id/,
    );
    expect(() => checkCreatable(makeConfig())).not.toThrow();
  });

  it('external_docker needs no integration-id', () => {
    expect(() => checkCreatable(dockerConfig())).not.toThrow();
  });

  it('a create needs a name', () => {
    expect(() => checkCreatable(dockerConfig({ name: undefined }))).toThrow(/`name`/);
  });
});
