import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkImageUri, preflightConfig, reportFindings } from '../../src/preflight/index.js';
import type { Finding } from '../../src/preflight/index.js';
import {
  VALID,
  VALID_FILES,
  check,
  errors,
  keys,
  makeWorkspace,
  removeWorkspaces,
  warnings,
} from './helpers.js';

afterAll(removeWorkspaces);

describe('config-path', () => {
  it('passes a config at the repository root and one in a subfolder', () => {
    expect(check(VALID).findings).toEqual([]);
    const nested = check(VALID, {
      configPath: 'apps/agent/langgraph.json',
      files: { 'apps/agent/src/agent.py': '' },
    });
    expect(nested.findings).toEqual([]);
    expect(nested.parsed?.file).toBe('apps/agent/langgraph.json');
  });

  it('refuses a path that escapes the workspace', () => {
    const workspace = makeWorkspace({ 'langgraph.json': VALID });
    const r = preflightConfig({
      github: { workspace: join(workspace, 'sub') },
      configPath: '../langgraph.json',
    });
    expect(r.parsed).toBeUndefined();
    expect(r.skipped).toBeUndefined();
    expect(errors(r)).toHaveLength(1);
    expect(errors(r)[0]).toMatchObject({ key: 'config-path' });
    expect(errors(r)[0]?.message).toContain('outside the repository');
  });

  it('refuses an absolute path and a folder', () => {
    const workspace = makeWorkspace({ ...VALID_FILES, 'langgraph.json': VALID });
    const absolute = preflightConfig({
      github: { workspace },
      configPath: join(workspace, 'langgraph.json'),
    });
    expect(errors(absolute)[0]?.message).toContain('absolute path');
    const folder = preflightConfig({ github: { workspace }, configPath: 'src' });
    expect(errors(folder)[0]?.message).toContain('is a folder');
  });

  it('refuses a symbolic link to a file outside the workspace', () => {
    const outside = makeWorkspace({ 'langgraph.json': VALID });
    const workspace = makeWorkspace(VALID_FILES);
    symlinkSync(join(outside, 'langgraph.json'), join(workspace, 'langgraph.json'));
    expect(
      errors(preflightConfig({ github: { workspace }, configPath: 'langgraph.json' }))[0]?.message,
    ).toContain('symbolic link');
  });

  it('skips with one notice when the file is absent (no checkout)', () => {
    const workspace = makeWorkspace({});
    const r = preflightConfig({ github: { workspace }, configPath: 'langgraph.json', secrets: [] });
    expect(r.findings).toHaveLength(1);
    expect(r.findings[0]?.level).toBe('notice');
    expect(r.findings[0]?.message).toContain('actions/checkout');
    expect(r.skipped).toBe(r.findings[0]?.message);
    expect(r.parsed).toBeUndefined();
  });

  it('fails when the workspace holds a checkout but not the file (before any request)', () => {
    const workspace = makeWorkspace({ '.git/HEAD': 'ref: refs/heads/main\n' });
    const r = preflightConfig({ github: { workspace }, configPath: 'agent/langgraph.json' });
    expect(r.findings.map((f) => f.level)).toEqual(['error']);
    expect(r.findings[0]?.key).toBe('config-path');
    expect(r.findings[0]?.message).toMatch(/agent\/langgraph\.json is not in the checked-out/);
    expect(r.findings[0]?.message).toMatch(/Fix config-path/);
    expect(r.skipped).toBeUndefined();
  });

  it('fails too for a checkout without .git (e.g. a downloaded archive) that holds files', () => {
    const workspace = makeWorkspace({ 'README.md': '# agent\n', 'src/agent.py': 'graph = 1\n' });
    const r = preflightConfig({ github: { workspace }, configPath: 'langgraph.json' });
    expect(r.findings.map((f) => f.level)).toEqual(['error']);
  });
});

