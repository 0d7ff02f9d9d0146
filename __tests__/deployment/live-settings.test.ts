import { describe, expect, it } from '@jest/globals';
import { liveDrift } from '../../src/deployment/live-settings.js';
import { deploymentFixture } from '../helpers/fakes.js';

const RECORD = { name: 'LANGGRAPH_DEPLOY_ACTION_DIGEST', value: 'v1:record' };
const ORIGIN = { name: 'LANGGRAPH_DEPLOY_ACTION_ORIGIN', value: 'v1:origin' };
const live = (secrets: { name: string; value: string }[], source_config = {}) =>
  deploymentFixture({ secrets: [...secrets, RECORD, ORIGIN], source_config });

describe('liveDrift (the skip record is trusted only while the live deployment says the same)', () => {
  it('the same secrets and commands live: no drift; the action’s own entries never count', () => {
    const secrets = [{ name: 'OPENAI_API_KEY', value: 'sk-workflow-value' }];
    const found = live(secrets, { install_command: 'npm ci', build_command: null });
    expect(liveDrift({ secrets, installCommand: 'npm ci' }, found)).toBeUndefined();
    expect(liveDrift({}, found)).toBeUndefined(); // sends nothing: keeps what is live
  });

  it('a secret changed, added or removed out of band: the drift names it, never a value', () => {
    const sent = [
      { name: 'OPENAI_API_KEY', value: 'sk-workflow-value' },
      { name: 'MODE', value: 'a' },
    ];
    const rogue = live([
      { name: 'OPENAI_API_KEY', value: 'sk-ROGUE' },
      { name: 'MODE', value: 'a' },
      { name: 'EXTRA', value: 'x' },
    ]);
    const drift = liveDrift({ secrets: sent }, rogue)!;
    expect(drift).toMatch(/live environment differs from `secrets` \(OPENAI_API_KEY, EXTRA\)/);
    expect(drift).toMatch(/changed in the LangSmith UI or by another client/);
    expect(drift).not.toMatch(/sk-/);
    expect(liveDrift({ secrets: sent }, live([sent[0]!]))).toMatch(/\(MODE\)/);
  });

  it('install-command or build-command changed out of band: named', () => {
    const found = live([], { install_command: 'yarn install', build_command: 'yarn build' });
    expect(liveDrift({ installCommand: 'npm ci' }, found)).toMatch(
      /live `source_config.install_command` differs from `install-command`/,
    );
    expect(liveDrift({ buildCommand: 'npm run build' }, found)).toMatch(/`build-command`/);
  });
});
