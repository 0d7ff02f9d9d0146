import { describe, expect, it } from '@jest/globals';
import { deploymentFixture, recordingLogger } from '../helpers/fakes.js';
import type { ControlPlane } from '../../src/api/client.js';
import type { Deployment, Revision } from '../../src/api/schemas.js';
import type { GithubContext } from '../../src/inputs/config.js';
import type { RunContext } from '../../src/commands/context.js';
import type { DeployConfig } from '../../src/inputs/config.js';
import type { ParsedLangGraphConfig } from '../../src/preflight/index.js';
import {
  checkUnchanged,
  recordMismatch,
  recordValue,
  skipDecision,
  skippedMessage,
  UNSKIPPABLE_INPUTS,
  withRecord,
  type SkipConfig,
  type SkipEvidence,
} from '../../src/deployment/skip-unchanged.js';
import { RECORD_NAME } from '../../src/inputs/secrets.js';
import type { Comparison } from '../../src/github/reads.js';

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
    apiKey: '',
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
      because: [],
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
    ['upload without secrets', config({ source: 'upload' }), deployment(), revision(), /upload/],
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
      /runs commit bbbbbbbbbbbb, not this one/,
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

/** The run as `checkUnchanged` reads it: the client, the configuration and the logger. */
function run(client: ControlPlane, skipConfig: SkipConfig, logger = recordingLogger()) {
  return { client, config: skipConfig, logger } as unknown as RunContext<DeployConfig>;
}