describe('JSON syntax', () => {
  it('reports a missing comma with its line and column', () => {
    const r = check('{\n  "dependencies": ["."]\n  "graphs": {}\n}\n');
    expect(r.parsed).toBeUndefined();
    expect(errors(r)).toHaveLength(1);
    expect(errors(r)[0]).toMatchObject({ file: 'langgraph.json', line: 3, column: 3 });
    expect(errors(r)[0]?.message).toBe(
      "langgraph.json is not valid JSON: ',' was expected (line 3, column 3). The platform cannot read the config: fix it (JSON allows no comments and no trailing commas).",
    );
  });

  it('lists every syntax error of the file, one per line, not only the first', () => {
    const r = check('{\n  "dependencies": ["."]\n  "graphs": {\n    "agent": "./a.py:g",\n  }\n}');
    expect(r.parsed).toBeUndefined();
    expect(errors(r).map((f) => [f.line, f.column])).toEqual([
      [3, 3],
      [4, 24],
    ]);
    expect(errors(r)[1]?.message).toContain('trailing comma');
    const two = check('{\n  "dependencies": ["."]\n  "graphs": {}\n  "env": ".env"\n}');
    expect(errors(two).map((f) => f.message)).toEqual([
      expect.stringContaining("',' was expected (line 3, column 3)"),
      expect.stringContaining("',' was expected (line 4, column 3)"),
    ]);
    // The parser's echoes of one mistake on the same line are not listed again.
    expect(errors(check("{'graphs': {}}"))).toHaveLength(1);
  });

  it('caps a file of many syntax errors with one line that counts the rest', () => {
    const lines = Array.from({ length: 30 }, (_, i) => `  "k${i}": 1`).join('\n');
    const r = check(`{\n${lines}\n}`);
    expect(errors(r)).toHaveLength(21);
    expect(errors(r)[20]?.message).toBe('langgraph.json has 9 more syntax errors on later lines.');
  });

  it('points at a trailing comma', () => {
    const r = check('{\n  "graphs": {"agent": "./src/agent.py:graph"},\n}');
    expect(errors(r)[0]).toMatchObject({ line: 2, column: 46 });
    expect(errors(r)[0]?.message).toContain('trailing comma');
  });

  it('rejects comments, single quotes and an empty file', () => {
    expect(errors(check('{\n  // graphs\n  "graphs": {}\n}'))[0]?.message).toContain(
      'comments are not allowed',
    );
    expect(errors(check("{'graphs': {}}"))[0]?.message).toContain('double quotes');
    expect(errors(check(''))[0]?.message).toContain('the file is empty');
  });

  it('rejects a byte order mark, keeping positions of the other findings', () => {
    const r = check(
      `\ufeff${JSON.stringify({ ...VALID, graphs: { agent: './nope.py:g' } }, null, 2)}`,
    );
    expect(errors(r).map((f) => f.message)).toEqual([
      expect.stringContaining('byte order mark'),
      expect.stringContaining('./nope.py'),
    ]);
    expect(errors(r)[1]).toMatchObject({ line: 6, column: 14 });
  });

  it('requires a top-level object', () => {
    expect(errors(check('[]'))[0]?.message).toContain('must hold a JSON object');
  });
});

