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
  constructor(message: string, options: { status?: number; title?: string } = {}) {
    super(message, options.title ?? 'Control-plane request failed');
    this.status = options.status;
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
