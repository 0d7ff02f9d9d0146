import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { jsBuildPaths } from '../../src/deployment/js-workspace.js';
import { githubContext } from '../helpers/fakes.js';

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
function paths(workspace: string, extra: { installCommand?: string; buildCommand?: string } = {}) {
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
    const found = paths(root);
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
    const found = paths(root, {
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
    expect(paths(broken)).toEqual({
      unknown: expect.stringMatching(/^the JS monorepo around it cannot be read \(/),
    });
    const root = checkout({ 'package.json': {} });
    expect(paths(root, { buildCommand: 'cd ../elsewhere && npm run build' })).toEqual({
      unknown: expect.stringMatching(/names \.\.\/elsewhere, outside the repository/),
    });
  });
});
