import { describe, expect, it } from '@jest/globals';
import {
  agentPaths,
  classifyChanges,
  isAgentFile,
  listFiles,
  type AgentPaths,
} from '../../src/deployment/agent-files.js';

function paths(configPath: string, json: unknown): AgentPaths {
  const result = agentPaths(configPath, json);
  if ('unknown' in result) throw new Error(result.unknown);
  return result;
}

describe('agentPaths', () => {
  it('adds what a JS monorepo builds the agent from (js-workspace.ts), outermost folders kept', () => {
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
