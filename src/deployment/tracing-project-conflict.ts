/**
 * A create answered 409 because a LangSmith tracing project of that name exists: the
 * deployment of that name was deleted earlier without `delete-tracing-project` (a reopened
 * pull request, typically), and the platform will not create a deployment whose tracing
 * project name is taken. The server's detail reads "There already exists a project in
 * LangSmith named: <name>".
 */
import { ActionError, ApiError } from '../lib/errors.js';
import { inert } from '../lib/untrusted.js';

const DETAIL = /already exists a project in LangSmith named/i;

/** Whether `error` is that 409. */
export function isTracingProjectConflict(error: unknown): boolean {
  return error instanceof ApiError && error.status === 409 && DETAIL.test(error.message);
}

/** The error that explains it and the remedies (the name is the `name` input, checked). */
export function tracingProjectConflict(name: string): ActionError {
  const shown = inert(name, 100);
  return new ActionError(
    `Creating deployment '${shown}' was refused (HTTP 409): a LangSmith tracing project named ` +
      `'${shown}' already exists, and no deployment of that name does. A deployment of that name ` +
      'was deleted earlier without `delete-tracing-project: true` (for example when its pull ' +
      'request was closed, and the pull request has now been reopened), and its tracing project ' +
      'was kept. Remedies: delete the tracing project ' +
      `'${shown}' in LangSmith (Tracing projects; its traces go with it) and re-run this job; ` +
      'or, so that it does not happen again, give the cleanup job `delete-tracing-project: true`; ' +
      'or deploy under another `name`.',
    'Tracing project of that name exists',
  );
}
