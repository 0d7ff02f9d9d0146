/**
 * Inputs a run was given but does not read (INTERFACE.md v1.3, "Unknown inputs"): unknown
 * `INPUT_*` variables with the closest input, and set inputs the command or source ignores.
 */
import { describe, expect, it, jest } from '@jest/globals';
import { readConfig } from '../../src/inputs/read.js';
import { editDistance, unknownInputs, unusedInputs } from '../../src/inputs/spec.js';
import { actionDefaults } from '../../scripts/run-action.js';
import { actionEnv } from '../helpers/fakes.js';

/** The step's environment as the runner builds it: every declared input, defaults filled in. */
function runnerEnv(inputs: Record<string, string>): NodeJS.ProcessEnv {
  return actionEnv({ ...actionDefaults(), 'api-key': 'key', ...inputs });
}

function unused(inputs: Record<string, string>): string[] {
  const env = runnerEnv(inputs);
  const read = readConfig(env, { mask: jest.fn() });
  if (!read.ok) throw new Error(JSON.stringify(read.problems));
  return unusedInputs(env, read.config);
}

describe('unknownInputs', () => {
  it('names the closest input of a misspelt one, and nothing for declared inputs', () => {
    const env = runnerEnv({ name: 'a', deployment_type: 'prod', smoketest: '{}' });
    expect(unknownInputs(env)).toEqual([
      expect.stringMatching(
        /^Input `deployment_type` is not an input of this action, so it is ignored \(the runner passes it as INPUT_DEPLOYMENT_TYPE\)\. Did you mean `deployment-type`\?/,
      ),
      expect.stringMatching(/^Input `smoketest` .*Did you mean `smoke-test`\?/),
    ]);
    expect(unknownInputs(runnerEnv({ name: 'a' }))).toEqual([]);
  });

  it('says when nothing is close, still naming the closest', () => {
    expect(unknownInputs({ INPUT_COLOUR_SCHEME: 'dark' })).toEqual([
      expect.stringMatching(
        /`colour_scheme`.*No input is close to it \(the closest is `[a-z-]+`\)/,
      ),
    ]);
  });

  it('counts single-character edits', () => {
    expect(editDistance('deployment_type', 'deployment-type')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });
});

describe('unusedInputs', () => {
  it('is silent when every input the command does not use holds its default', () => {
    expect(unused({ name: 'a' })).toEqual([]);
    expect(unused({ command: 'delete', name: 'a' })).toEqual([]);
    // The case of a boolean does not make it another value.
    expect(unused({ command: 'delete', name: 'a', 'dry-run': 'False' })).toEqual([]);
  });

  it('names each set input the command does not read', () => {
    expect(
      unused({
        command: 'delete',
        name: 'a',
        secrets: 'A=b',
        'smoke-test': '{}',
        'dry-run': 'true',
      }),
    ).toEqual([
      'Input `secrets` is set, but `command: delete` does not use it: it is ignored.',
      'Input `dry-run` is set, but `command: delete` does not use it: it is ignored.',
      'Input `smoke-test` is set, but `command: delete` does not use it: it is ignored.',
    ]);
  });

  it('names a defaulted input the source does not read', () => {
    const docker = { source: 'external_docker', name: 'a', 'image-uri': 'r.example/a:1' };
    expect(
      unused({ ...docker, 'deployment-type': 'prod', 'config-path': 'x/langgraph.json' }),
    ).toEqual([
      'Input `config-path` is set, but `source: external_docker` does not use it: it is ignored.',
      'Input `deployment-type` is set, but `source: external_docker` does not use it: it is ignored.',
    ]);
    expect(unused({ name: 'a', 'deployment-type': 'prod', 'build-on-push': 'true' })).toEqual([]);
  });

  it('registry-login reads deployment-type (for its create); deploy with internal_docker does not', () => {
    expect(unused({ command: 'registry-login', name: 'a', 'deployment-type': 'prod' })).toEqual([]);
    expect(unused({ command: 'registry-login', name: 'a', secrets: 'A=b' })).toEqual([
      'Input `secrets` is set, but `command: registry-login` does not use it: it is ignored.',
    ]);
    const image = { source: 'internal_docker', name: 'a', 'image-uri': 'r.example/a/b:1' };
    expect(unused({ ...image, 'deployment-type': 'prod' })).toEqual([
      'Input `deployment-type` is set, but `source: internal_docker` does not use it: it is ignored.',
    ]);
  });
});