describe('graphs', () => {
  it('requires graphs, as a non-empty object', () => {
    const missing = check({ dependencies: ['.'] });
    expect(keys(errors(missing))).toEqual(['graphs']);
    expect(errors(missing)[0]?.message).toContain('has no "graphs"');
    expect(errors(check({ ...VALID, graphs: {} }))[0]?.message).toContain('graphs is empty');
    expect(errors(check({ ...VALID, graphs: ['./src/agent.py:graph'] }))[0]?.message).toContain(
      'graphs is an array',
    );
  });

  it('accepts the object form with path and description', () => {
    const r = check({
      ...VALID,
      graphs: { agent: { path: './src/agent.py:graph', description: 'Answers' } },
    });
    expect(r.findings).toEqual([]);
  });

  it('rejects entries of other forms', () => {
    const r = check({
      ...VALID,
      graphs: {
        a: 3,
        b: { description: 'no path' },
        c: { path: 4 },
        d: { path: './src/agent.py:graph', description: 5 },
      },
    });
    expect(keys(errors(r))).toEqual([
      'graphs.a',
      'graphs.b',
      'graphs.c.path',
      'graphs.d.description',
    ]);
  });

  it('warns about unknown keys of a graph object', () => {
    const r = check({
      ...VALID,
      graphs: { agent: { path: './src/agent.py:graph', descripton: 'typo' } },
    });
    expect(errors(r)).toEqual([]);
    expect(keys(warnings(r))).toEqual(['graphs.agent.descripton']);
  });

  it('reports a graph file that is not in the repository, on its line', () => {
    const r = check({
      ...VALID,
      graphs: { agent: './src/agent.py:graph', other: './src/other.py:graph' },
    });
    expect(errors(r)).toHaveLength(1);
    expect(errors(r)[0]).toMatchObject({
      key: 'graphs.other',
      file: 'langgraph.json',
      line: 7,
      column: 14,
    });
    expect(errors(r)[0]?.message).toContain('looked for src/other.py');
  });

  it('resolves file paths from the folder of the config', () => {
    const files = { 'apps/agent/src/agent.py': '' };
    expect(check(VALID, { configPath: 'apps/agent/langgraph.json', files }).findings).toEqual([]);
    const atRoot = check(
      { ...VALID, graphs: { agent: './agent.py:graph' } },
      { configPath: 'apps/agent/langgraph.json', files: { 'agent.py': '' } },
    );
    expect(errors(atRoot)[0]?.message).toContain('looked for apps/agent/agent.py');
  });

  it('checks files without ./ and with an extension, but not module references', () => {
    expect(errors(check({ ...VALID, graphs: { agent: 'src/agent.py:graph' } }))).toEqual([]);
    expect(keys(errors(check({ ...VALID, graphs: { agent: 'agent.py:graph' } })))).toEqual([
      'graphs.agent',
    ]);
    expect(check({ ...VALID, graphs: { agent: 'my_pkg.graph:app' } }).findings).toEqual([]);
  });

  it('lets a JS/TS file omit the export, not a Python file', () => {
    const js = check({ graphs: { agent: './src/agent.ts' } }, { files: { 'src/agent.ts': '' } });
    expect(js.findings).toEqual([]);
    const py = check({ ...VALID, graphs: { agent: './src/agent.py' } });
    expect(errors(py)[0]?.message).toContain('without an attribute');
    expect(errors(check({ ...VALID, graphs: { agent: './src/agent.py:' } }))[0]?.message).toContain(
      'with one',
    );
    expect(errors(check({ ...VALID, graphs: { agent: ':graph' } }))[0]?.message).toContain(
      'with one',
    );
  });

  it('rejects a folder, a path outside the repository and surrounding spaces', () => {
    expect(errors(check({ ...VALID, graphs: { agent: './src:graph' } }))[0]?.message).toContain(
      'is a folder',
    );
    expect(
      errors(check({ ...VALID, graphs: { agent: '../../x.py:graph' } }))[0]?.message,
    ).toContain('outside the repository');
    expect(
      errors(check({ ...VALID, graphs: { agent: ' ./src/agent.py:graph' } }))[0]?.message,
    ).toContain('spaces');
  });

  it('checks auth.path and the other code references', () => {
    const ok = {
      ...VALID,
      auth: { path: './src/agent.py:auth' },
      http: { app: './src/agent.py:app' },
    };
    expect(check(ok).findings).toEqual([]);
    const r = check({
      ...VALID,
      auth: { path: './src/auth.py:auth' },
      http: { app: './src/app.py:app' },
    });
    expect(keys(errors(r))).toEqual(['auth.path', 'http.app']);
  });
});