describe('checkUnchanged', () => {
  it('reads the live revision once, and the latest only when it is another one', async () => {
    const calls: string[] = [];
    const client = {
      getRevision: async (_id: string, rev: string) => {
        calls.push(rev);
        return rev === LIVE ? revision() : revision({ id: rev, status: 'BUILD_FAILED' });
      },
    } as unknown as ControlPlane;
    const same = await checkUnchanged(run(client, config()), deployment(), undefined, undefined);
    expect(same.skip?.skip).toBe(true);
    expect(same.latest?.id).toBe(LIVE);
    expect(calls).toEqual([LIVE]);
    calls.length = 0;
    const other = await checkUnchanged(
      run(client, config()),
      deployment({ latest_revision_id: 'rev-new' }),
      undefined,
      undefined,
    );
    expect(other.skip?.skip).toBe(true);
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
    const logger = recordingLogger();
    const ruledOut = run(failing, config({ resourceSpec: {} }), logger);
    expect(
      (await checkUnchanged(ruledOut, deployment(), undefined, undefined)).skip,
    ).toBeUndefined();
    expect(calls).toBe(0);
    const unread = run(failing, config(), logger);
    expect((await checkUnchanged(unread, deployment(), undefined, undefined)).skip).toBeUndefined();
    expect(calls).toBe(1);
    expect(logger.messages('debug').join('\n')).toMatch(/HTTP 500/);
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

describe('skipDecision with settings (the keyed record)', () => {
  const API_KEY = 'lsv2_sk_test_key';
  const SECRETS = [{ name: 'OPENAI_API_KEY', value: 'sk-one' }];
  /** The deployment as a run that sent `secrets` for `commit` left it. */
  function recorded(secrets = SECRETS, commit = SHA, extra: Partial<Deployment> = {}) {
    const d = deployment(extra);
    return { ...d, secrets: entries(withRecord(API_KEY, d.name, { secrets }, { commit })) };
  }
  const entries = (list: { name: string; value: string }[] | undefined) =>
    (list ?? []).map((s) => ({ name: s.name, value: s.value }));
  const withSecrets = (overrides: Partial<SkipConfig> = {}) =>
    config({ secrets: SECRETS, apiKey: API_KEY, ...overrides });

  it('skips when the record proves the same secrets built the live commit', () => {
    const decision = skipDecision(withSecrets(), recorded(), revision());
    expect(decision).toMatchObject({ skip: true, revisionId: LIVE, commitSha: SHA });
    expect(decision.skip && decision.because?.join(' ')).toMatch(
      /the same `secrets` \(keyed record\)/,
    );
  });

  it('builds, saying why, when a value changed, the record is missing or bound elsewhere', () => {
    const cases: [Deployment, SkipConfig, RegExp][] = [
      [recorded([{ name: 'OPENAI_API_KEY', value: 'sk-two' }]), withSecrets(), /differ/],
      [recorded(), withSecrets({ secrets: [...SECRETS, { name: 'X', value: '1' }] }), /differ/],
      [recorded(), withSecrets({ resourceSpec: { min_scale: 2 } }), /resource-spec.*differ/],
      [recorded(), withSecrets({ apiKey: 'lsv2_sk_other' }), /another API key/],
      [recorded(SECRETS, HEAD), withSecrets(), /differ/],
      [deployment(), withSecrets(), /no record of this action/],
      [
        { ...deployment(), secrets: [{ name: 'LANGGRAPH_DEPLOY_ACTION_DIGEST', value: 'x' }] },
        withSecrets(),
        /readable record/,
      ],
    ];
    for (const [d, c, reason] of cases) {
      const decision = skipDecision(c, d, revision());
      expect(decision.skip ? 'skipped' : decision.reason).toMatch(reason);
    }
  });

  it('a secret changed out of band after the record (which stays): builds, naming it (v1.3)', () => {
    const d = recorded();
    const rogue = d.secrets.map((s) =>
      s.name === 'OPENAI_API_KEY' ? { ...s, value: 'sk-ROGUE' } : s,
    );
    const decision = skipDecision(withSecrets(), { ...d, secrets: rogue }, revision());
    expect(decision.skip ? 'skipped' : decision.reason).toMatch(
      /live environment differs from `secrets` \(OPENAI_API_KEY\)/,
    );
  });

  it('a later revision (even a failed one) replaced the record: builds', () => {
    const d = recorded(SECRETS, SHA, { latest_revision_id: 'rev-new' });
    const failed = revision({ id: 'rev-new', status: 'BUILD_FAILED' });
    const decision = skipDecision(withSecrets(), d, revision(), failed);
    expect(decision.skip ? '' : decision.reason).toMatch(/later revision/);
  });

  it('upload: the same archive and secrets skip; another archive builds', () => {
    const DIGEST = 'd'.repeat(64);
    const d = {
      ...deployment(),
      secrets: entries(
        withRecord(
          API_KEY,
          deployment().name,
          { secrets: SECRETS },
          { sourceDigest: DIGEST, objectPath: 'uploads/x.tar.gz' },
        ),
      ),
    };
    const upload = withSecrets({ source: 'upload' });
    const live = revision({}, { source_tarball_path: 'uploads/x.tar.gz' });
    const same = skipDecision(upload, d, live, undefined, { sourceDigest: DIGEST });
    expect(same).toMatchObject({ skip: true, revisionId: LIVE, commitSha: '' });
    const other = skipDecision(upload, d, live, undefined, { sourceDigest: 'e'.repeat(64) });
    expect(other.skip ? '' : other.reason).toMatch(/source-digest/);
    // An image deployed since (internal_docker, without `secrets`) kept the archive's record:
    // the live revision runs that image, not the archive, so the upload builds.
    const image = revision(
      { source: 'internal_docker' },
      { image_uri: `reg.io/t/a@sha256:${'1'.repeat(64)}` },
    );
    const since = skipDecision(upload, { ...d, source: 'internal_docker' }, image, undefined, {
      sourceDigest: DIGEST,
    });
    expect(since.skip ? '' : since.reason).toMatch(/runs another image/);
  });

  it('upload: skips only when the live revision runs the archive at the path the record names', () => {
    // Run 1 uploaded archive S to P1 with `secrets` (the record); run 2 uploaded T to P2
    // without `secrets` (the environment, and the record, kept); run 3 uploads S again.
    const S = 'd'.repeat(64);
    const [P1, P2] = ['uploads/dep/one.tar.gz', 'uploads/dep/two.tar.gz'];
    const binding = { sourceDigest: S, objectPath: P1 };
    const d = {
      ...deployment(),
      secrets: entries(withRecord(API_KEY, deployment().name, { secrets: SECRETS }, binding)),
    };
    const upload = withSecrets({ source: 'upload' });
    const live = (path?: string) =>
      revision({ source: 'internal_source' }, { repo_commit_sha: null, source_tarball_path: path });
    const first = skipDecision(upload, d, live(P1), undefined, { sourceDigest: S });
    expect(first).toMatchObject({ skip: true, revisionId: LIVE, commitSha: '' });
    const later = skipDecision(upload, d, live(P2), undefined, { sourceDigest: S });
    expect(later.skip ? '' : later.reason).toMatch(/source_tarball_path/);
    const unknown = skipDecision(upload, d, live(undefined), undefined, { sourceDigest: S });
    expect(unknown.skip ? '' : unknown.reason).toMatch(/reports no uploaded archive/);
  });
});

describe('skipDecision for internal_docker (an image pinned by digest)', () => {
  const API_KEY = 'lsv2_sk_test_key';
  const IMAGE = `reg.io/tenant/my-agent@sha256:${'1'.repeat(64)}`;
  const OTHER = `reg.io/tenant/my-agent@sha256:${'2'.repeat(64)}`;
  const SECRETS = [{ name: 'OPENAI_API_KEY', value: 'sk-one' }];
  const image = (overrides: Partial<SkipConfig> = {}) =>
    config({ source: 'internal_docker', imageUri: IMAGE, apiKey: API_KEY, ...overrides });
  const live = (uri = IMAGE) => revision({ source: 'internal_docker' }, { image_uri: uri });

  it('skips when the live revision runs that digest (no secrets sent: the environment is kept)', () => {
    expect(skipDecision(image(), deployment(), live())).toMatchObject({
      skip: true,
      revisionId: LIVE,
      commitSha: '',
    });
    const other = skipDecision(image(), deployment(), live(OTHER));
    expect(other.skip ? '' : other.reason).toMatch(/another image/);
  });

  it('with secrets, skips only when the record binds them to that image', () => {
    const bound = (uri: string) => ({
      ...deployment(),
      secrets: (
        withRecord(API_KEY, deployment().name, { secrets: SECRETS }, { image: uri }) ?? []
      ).map((e) => ({ ...e })),
    });
    const same = skipDecision(image({ secrets: SECRETS }), bound(IMAGE), live());
    expect(same).toMatchObject({ skip: true });
    expect(same.skip && same.because?.join(' ')).toMatch(/the same `secrets`/);
    // A record written for another image (the live one was changed by hand since).
    const moved = skipDecision(image({ secrets: SECRETS }), bound(OTHER), live());
    expect(moved.skip ? '' : moved.reason).toMatch(/differ/);
    const changed = skipDecision(
      image({ secrets: [{ name: 'OPENAI_API_KEY', value: 'sk-two' }] }),
      bound(IMAGE),
      live(),
    );
    expect(changed.skip ? '' : changed.reason).toMatch(/differ/);
  });

  it('says which image runs when it skips', () => {
    const decision = skipDecision(image(), deployment(), live());
    if (!decision.skip) throw new Error(decision.reason);
    expect(skippedMessage('my-agent', decision, image())).toContain(`already runs image ${IMAGE}`);
  });
});

describe('skipDecision across commits (agent files unchanged)', () => {
  const JSON_CONFIG = {
    dependencies: ['.', '../shared'],
    graphs: { a: './src/agent.py:graph' },
    env: '.env',
  };
  const cfg = () =>
    config({ configPath: 'agent/langgraph.json', github: { ...github, sha: HEAD } });
  const live = () => revision({}, { langgraph_config_path: 'agent/langgraph.json' });
  const files = (...names: string[]): Comparison => ({
    files: names.map((filename) => ({ filename, status: 'modified' })),
  });

  it('asks for the compare of the live commit with this one first', () => {
    const decision = skipDecision(cfg(), deployment(), live());
    expect(decision).toMatchObject({ skip: false, compare: { base: SHA, head: HEAD } });
  });

  it('skips when only other folders changed: commit-sha is the live commit, the files are named', () => {
    const decision = skipDecision(cfg(), deployment(), live(), undefined, {
      configJson: JSON_CONFIG,
      changes: files('web/index.html', 'docs/readme.md'),
    });
    expect(decision).toMatchObject({ skip: true, commitSha: SHA, otherCommit: true });
    const message = skippedMessage(
      'my-agent',
      decision as Extract<typeof decision, { skip: true }>,
      cfg(),
    );
    expect(message).toMatch(
      /2 files changed since the live commit \(docs\/readme.md, web\/index.html\)/,
    );
    expect(message).toMatch(/outside what the agent is built from \(agent\/, shared\/ /);
  });

  it('builds when a file of the agent, its dependency, or a rename out of it changed', () => {
    for (const changes of [
      files('agent/langgraph.json'),
      files('agent/src/agent.py', 'web/x'),
      files('shared/util.py'),
      {
        files: [
          { filename: 'web/moved.py', status: 'renamed', previous_filename: 'agent/moved.py' },
        ],
      },
      { files: [{ filename: 'agent/gone.py', status: 'removed' }] },
    ] as Comparison[]) {
      const decision = skipDecision(cfg(), deployment(), live(), undefined, {
        configJson: JSON_CONFIG,
        changes,
      });
      expect(decision.skip ? 'skipped' : decision.reason).toMatch(
        /files the agent is built from changed/,
      );
    }
  });

  it('builds when the change cannot be read or the agent files are unknown', () => {
    const cases: [SkipEvidence, RegExp][] = [
      [
        { configJson: JSON_CONFIG, changes: { unreadable: 'HTTP 403' } },
        /cannot be read: HTTP 403/,
      ],
      [{ changes: files('web/x') }, /without the checkout/],
      [
        { configJson: { dependencies: ['../../../elsewhere'] }, changes: files('web/x') },
        /leaves the repository/,
      ],
    ];
    for (const [evidence, reason] of cases) {
      const decision = skipDecision(cfg(), deployment(), live(), undefined, evidence);
      expect(decision.skip ? 'skipped' : decision.reason).toMatch(reason);
    }
  });

  it('checkUnchanged reads the compare only when it could allow the skip', async () => {
    const client = { getRevision: async () => live() } as unknown as ControlPlane;
    const asked: string[] = [];
    const compare = async (base: string, head: string) => {
      asked.push(`${base}...${head}`);
      return files('web/x');
    };
    const parsed = { json: JSON_CONFIG } as ParsedLangGraphConfig;
    const other = await checkUnchanged(
      run(client, cfg()),
      deployment(),
      parsed,
      undefined,
      compare,
    );
    expect(other.skip?.skip).toBe(true);
    expect(asked).toEqual([`${SHA}...${HEAD}`]);
    const same = config({ configPath: 'agent/langgraph.json' });
    await checkUnchanged(run(client, same), deployment(), undefined, undefined, compare);
    expect(asked).toHaveLength(1);
  });
});

// The keyed record of the settings.
const KEY = 'lsv2_sk_0123';
const SECRETS = [
  { name: 'B', value: 'two\nlines' },
  { name: 'A', value: '' },
];
const COMMIT = { commit: 'a'.repeat(40) };

describe('canonical form', () => {
  it('does not depend on key or entry order, and keeps string boundaries', () => {
    const canonical = (secrets: typeof SECRETS) =>
      recordValue(KEY, 'my-agent', { secrets }, COMMIT);
    const one = canonical(SECRETS);
    expect(canonical([...SECRETS].reverse())).toBe(one);
    expect(canonical([{ name: 'A', value: 'bc' }])).not.toBe(
      canonical([{ name: 'Ab', value: 'c' }]),
    );
    // The record itself never enters the digest.
    expect(canonical([...SECRETS, { name: RECORD_NAME, value: 'v1:x' }])).toBe(one);
  });
});

describe('the record', () => {
  it('is an HMAC that changes with every input, the binding, the key and the deployment', () => {
    const base = recordValue(KEY, 'my-agent', { secrets: SECRETS }, COMMIT);
    expect(base).toMatch(/^v1:[A-Za-z0-9_-]{43}$/);
    expect(base).not.toContain('two');
    const variants = [
      recordValue(KEY, 'my-agent', { secrets: [{ name: 'B', value: 'two\nlines' }] }, COMMIT),
      recordValue(KEY, 'my-agent', { secrets: SECRETS, resourceSpec: { min_scale: 1 } }, COMMIT),
      recordValue(KEY, 'my-agent', { secrets: SECRETS, installCommand: 'yarn' }, COMMIT),
      recordValue(KEY, 'my-agent', { secrets: SECRETS, buildCommand: 'yarn build' }, COMMIT),
      recordValue(KEY, 'my-agent', { secrets: SECRETS }, { commit: 'b'.repeat(40) }),
      recordValue(
        KEY,
        'my-agent',
        { secrets: SECRETS },
        { sourceDigest: 'a'.repeat(40), objectPath: 'p' },
      ),
      recordValue(
        KEY,
        'my-agent',
        { secrets: SECRETS },
        { sourceDigest: 'a'.repeat(40), objectPath: 'q' },
      ),
      recordValue('lsv2_sk_other', 'my-agent', { secrets: SECRETS }, COMMIT),
      recordValue(KEY, 'my-agent-2', { secrets: SECRETS }, COMMIT),
    ];
    expect(new Set([base, ...variants]).size).toBe(variants.length + 1);
  });

  it('travels only with secrets, replacing any earlier record', () => {
    expect(withRecord(KEY, 'x', {}, COMMIT)).toBeUndefined();
    const sent = withRecord(
      KEY,
      'x',
      { secrets: [...SECRETS, { name: RECORD_NAME, value: 'old' }] },
      COMMIT,
    )!;
    expect(sent.map((s) => s.name)).toEqual(['B', 'A', RECORD_NAME]);
    expect(recordMismatch(KEY, 'x', { secrets: SECRETS }, sent, COMMIT)).toBeUndefined();
  });

  it('cannot compare two records or a record without a value', () => {
    const sent = withRecord(KEY, 'x', { secrets: SECRETS }, COMMIT)!;
    const twice = [...sent, sent[sent.length - 1]!];
    expect(recordMismatch(KEY, 'x', { secrets: SECRETS }, twice, COMMIT)).toBeDefined();
    expect(recordMismatch(KEY, 'x', { secrets: SECRETS }, [{ name: RECORD_NAME }], COMMIT)).toMatch(
      /readable record/,
    );
  });
});
