import { describe, expect, it } from '@jest/globals';
import { notAPreview, originValue, withOrigin } from '../../src/deployment/origin.js';
import { deploymentFixture, githubContext } from '../helpers/fakes.js';

const KEY = 'lsv2_pt_origin_test_key';
const ORIGIN = 'LANGGRAPH_DEPLOY_ACTION_ORIGIN';
const pr = githubContext('https://api.github.com'); // pull request #7 of octo/app
const push = githubContext('https://api.github.com', { pr: false });

describe('originValue', () => {
  it('is keyed: another API key, name, repository or pull request gives another value', () => {
    const value = originValue(KEY, 'agent-7', 'octo/app', 7);
    expect(value).toMatch(/^v1:[A-Za-z0-9_-]{43}$/);
    expect(originValue(KEY, 'agent-7', 'Octo/App', 7)).toBe(value);
    for (const other of [
      originValue('another-key', 'agent-7', 'octo/app', 7),
      originValue(KEY, 'agent-8', 'octo/app', 7),
      originValue(KEY, 'agent-7', 'octo/other', 7),
      originValue(KEY, 'agent-7', 'octo/app', 8),
      originValue(KEY, 'agent-7', 'octo/app'),
    ]) {
      expect(other).not.toBe(value);
    }
  });
});

describe('withOrigin', () => {
  it('a create writes the record of its run (pull request or not), after the secrets given', () => {
    const secrets = [{ name: 'A', value: '1' }];
    expect(withOrigin({ apiKey: KEY, name: 'agent-7', github: pr }, secrets)).toEqual([
      ...secrets,
      { name: ORIGIN, value: originValue(KEY, 'agent-7', 'octo/app', 7) },
    ]);
    expect(withOrigin({ apiKey: KEY, name: 'agent-1', github: push }, [])).toEqual([
      { name: ORIGIN, value: originValue(KEY, 'agent-1', 'octo/app') },
    ]);
  });

  it('an update carries the deployment’s record over, and never writes one it lacks', () => {
    const recorded = { name: ORIGIN, value: 'v1:recorded-at-creation' };
    const found = deploymentFixture({ secrets: [{ name: 'OLD', value: 'x' }, recorded] });
    const sent = [{ name: 'A', value: '1' }];
    const config = { apiKey: KEY, name: 'my-agent', github: pr };
    expect(withOrigin(config, sent, found)).toEqual([...sent, recorded]);
    expect(withOrigin(config, sent, deploymentFixture())).toEqual(sent);
  });
});

describe('notAPreview', () => {
  const preview = (value?: string) =>
    deploymentFixture({ name: 'agent-7', secrets: value ? [{ name: ORIGIN, value }] : [] });

  it('a record of a run of that pull request of this repository proves the preview', () => {
    const value = originValue(KEY, 'agent-7', 'octo/app', 7);
    expect(notAPreview(KEY, 'octo/app', preview(value), 7)).toBeUndefined();
  });

  it('created outside a pull-request run (production): kept, saying so', () => {
    const value = originValue(KEY, 'agent-7', 'octo/app');
    expect(notAPreview(KEY, 'octo/app', preview(value), 7)).toMatch(
      /created it outside a pull-request run/,
    );
  });

  it('another pull request, repository or key: kept, saying so', () => {
    for (const value of [
      originValue(KEY, 'agent-7', 'octo/app', 8),
      originValue(KEY, 'agent-7', 'octo/fork', 7),
      originValue('other-key', 'agent-7', 'octo/app', 7),
    ]) {
      expect(notAPreview(KEY, 'octo/app', preview(value), 7)).toMatch(
        /names another pull request or repository than #7 of octo\/app/,
      );
    }
  });

  it('no record (an older preview): kept, saying how to remove it', () => {
    expect(notAPreview(KEY, 'octo/app', preview(), 7)).toMatch(
      /no record .* run `command: delete` with `name: agent-7`, or delete it in the LangSmith UI/,
    );
  });
});
