import { describe, expect, it } from '@jest/globals';
import { deploymentFixture } from '../helpers/fakes.js';
import type { ControlPlane } from '../../src/control-plane/api.js';
import type { Deployment, Revision } from '../../src/control-plane/schemas.js';
import type { GithubContext } from '../../src/config.js';
import {
  findLiveRevision,
  isInProgress,
  skipDecision,
  skippedMessage,
  UNSKIPPABLE_INPUTS,
  type SkipConfig,
} from '../../src/deployment/skip-unchanged.js';
import type { Logger } from '../../src/runner.js';

const SHA = 'a'.repeat(40);
const HEAD = 'b'.repeat(40);
const LIVE = 'rev-live';

const github: GithubContext = {
  eventName: 'push',
  ref: 'refs/heads/main',
  sha: SHA,
  repository: 'acme/agent',
  serverUrl: 'https://github.com',
  apiUrl: 'https://api.github.com',
  runId: '1',
  runAttempt: '2',
  workspace: '/tmp',
};

function config(overrides: Partial<SkipConfig> = {}): SkipConfig {
  return {
    source: 'github',
    skipUnchanged: true,
    repoRef: 'main',
    configPath: 'langgraph.json',
    github,
    ...overrides,
  };
}

function deployment(overrides: Partial<Deployment> = {}): Deployment {
  return deploymentFixture({ latest_revision_id: LIVE, active_revision_id: LIVE, ...overrides });
}

function revision(
  overrides: Partial<Revision> = {},
  config: Record<string, unknown> = {},
): Revision {
  return {
    id: LIVE,
    status: 'DEPLOYED',
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:05:00Z',
    source: 'github',
    source_revision_config: {
      repo_ref: 'main',
      langgraph_config_path: 'langgraph.json',
      repo_commit_sha: SHA,
      ...config,
    },
    ...overrides,
  };
}

describe('skipDecision', () => {
  it('skips when the live DEPLOYED revision runs this commit, ref and config path', () => {
    expect(skipDecision(config(), deployment(), revision())).toEqual({
      skip: true,
      revisionId: LIVE,
      commitSha: SHA,
    });
    // Case does not matter in a hex commit ID.
    const upper = revision({}, { repo_commit_sha: SHA.toUpperCase() });
    expect(skipDecision(config(), deployment(), upper).skip).toBe(true);
  });

  it('compares the PR head commit on pull requests, not GITHUB_SHA (the merge commit)', () => {
    const pr = config({
      github: {
        ...github,
        eventName: 'pull_request',
        pullRequest: {
          number: 7,
          headRef: 'feature',
          headSha: HEAD,
          headRepoFullName: 'acme/agent',
          baseRepoFullName: 'acme/agent',
        },
      },
    });
    expect(skipDecision(pr, deployment(), revision()).skip).toBe(false);
    expect(skipDecision(pr, deployment(), revision({}, { repo_commit_sha: HEAD })).skip).toBe(true);
  });

  const noSkip: [string, SkipConfig, Deployment, Revision | undefined, RegExp][] = [
    ['skip-unchanged false', config({ skipUnchanged: false }), deployment(), revision(), /false/],
    ['another source', config({ source: 'external_docker' }), deployment(), revision(), /github/],
    [
      'secrets given (even an empty list)',
      config({ secrets: [] }),
      deployment(),
      revision(),
      /`secrets`/,
    ],
    [
      'resource-spec given',
      config({ resourceSpec: {} }),
      deployment(),
      revision(),
      /resource-spec/,
    ],
    [
      'install-command given',
      config({ installCommand: 'yarn' }),
      deployment(),
      revision(),
      /install-command/,
    ],
    [
      'build-command given',
      config({ buildCommand: 'yarn build' }),
      deployment(),
      revision(),
      /build-command/,
    ],
    [
      'no commit known',
      config({ github: { ...github, sha: '' } }),
      deployment(),
      revision(),
      /unknown/,
    ],
    ['no live revision', config(), deployment({ active_revision_id: null }), undefined, /no live/],
    ['live revision unreadable', config(), deployment(), undefined, /could not be read/],
    [
      'live revision not DEPLOYED',
      config(),
      deployment(),
      revision({ status: 'DEPLOYING' }),
      /not DEPLOYED/,
    ],
    [
      'another commit',
      config(),
      deployment(),
      revision({}, { repo_commit_sha: HEAD }),
      /another commit/,
    ],
    [
      'no commit reported',
      config(),
      deployment(),
      revision({}, { repo_commit_sha: null }),
      /no commit/,
    ],
    ['another ref', config({ repoRef: 'release' }), deployment(), revision(), /repo-ref/],
    [
      'another config path',
      config({ configPath: 'app/langgraph.json' }),
      deployment(),
      revision(),
      /config-path/,
    ],
    [
      'a newer revision that was not read',
      config(),
      deployment({ latest_revision_id: 'rev-new' }),
      revision(),
      /newer revision/,
    ],
  ];
  for (const [label, c, d, r, reason] of noSkip) {
    it(`builds when ${label}`, () => {
      const decision = skipDecision(c, d, r);
      expect(decision.skip).toBe(false);
      expect(decision.skip ? '' : decision.reason).toMatch(reason);
    });
  }

  it('a newer revision still in progress prevents the skip; a finished one does not', () => {
    const d = deployment({ latest_revision_id: 'rev-new' });
    const newer = (status: string) => revision({ id: 'rev-new', status });
    expect(skipDecision(config(), d, revision(), newer('BUILDING')).skip).toBe(false);
    for (const status of ['BUILD_FAILED', 'SKIPPED', 'INTERRUPTED']) {
      expect(skipDecision(config(), d, revision(), newer(status)).skip).toBe(true);
    }
  });

  it('every input that changes what a revision builds is listed', () => {
    expect(UNSKIPPABLE_INPUTS.map((u) => u.input)).toEqual([
      'secrets',
      'resource-spec',
      'install-command',
      'build-command',
    ]);
  });
});

