/** Errors that carry a message written for the workflow's author: what happened, what to do. */

export class ActionError extends Error {
  /** Annotation title. */
  readonly title: string;
  constructor(message: string, title = 'Deployment failed') {
    super(message);
    this.name = 'ActionError';
    this.title = title;
  }
}

/** A control-plane or agent-server answer we could not use, already turned into advice. */
export class ApiError extends ActionError {
  readonly status: number | undefined;
  readonly method: string;
  readonly path: string;
  constructor(
    message: string,
    options: { status?: number; method: string; path: string; title?: string },
  ) {
    super(message, options.title ?? 'Control-plane request failed');
    this.name = 'ApiError';
    ({ status: this.status, method: this.method, path: this.path } = options);
  }
}

/** The run's deadline (`timeout`) passed. */
export class DeadlineError extends ActionError {
  constructor(message: string) {
    super(message, 'Timed out');
    this.name = 'DeadlineError';
  }
}

/** SIGINT/SIGTERM arrived (the workflow was cancelled). */
export class CancelledError extends ActionError {
  constructor(message = 'The run was cancelled') {
    super(message, 'Cancelled');
    this.name = 'CancelledError';
  }
}
