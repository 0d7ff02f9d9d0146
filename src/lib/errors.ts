/** Errors that carry a message written for the workflow's author: what happened, what to do. */

export class ActionError extends Error {
  override name = 'ActionError';
  constructor(
    message: string,
    readonly title = 'Deployment failed',
  ) {
    super(message);
  }
}

/** A control-plane or agent-server answer we could not use, already turned into advice. */
export class ApiError extends ActionError {
  override name = 'ApiError';
  readonly status: number | undefined;
  readonly method: string;
  readonly path: string;
  constructor(
    message: string,
    options: { status?: number; method: string; path: string; title?: string },
  ) {
    super(message, options.title ?? 'Control-plane request failed');
    ({ status: this.status, method: this.method, path: this.path } = options);
  }
}

/** The run's deadline (`timeout`) passed. */
export class DeadlineError extends ActionError {
  override name = 'DeadlineError';
  override readonly title = 'Timed out';
}

/** SIGINT/SIGTERM arrived (the workflow was cancelled). */
export class CancelledError extends ActionError {
  override name = 'CancelledError';
  override readonly title = 'Cancelled';
}
