import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  agentPaths,
  classifyChanges,
  isAgentFile,
  jsBuildPaths,
  listFiles,
  type AgentPaths,
} from '../../src/deployment/agent-files.js';
import { githubContext } from '../helpers/fakes.js';

function paths(configPath: string, json: unknown): AgentPaths {
  const result = agentPaths(configPath, json);
  if ('unknown' in result) throw new Error(result.unknown);
  return result;
}

describe('agentPaths', () => {
  it('adds what a JS monorepo builds the agent from (jsBuildPaths), outermost folders kept', () => {
    const extra = { folders: ['packages/tools', 'apps/agent/src'], files: ['package-lock.json'] };
    const result = agentPaths('apps/agent/langgraph.json', {}, extra);
    expect(result).toEqual({
      folders: ['apps/agent', 'packages/tools'],
      files: ['package-lock.json'],
    });
  });

  it('the config folder, local dependencies and every path the config names', () => {
    const p = paths('apps/agent/langgraph.json', {
      dependencies: ['.', '../../libs/shared', 'langchain-openai'],
      graphs: { a: './src/agent.py:graph', b: '../tools/graph.ts:make' },
      env: '../../config/.env',
      pip_config_file: '../../pip.conf',
      auth: { path: './auth.py:auth' },
    });
    expect(p.folders).toEqual([
      'apps/agent',
      'apps/tools/graph.ts',
      'config/.env',
      'libs/shared',
      'pip.conf',
    ]);
    for (const file of [
      'apps/agent/langgraph.json',
      'apps/agent/src/deep/x.py',
      'libs/shared/pkg/__init__.py',
      'apps/tools/graph.ts',
      'config/.env',
      'pip.conf',
    ]) {
      expect([file, isAgentFile(p, file)]).toEqual([file, true]);
    }
    for (const file of ['apps/web/index.ts', 'apps/agentx/file', 'libs/sharedx/a', 'README.md']) {
      expect([file, isAgentFile(p, file)]).toEqual([file, false]);
    }
  });

  it('a config at the root covers the whole repository', () => {
    expect(isAgentFile(paths('langgraph.json', {}), 'web/anything.ts')).toBe(true);
  });

  it('dockerfile_lines that copy files make the whole build context count', () => {
    const p = paths('agent/langgraph.json', {
      dependencies: ['.', '../lib'],
      dockerfile_lines: ['COPY ./certs /certs'],
    });
    expect(p.folders).toEqual(['']);
    const plain = paths('agent/langgraph.json', { dockerfile_lines: ['RUN apt-get update'] });
    expect(plain.folders).toEqual(['agent']);
  });

  it('a path that leaves the repository makes the set unknown', () => {
    expect(agentPaths('agent/langgraph.json', { dependencies: ['../../x'] })).toEqual({
      unknown: 'the local dependency ../../x leaves the repository',
    });
    expect(agentPaths('agent/langgraph.json', { env: '/etc/env' })).toHaveProperty('unknown');
    expect(agentPaths('../langgraph.json', {})).toHaveProperty('unknown');
  });
});

describe('classifyChanges', () => {
  const p = paths('agent/langgraph.json', { dependencies: ['.'] });
  it('a rename into or out of the agent counts on both sides; removals count', () => {
    expect(
      classifyChanges(p, [
        { filename: 'web/a.ts', status: 'modified' },
        { filename: 'web/b.py', status: 'renamed', previous_filename: 'agent/b.py' },
        { filename: 'agent/c.py', status: 'removed' },
      ]),
    ).toEqual({ relevant: ['agent/b.py', 'agent/c.py', 'web/b.py'], other: ['web/a.ts'] });
  });
});

describe('listFiles', () => {
  it('names the first ones and counts the rest', () => {
    expect(listFiles(['a', 'b', 'c'], 2)).toBe('a, b and 1 more');
  });
});

const roots: string[] = [];
afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

function checkout(files: Record<string, unknown>): string {
  const root = mkdtempSync(join(tmpdir(), 'js-workspace-'));
  roots.push(root);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(
      join(root, path),
      typeof content === 'string' ? content : JSON.stringify(content),
    );
  }
  return root;
}

const JS = { node_version: '20', graphs: { a: './src/a.ts:graph' } };
function jsPaths(
  workspace: string,
  extra: { installCommand?: string; buildCommand?: string } = {},
) {
  const github = { ...githubContext('https://api.github.com'), workspace };
  return jsBuildPaths({ github, configPath: 'agents/chat/langgraph.json', ...extra }, JS);
}

describe('jsBuildPaths', () => {
  it('adds the root package-manager files and the workspace packages the agent depends on, through others', () => {
    const root = checkout({
      'package.json': { workspaces: ['agents/*', 'packages/*'] },
      'agents/chat/package.json': {
        name: 'chat',
        dependencies: { tools: 'workspace:*', zod: '4' },
      },
      'packages/tools/package.json': { name: 'tools', devDependencies: { shared: '*' } },
      'packages/shared/package.json': { name: 'shared' },
      'packages/ui/package.json': { name: 'ui' },
      'node_modules/tools/package.json': { name: 'tools' },
    });
    const found = jsPaths(root);
    expect(found).toMatchObject({
      files: expect.arrayContaining([
        'package.json',
        'package-lock.json',
        'pnpm-lock.yaml',
        'yarn.lock',
      ]),
    });
    expect((found as { folders: string[] }).folders.sort()).toEqual([
      'packages/shared',
      'packages/tools',
    ]);
  });

  it('reads pnpm-workspace.yaml (negations too) and the folders the commands name', () => {
    const root = checkout({
      'package.json': { private: true },
      'pnpm-workspace.yaml': 'packages:\n  - "libs/**"\n  - "!libs/legacy"\n  - agents/*\n',
      'agents/chat/package.json': { dependencies: { '@x/deep': 'workspace:*', '@x/legacy': '*' } },
      'libs/group/deep/package.json': { name: '@x/deep' },
      'libs/legacy/package.json': { name: '@x/legacy' },
    });
    const found = jsPaths(root, {
      installCommand: 'pnpm install --filter=./tools/setup',
      buildCommand: 'cd agents/chat && sh ./scripts/build.sh',
    }) as { folders: string[] };
    expect(found.folders.sort()).toEqual([
      'agents/chat',
      'libs/group/deep',
      'scripts/build.sh',
      'tools/setup',
    ]);
  });

  it('nothing to add: not a JS agent, or its config at the repository root', () => {
    const root = checkout({ 'package.json': { workspaces: ['*'] } });
    const github = { ...githubContext('https://api.github.com'), workspace: root };
    expect(
      jsBuildPaths({ github, configPath: 'a/langgraph.json' }, { python_version: '3.12' }),
    ).toBeUndefined();
    expect(jsBuildPaths({ github, configPath: 'langgraph.json' }, JS)).toBeUndefined();
  });

  it('what cannot be worked out says why (then every changed file counts)', () => {
    const broken = checkout({ 'package.json': '{"workspaces": [' });
    expect(jsPaths(broken)).toEqual({
      unknown: expect.stringMatching(/^the JS monorepo around it cannot be read \(/),
    });
    const root = checkout({ 'package.json': {} });
    expect(jsPaths(root, { buildCommand: 'cd ../elsewhere && npm run build' })).toEqual({
      unknown: expect.stringMatching(/names \.\.\/elsewhere, outside the repository/),
    });
  });
});
