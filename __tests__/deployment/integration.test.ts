import { describe, expect, it } from '@jest/globals';
import { withIntegration } from '../../src/deployment/integration.js';
import type { ActionError } from '../../src/lib/errors.js';
import { dockerConfig, makeConfig, named, setup } from './upsert-plane.js';

const ours = { id: 'int-ours', name: 'acme', repos: ['other/x', 'Acme/Agent'] };
const theirs = { id: 'int-theirs', name: 'umbrella', repos: ['umbrella/agent'] };

async function find(integrations: (typeof ours)[], repoUrl = 'https://github.com/acme/agent.git/') {
  const { plane, ctx, logger } = setup(makeConfig({ integrationId: undefined, repoUrl }));
  plane.integrations = integrations;
  const config = named(ctx.config);
  const result = await withIntegration(ctx, config).catch((error: ActionError) => error);
  return { plane, logger, result };
}

describe('withIntegration (integration-id empty on a create)', () => {
  it('the one integration whose repositories hold this repository (any case, .git): with a notice', async () => {
    const { result, logger } = await find([theirs, ours]);
    expect(result).toMatchObject({ integrationId: 'int-ours' });
    expect(logger.messages('notice')).toEqual([
      "Input `integration-id` is empty: creating 'my-agent' through GitHub integration int-ours " +
        '(account acme), whose repositories include acme/agent.',
    ]);
  });

  it('none holds it: an error that says to install the GitHub app, and where, naming integration-id', async () => {
    const { result } = await find([theirs]);
    expect((result as ActionError).title).toBe('No GitHub integration for this repository');
    expect((result as ActionError).message).toMatch(
      /install LangSmith's GitHub app on acme\/agent: in LangSmith, Deployments → \+ New Deployment/,
    );
    expect((result as ActionError).message).toContain('input `integration-id`');
    expect((await find([])).result).toMatchObject({
      title: 'No GitHub integration for this repository',
    });
  });

  it('several hold it: an error listing them, ID and account name', async () => {
    const { result } = await find([ours, { ...theirs, repos: ['acme/agent'] }]);
    expect((result as ActionError).message).toContain(
      '2 GitHub integrations of this workspace may build acme/agent: int-ours (acme), int-theirs (umbrella).',
    );
    expect((result as ActionError).message).toContain('`integration-id`');
  });

  it('a given integration-id, or another source: nothing is listed', async () => {
    const { plane, ctx } = setup(makeConfig());
    await withIntegration(ctx, named(ctx.config));
    await withIntegration(ctx, named(dockerConfig()));
    expect(plane.calls).toEqual([]);
  });
});