describe('isInProgress', () => {
  it('is true for the waiting and working statuses and ones it does not know', () => {
    for (const s of [
      'QUEUED',
      'AWAITING_BUILD',
      'BUILDING',
      'AWAITING_DEPLOY',
      'DEPLOYING',
      'UNKNOWN',
      'NEW',
    ]) {
      expect([s, isInProgress(s)]).toEqual([s, true]);
    }
    for (const s of [
      'DEPLOYED',
      'BUILD_FAILED',
      'DEPLOY_FAILED',
      'CREATE_FAILED',
      'SKIPPED',
      'INTERRUPTED',
    ]) {
      expect([s, isInProgress(s)]).toEqual([s, false]);
    }
  });
});

function silentLogger(): Logger & { debugs: string[] } {
  const debugs: string[] = [];
  return {
    debugs,
    info: () => undefined,
    debug: (m) => debugs.push(m),
    notice: () => undefined,
    warning: () => undefined,
    error: () => undefined,
  };
}

describe('findLiveRevision', () => {
  it('reads the live revision once, and the latest only when it is another one', async () => {
    const calls: string[] = [];
    const client = {
      getRevision: async (_id: string, rev: string) => {
        calls.push(rev);
        return rev === LIVE ? revision() : revision({ id: rev, status: 'BUILD_FAILED' });
      },
    } as unknown as ControlPlane;
    const same = await findLiveRevision(client, config(), deployment(), silentLogger());
    expect(same.decision.skip).toBe(true);
    expect(same.latest?.id).toBe(LIVE);
    expect(calls).toEqual([LIVE]);
    calls.length = 0;
    const other = await findLiveRevision(
      client,
      config(),
      deployment({ latest_revision_id: 'rev-new' }),
      silentLogger(),
    );
    expect(other.decision.skip).toBe(true);
    expect(calls).toEqual([LIVE, 'rev-new']);
  });

  it('makes no request when an input already rules the skip out, and builds when a read fails', async () => {
    let calls = 0;
    const failing = {
      getRevision: async () => {
        calls++;
        throw new Error('HTTP 500');
      },
    } as unknown as ControlPlane;
    const logger = silentLogger();
    expect(
      (await findLiveRevision(failing, config({ secrets: [] }), deployment(), logger)).decision
        .skip,
    ).toBe(false);
    expect(calls).toBe(0);
    expect((await findLiveRevision(failing, config(), deployment(), logger)).decision.skip).toBe(
      false,
    );
    expect(calls).toBe(1);
    expect(logger.debugs.join('\n')).toMatch(/HTTP 500/);
  });
});

describe('skippedMessage', () => {
  it('says why nothing was built and how to force a build', () => {
    const text = skippedMessage(
      'my-agent',
      { skip: true, revisionId: LIVE, commitSha: SHA },
      config(),
    );
    expect(text).toContain(LIVE);
    expect(text).toContain(SHA.slice(0, 12));
    expect(text).toContain('`skip-unchanged: false`');
    expect(text).toMatch(/secrets.*resource-spec.*install-command.*build-command/);
  });

  it('neutralises workflow commands in values from the control plane', () => {
    const text = skippedMessage(
      'x',
      { skip: true, revisionId: '::error::x', commitSha: SHA },
      config(),
    );
    expect(text).not.toContain('::error::');
  });
});
