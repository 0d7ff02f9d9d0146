/**
 * `command: registry-login`: finds the deployment, or creates it with `source:
 * internal_docker` (an empty `source_revision_config`, as `langgraph deploy --image` does),
 * gets a push token (masked at once) and logs the runner's docker in to the deployment's
 * registry, so that `docker/build-push-action` can push `image`. The token goes to `docker
 * login` on stdin only. The action's post step (`runs.post`) logs out again.
 */
import { getState, saveState } from '@actions/core';
import type { RegistryLoginConfig } from '../inputs/config.js';
import { docker, registryHost, registryPath } from '../api/registry.js';
import { findTarget, uiUrl } from '../deployment/target.js';
import { createDeployment } from '../deployment/upsert.js';
import { withOrigin } from '../deployment/origin.js';
import { ActionError } from '../lib/errors.js';
import { errorMessage } from '../lib/text.js';
import { inert, runnerLogger, type Logger } from '../lib/untrusted.js';
import { finish, type RunContext } from './context.js';

/** The state the post step reads: the registry host to log out of. */
const STATE = 'registry';

export async function runRegistryLogin(ctx: RunContext<RegistryLoginConfig>): Promise<number> {
  const { config, client, logger, state } = ctx;
  const report = state.report;
  report.name = config.name;
  const found = await findTarget(ctx);
  if (found && found.source !== 'internal_docker') {
    throw new ActionError(
      `Deployment '${inert(found.name)}' (${inert(found.id)}) has source '${inert(found.source)}': ` +
        'only an `internal_docker` deployment runs images pushed to the platform’s registry. ' +
        'Give another `name` (registry-login creates it), or deploy this one with its own source.',
      'Deployment of another kind',
    );
  }
  const { deployment, created } = found
    ? { deployment: found, created: false }
    : await createDeployment(
        { ...ctx, config: { ...config, source: 'internal_docker' } },
        {
          name: config.name!, // `findTarget` refuses an ID it cannot find
          source: 'internal_docker',
          source_config: { deployment_type: config.deploymentType },
          source_revision_config: {},
          secrets: withOrigin(config, []),
        },
      );
  const ids = { name: deployment.name, deploymentId: deployment.id, created };
  Object.assign(report, { ...ids, uiUrl: uiUrl(config, deployment) });
  ctx.output('deployment-id', deployment.id);
  ctx.output('created', created);

  const { token, registry_url } = await client.requestPushToken(deployment.id);
  const registry = registryHost(registry_url);
  const image = `${registryPath(registry_url)}/${deployment.name}`;
  report.source = { kind: 'internal_docker', imageUri: image };
  const login = await docker(
    ['login', '-u', 'oauth2accesstoken', '--password-stdin', '--', registry],
    {
      stdin: `${token}\n`,
      ms: Math.min(60_000, ctx.deadline.remainingMs()),
      signal: ctx.signal,
    },
  );
  // docker's own diagnostics (`level=info`, e.g. the https attempt before http on loopback) out.
  const lines = login.output
    .split('\n')
    .filter((l) => l.trim() && !/\blevel=(info|debug)\b/.test(l));
  const said = inert(lines.slice(-3).join(' / '), 1000);
  if (login.code !== 0) {
    throw new ActionError(
      `\`docker login ${inert(registry)}\` failed (${login.code === null ? 'stopped at the timeout' : `exit code ${login.code}`}): ` +
        `${said || 'no output'}. Re-run the job (push tokens are short-lived); if it persists, ` +
        'check that the runner can reach the registry.',
      'Registry login failed',
    );
  }
  saveState(STATE, registry);
  ctx.output('registry', registry);
  ctx.output('image', image);
  logger.info(
    `${created ? 'Created' : 'Found'} deployment '${inert(deployment.name)}' (${inert(deployment.id)}); ` +
      `docker is logged in to ${inert(registry)}. Push ${inert(image)}:<tag> for ` +
      'linux/amd64, then deploy it with `source: internal_docker`. The post step logs out.',
  );
  return finish(ctx, 'success');
}

/** The post step: `docker logout` of the registry the main step logged in to (if any). */
export async function registryLogout(logger: Logger = runnerLogger): Promise<void> {
  const registry = getState(STATE);
  if (!registry) return;
  const out = await docker(['logout', '--', registry], { ms: 30_000 }).catch((error: unknown) => ({
    code: -1,
    output: errorMessage(error),
  }));
  if (out.code === 0) return logger.info(`Logged out of ${inert(registry)}.`);
  logger.warning(
    `\`docker logout ${inert(registry)}\` failed: ${inert(out.output, 500)}. The runner's docker ` +
      'configuration may keep the credential until the runner is cleaned up; the push token ' +
      'expires on its own.',
    { title: 'Registry logout failed' },
  );
}
