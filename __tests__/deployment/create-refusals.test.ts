import { describe, expect, it } from '@jest/globals';
import { explainRefusal } from '../../src/deployment/create-refusals.js';
import { ActionError, ApiError } from '../../src/lib/errors.js';

const refusal = (status: number, message: string) => new ApiError(message, { status });
const TYPE_422 =
  'POST (create) deployment "a" was rejected as invalid (HTTP 422):\n  - ' +
  "source_config.deployment_type: Input should be 'dev_free', 'dev' or 'prod' (input `deployment-type`)";

describe('explainRefusal', () => {
  it('a refused usage-based type names the previous family and the input', () => {
    const error = explainRefusal(refusal(422, TYPE_422), 'a', 'serverless') as ActionError;
    expect(error.title).toBe('Deployment type refused');
    expect(error.message).toContain(TYPE_422);
    expect(error.message).toMatch(/`deployment-type: serverless`, a type of usage-based pricing/);
    expect(error.message).toMatch(/set `deployment-type: dev` \(or `prod`/);
  });

  it('a refused older type (400 too) names serverless and dedicated', () => {
    const error = explainRefusal(
      refusal(400, 'POST … was rejected (HTTP 400): invalid deployment type for this plan'),
      'a',
      'prod',
    ) as ActionError;
    expect(error.message).toMatch(/`deployment-type: prod`, a type of the previous pricing/);
    expect(error.message).toMatch(/`deployment-type: serverless` \(the default\) or `dedicated`/);
  });

  it('leaves other refusals and other errors as they are', () => {
    const other = refusal(422, 'source_config.repo_url: Field required');
    expect(explainRefusal(other, 'a', 'dev')).toBe(other);
    const forbidden = refusal(403, 'deployment_type not allowed');
    expect(explainRefusal(forbidden, 'a', 'dev')).toBe(forbidden);
    const plain = new Error('deployment_type');
    expect(explainRefusal(plain, 'a', 'dev')).toBe(plain);
  });

  it('a 409 for a kept tracing project gives its remedies', () => {
    const error = explainRefusal(
      refusal(409, 'There already exists a project in LangSmith named: a'),
      'a',
      'dev',
    ) as ActionError;
    expect(error.title).toBe('Tracing project of that name exists');
    expect(error.message).toContain('delete-tracing-project: true');
  });
});