describe('dependencies', () => {
  it('requires local dependencies to be folders of the repository', () => {
    expect(check({ ...VALID, dependencies: ['.', './src', 'langchain-openai'] }).findings).toEqual(
      [],
    );
    const r = check({ ...VALID, dependencies: ['.', './libs/missing', './src/agent.py', 3] });
    expect(keys(errors(r))).toEqual(['dependencies[1]', 'dependencies[2]', 'dependencies[3]']);
  });

  it('only warns about a wrong local dependency in a JS config (its build does not use them)', () => {
    const r = check(
      { dependencies: ['./missing'], graphs: { agent: './src/a.ts:graph' } },
      { files: { 'src/a.ts': '' } },
    );
    expect(errors(r)).toEqual([]);
    expect(keys(warnings(r))).toEqual(['dependencies[0]']);
  });

  it('requires dependencies in a Python config, not in a JS one', () => {
    expect(errors(check({ graphs: VALID.graphs }))[0]?.message).toContain('has no "dependencies"');
    expect(errors(check({ dependencies: [], graphs: VALID.graphs }))[0]?.message).toContain(
      'dependencies is empty',
    );
    expect(
      check(
        { node_version: '20', graphs: { agent: './src/a.ts:graph' } },
        { files: { 'src/a.ts': '' } },
      ).findings,
    ).toEqual([]);
  });

  it('requires a Python graph file to be inside a local dependency', () => {
    const files = { 'libs/pkg/pyproject.toml': '', 'src/agent.py': '' };
    const r = check(
      { dependencies: ['./libs/pkg'], graphs: { agent: './src/agent.py:graph' } },
      { files },
    );
    expect(keys(errors(r))).toEqual(['graphs.agent']);
    expect(errors(r)[0]?.message).toContain('no local entry of "dependencies" contains');
    expect(
      check(
        { dependencies: ['./libs/pkg', './src'], graphs: { agent: './src/agent.py:graph' } },
        { files },
      ).findings,
    ).toEqual([]);
  });
});

describe('keys', () => {
  it('warns about an unknown top-level key, with a suggestion', () => {
    const r = check({ ...VALID, python_version: '3.12', dockerfile_line: [] });
    expect(errors(r)).toEqual([]);
    expect(warnings(r)).toHaveLength(1);
    expect(warnings(r)[0]?.message).toContain('unknown top-level key "dockerfile_line"');
    expect(warnings(r)[0]?.message).toContain('Did you mean "dockerfile_lines"?');
  });

  it('warns about a key given twice', () => {
    const r = check(
      '{"dependencies": ["."], "graphs": {"agent": "./src/agent.py:graph"}, "graphs": {"agent": "./src/agent.py:graph"}}',
    );
    expect(keys(warnings(r))).toEqual(['graphs']);
  });
});

describe('env', () => {
  it('collects the names of an env mapping', () => {
    const r = check({ ...VALID, env: { LG_WEBHOOK_TOKEN: 'x', DEBUG: 'true' } });
    expect(r.findings).toEqual([]);
    expect(r.parsed?.configEnvNames).toEqual(['LG_WEBHOOK_TOKEN', 'DEBUG']);
  });

  it('collects the names of an env file of the repository, and warns when it is absent', () => {
    const present = check(
      { ...VALID, env: '.env.deploy' },
      { files: { '.env.deploy': '# c\nexport A=1\nB = 2\n\nnot a line\n' } },
    );
    expect(present.findings).toEqual([]);
    expect(present.parsed?.configEnvNames).toEqual(['A', 'B']);
    const absent = check({ ...VALID, env: '.env' });
    expect(keys(warnings(absent))).toEqual(['env']);
    expect(absent.parsed?.configEnvNames).toEqual([]);
  });

  it('reads a quoted value over several lines as one value, not as variables', () => {
    const r = check(
      { ...VALID, env: '.env' },
      {
        files: {
          '.env': 'A=1\nPEM="-----BEGIN KEY-----\nNOT_A_VAR=inside\n-----END KEY-----"\nB=2\n',
        },
      },
    );
    expect(r.findings).toEqual([]);
    expect([...(r.parsed?.configEnvNames ?? [])].sort()).toEqual(['A', 'B', 'PEM']);
  });

  it('says nothing about an absent .env that git ignores (the LangGraph templates)', () => {
    const ignored = check(
      { ...VALID, env: '.env' },
      { files: { '.gitignore': 'node_modules\n.env\n' } },
    );
    expect(ignored.findings).toEqual([]);
    expect(ignored.parsed?.configEnvNames).toEqual([]);
    // Ignored by a pattern, by a nested .gitignore (relative to its folder), by info/exclude.
    expect(
      check({ ...VALID, env: '.env.local' }, { files: { '.gitignore': '.env*\n' } }).findings,
    ).toEqual([]);
    const nested = check(
      { ...VALID, env: '.env' },
      { configPath: 'apps/agent/langgraph.json', files: { 'apps/.gitignore': 'agent/.env\n' } },
    );
    expect(nested.findings.filter((f) => f.key === 'env')).toEqual([]);
    expect(
      check({ ...VALID, env: '.env' }, { files: { '.git/info/exclude': '/.env\n' } }).findings,
    ).toEqual([]);
  });

  it('still warns when the absent env file is not ignored, or re-included by a later rule', () => {
    const other = check({ ...VALID, env: '.env' }, { files: { '.gitignore': '.venv\n*.log\n' } });
    expect(keys(warnings(other))).toEqual(['env']);
    const reincluded = check(
      { ...VALID, env: '.env' },
      { files: { '.gitignore': '.env*\n!.env\n' } },
    );
    expect(keys(warnings(reincluded))).toEqual(['env']);
    const anchoredElsewhere = check(
      { ...VALID, env: '.env' },
      { configPath: 'apps/agent/langgraph.json', files: { '.gitignore': '/.env\n' } },
    );
    expect(keys(warnings(anchoredElsewhere))).toEqual(['env']);
  });

  it('rejects an env of another type, and warns about non-string values', () => {
    expect(keys(errors(check({ ...VALID, env: 3 })))).toEqual(['env']);
    expect(keys(warnings(check({ ...VALID, env: { PORT: 8080 } })))).toEqual(['env.PORT']);
  });

  it('warns about a secret committed in env, without repeating it', () => {
    const token = 'sk-proj-abcdefghijklmnop1234567890';
    const r = check({ ...VALID, env: { OPENAI_API_KEY: token, MODEL: 'gpt-4o-mini' } });
    expect(keys(warnings(r))).toEqual(['env.OPENAI_API_KEY']);
    expect(JSON.stringify(r.findings)).not.toContain(token);
  });
});

