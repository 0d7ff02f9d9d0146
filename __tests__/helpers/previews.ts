/**
 * Previews as this action creates them on a pull-request run: with the origin record that
 * `command: prune` requires before it deletes one (`src/deployment/origin.ts`).
 */
import { originValue } from '../../src/deployment/origin.js';
import type { Deployment, SeedDeployment, Simulator } from '../../simulator/index.js';

/** Seeds `input` as a preview of pull request `pr` (default: the last number in its name). */
export function seedPreview(
  sim: Simulator,
  repository: string,
  input: SeedDeployment,
  pr = Number(/(\d+)\D*$/.exec(input.name)?.[1]),
): Deployment {
  const value = originValue(sim.apiKey, input.name, repository, pr);
  const origin = { name: 'LANGGRAPH_DEPLOY_ACTION_ORIGIN', value };
  return sim.seedDeployment({ ...input, secrets: [...(input.secrets ?? []), origin] });
}
