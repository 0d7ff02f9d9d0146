/** Inputs of `command: prune`: checked before any request, each problem naming its input. */
import { describe, expect, it, jest } from '@jest/globals';
import type { InputProblem } from '../../src/inputs/config.js';
import { readConfig } from '../../src/inputs/read.js';
import { actionEnv } from '../helpers/fakes.js';

function read(inputs: Record<string, string>) {
  const all = {
    'api-key': 'lsv2_pt_prune_inputs_key',
    command: 'prune',
    name: 'my-agent-pr-{pr}',
    'github-token': 'ghs_token_for_prune',
    ...inputs,
  };
  const env = actionEnv(all, { GITHUB_EVENT_NAME: 'schedule' });
  return readConfig(env, { mask: jest.fn<(value: string) => void>() });
}

function problems(inputs: Record<string, string>): InputProblem[] {
  const result = read(inputs);
  if (result.ok) throw new Error('expected input problems');
  return result.problems;
}

describe('command: prune inputs', () => {
  it('accepts a template with {pr}; dry-run and delete-tracing-project default to false', () => {
    const result = read({});
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    expect(result.config).toMatchObject({
      command: 'prune',
      template: { template: 'my-agent-pr-{pr}', prefix: 'my-agent-pr-', suffix: '' },
      dryRun: false,
      deleteTracingProject: false,
    });
    const set = read({
      'dry-run': 'true',
      'delete-tracing-project': 'True',
      environment: 'preview-pr-{pr}',
    });
    if (!set.ok) throw new Error(JSON.stringify(set.problems));
    expect(set.config).toMatchObject({
      dryRun: true,
      deleteTracingProject: true,
      environment: 'preview-pr-{pr}',
    });
  });

  it.each([
    ['my-agent', /no `\{pr\}`/],
    ['', /is empty/],
    ['a-{pr}-{pr}', /2 times/],
    ['A-{pr}', /lowercase letters/],
  ])('name %j is a problem of `name`', (name, message) => {
    const found = problems({ name });
    expect(found).toHaveLength(1);
    expect(found[0]!.input).toBe('name');
    expect(found[0]!.message).toMatch(message);
  });

  it('refuses deployment-id, an empty github-token, an environment without {pr} and a bad dry-run', () => {
    const found = problems({
      'deployment-id': '3fa85f64-5717-4562-b3fc-2c963f66afa6',
      'github-token': '',
      environment: 'preview',
      'dry-run': 'maybe',
    });
    expect(found.map((p) => p.input).sort()).toEqual([
      'deployment-id',
      'dry-run',
      'environment',
      'github-token',
    ]);
    expect(found.find((p) => p.input === 'github-token')!.message).toContain('pull-requests: read');
  });

  it('a {pr} template is still refused as the name of the other commands', () => {
    const found = problems({ command: 'delete' });
    expect(found.map((p) => p.input)).toEqual(['name']);
  });
});