describe('reportFindings', () => {
  it('annotates each finding with file, line and column, and says whether one is an error', () => {
    const calls: [string, string, unknown][] = [];
    const logger = {
      info: () => undefined,
      debug: () => undefined,
      notice: (m: string, p?: unknown) => calls.push(['notice', m, p]),
      warning: (m: string, p?: unknown) => calls.push(['warning', m, p]),
      error: (m: string, p?: unknown) => calls.push(['error', m, p]),
    };
    const findings: Finding[] = [
      { level: 'error', message: 'e', key: 'graphs.a', file: 'langgraph.json', line: 3, column: 5 },
      { level: 'warning', message: 'w', key: 'image-uri' },
    ];
    expect(reportFindings(logger, findings)).toBe(true);
    expect(calls).toEqual([
      [
        'error',
        'e',
        {
          title: 'LangGraph config: graphs.a',
          file: 'langgraph.json',
          startLine: 3,
          startColumn: 5,
        },
      ],
      ['warning', 'w', { title: 'Pre-flight check: image-uri' }],
    ]);
    expect(reportFindings(logger, [findings[1] as Finding])).toBe(false);
  });
});

describe('cost', () => {
  it('loads nothing but node:fs, node:path, node:util, jsonc-parser, ignore (already in the bundle for the archive) and the path rule (type imports aside)', () => {
    const root = join(import.meta.dirname, '../../src');
    const sources = readdirSync(join(root, 'preflight')).map((f) => `preflight/${f}`);
    const external = new Set<string>();
    for (const file of sources) {
      const text = readFileSync(join(root, file), 'utf8');
      for (const m of text.matchAll(/^(import|export)\s+(type\s+)?[^;]*?from\s+'([^']+)'/gms)) {
        const spec = m[3] ?? '';
        const local = spec.startsWith('./');
        // The one path rule (src/lib/paths.ts) loads only node:fs and node:path itself.
        if (/^(\.\.?\/)+lib\/paths\.js$/.test(spec)) continue;
        // The inputs' edit distance and variable-name rule (inputs/spec.ts, inputs/secrets.ts:
        // no imports but types).
        if (spec === '../inputs/spec.js' || spec === '../inputs/secrets.js') continue;
        if (!m[2] && !local) external.add(spec);
      }
    }
    expect([...external].sort()).toEqual([
      'ignore',
      'jsonc-parser',
      'node:fs',
      'node:path',
      'node:util',
    ]);
  });

  // How long it takes is measured in bench/hostile.ts (speed goals live in the bench).
  it('reports each of 2,000 broken headers of a large config once', () => {
    const headers: Record<string, string> = {};
    for (let i = 0; i < 2000; i++) headers[`X-H${i}`] = `\${{ env.TOKEN_${i} }}`;
    const workspace = makeWorkspace({
      ...VALID_FILES,
      'langgraph.json': { ...VALID, webhooks: { headers } },
    });
    const r = preflightConfig({ github: { workspace }, configPath: 'langgraph.json', secrets: [] });
    expect(errors(r)).toHaveLength(2000);
  });
});

