/**
 * A create the platform refused, explained: what it means for this run and what to do. The
 * error itself (its status and the server's detail) stays in the message.
 */
import { ActionError, ApiError } from '../lib/errors.js';
import { inert } from '../lib/untrusted.js';

/** The `deployment-type`s of usage-based pricing (since 1 October 2026); the rest are older. */
const USAGE_BASED = ['serverless', 'dedicated'];

/** `error` with the advice that fits it, or `error` itself. */
export function explainRefusal(error: unknown, name: string, deploymentType: string): unknown {
  if (!(error instanceof ApiError)) return error;
  return tracingProjectConflict(error, name) ?? typeRefused(error, deploymentType) ?? error;
}

/**
 * The type refused (a 400 or 422 that names it): the organization sells the other pricing's
 * types, so the error names them and the input.
 */
function typeRefused(error: ApiError, type: string): ActionError | undefined {
  if (![400, 422].includes(error.status ?? 0) || !/deployment[_ ]type/i.test(error.message)) {
    return undefined;
  }
  const usage = USAGE_BASED.includes(type);
  return new ActionError(
    `${error.message}\nThe platform refused \`deployment-type: ${type}\`, a type of ` +
      (usage
        ? 'usage-based pricing. An organization still on the previous pricing (and a ' +
          'self-hosted install) creates the older types: set `deployment-type: dev` (or ' +
          '`prod`, `dev_free`, `dev_zero`, `dev_free_zero`).'
        : 'the previous pricing. An organization on usage-based pricing (since 1 October ' +
          '2026) creates `serverless` or `dedicated`: set `deployment-type: serverless` (the ' +
          'default) or `dedicated`.'),
    'Deployment type refused',
  );
}

/**
 * A create refused (HTTP 409: "There already exists a project in LangSmith named: <name>"): a
 * deployment of that name was deleted without `delete-tracing-project` (a reopened pull
 * request, typically), and its tracing project name is taken. The error gives the remedies.
 */
function tracingProjectConflict(error: ApiError, name: string): ActionError | undefined {
  if (error.status !== 409 || !/already exists a project in LangSmith named/i.test(error.message)) {
    return undefined;
  }
  const shown = inert(name, 100);
  return new ActionError(
    `Creating deployment '${shown}' was refused (HTTP 409): a LangSmith tracing project named ` +
      `'${shown}' already exists, and no deployment of that name does. A deployment of that name ` +
      'was deleted earlier without `delete-tracing-project: true` (for example when its pull ' +
      'request was closed, and the pull request has now been reopened), and its tracing project ' +
      `was kept. Remedies: delete the tracing project '${shown}' in LangSmith (Tracing projects; ` +
      'its traces go with it) and re-run this job; or, so that it does not happen again, give ' +
      'the cleanup job `delete-tracing-project: true`; or deploy under another `name`.',
    'Tracing project of that name exists',
  );
}