it('never writes to the workspace', () => {
  const workspace = makeWorkspace({ ...VALID_FILES, 'langgraph.json': VALID });
  mkdirSync(join(workspace, 'extra'));
  writeFileSync(join(workspace, 'extra/x'), '');
  preflightConfig({ github: { workspace }, configPath: 'langgraph.json', secrets: [] });
  expect(readdirSync(workspace).sort()).toEqual(['extra', 'langgraph.json', 'src']);
});

const DIGEST = `sha256:${'0123456789abcdef'.repeat(4)}`;

describe('checkImageUri', () => {
  it.each([
    'ghcr.io/my-org/my-agent:1.2.0',
    `ghcr.io/my-org/my-agent@${DIGEST}`,
    `registry.example.com:5000/team/agent:v1_2.3-rc1@${DIGEST}`,
    'localhost:5000/agent:dev',
    'docker.io/library/python:3.12-slim',
    '123456789012.dkr.ecr.us-east-1.amazonaws.com/agent:sha-abc123',
    'my-agent:latest',
    'org/my__agent.v2:1',
    '[::1]:5000/agent:1',
  ])('accepts %s', (uri) => {
    expect(checkImageUri(uri)).toEqual([]);
  });

  it.each([
    ['', 'is empty'],
    ['   ', 'is empty'],
    ['ghcr.io/org/agent:1.0 ', 'whitespace'],
    ['https://ghcr.io/org/agent:1.0', 'URL scheme'],
    ['docker://agent:1', 'URL scheme'],
    ['ghcr.io/Org/Agent:1.0', 'must be lowercase'],
    ['ghcr.io/org/agent:', 'invalid tag ""'],
    ['ghcr.io/org/agent:-dev', 'invalid tag "-dev"'],
    [`ghcr.io/org/agent:${'a'.repeat(129)}`, 'invalid tag'],
    ['ghcr.io/org/agent@sha256:1234', 'invalid digest'],
    ['ghcr.io/org/agent@latest', 'invalid digest'],
    [`ghcr.io/org/agent@sha256:${'A'.repeat(64)}`, 'invalid digest'],
    ['ghcr.io/org/-agent:1', 'invalid repository name part "-agent"'],
    ['ghcr.io//agent:1', 'invalid repository name part ""'],
    ['bad_host.io/agent:1', 'invalid registry'],
    ['a:b:c', 'invalid repository name part'],
    [`${'a'.repeat(256)}:1`, 'longer than 255'],
  ])('rejects %j', (uri, expected) => {
    const findings = checkImageUri(uri);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ level: 'error', key: 'image-uri' });
    expect(findings[0]?.message).toContain(expected);
    expect(findings[0]?.message.startsWith('image-uri')).toBe(true);
  });

  it('warns that a reference without tag or digest pulls latest', () => {
    for (const uri of ['my-agent', 'ghcr.io/org/agent', 'localhost:5000/agent']) {
      const findings = checkImageUri(uri);
      expect(findings).toEqual([
        {
          level: 'warning',
          key: 'image-uri',
          message: expect.stringContaining('"latest" tag is pulled'),
        },
      ]);
      expect(findings[0]?.message).toContain(`${uri}:1.2.0`);
    }
  });
});
