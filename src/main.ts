/** Entry of a run: read and validate every input, then hand over to the flow. */
import { renderInputErrorSummary, renderUnexpectedErrorSummary } from './report/render.js';
import { execute } from './flow.js';
import { readInputs } from './inputs/read.js';
import { unknownInputs, unusedInputs } from './inputs/spec.js';
import { appendStepSummary, redact, runnerLogger, setFailed } from './lib/untrusted.js';

export async function run(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  try {
    const read = await readInputs(env);
    // First: a misspelt input may be what an input error below is about.
    for (const unknown of unknownInputs(env)) {
      runnerLogger.warning(unknown, { title: 'Unknown input' });
    }
    if (!read.ok) {
      for (const problem of read.problems) {
        runnerLogger.error(problem.message, { title: `Invalid input: ${problem.input}` });
      }
      runnerLogger.info(
        `${read.problems.length} input error(s); nothing was sent to the control plane. ` +
          'Fix the inputs of this step and run the workflow again.',
      );
      appendStepSummary(renderInputErrorSummary(read.problems), env);
      process.exitCode = 1;
      return;
    }
    for (const note of read.notes) runnerLogger.warning(note);
    for (const unused of unusedInputs(env, read.config)) {
      runnerLogger.notice(unused, { title: 'Input not used' });
    }
    process.exitCode = await execute(read.config);
  } catch (error) {
    // Anything that reaches here is a bug of ours: say so, without a stack full of internals.
    const message = redact(error instanceof Error ? error.message : String(error));
    appendStepSummary(renderUnexpectedErrorSummary(`Unexpected error: ${message}`), env);
    setFailed(
      `Unexpected error: ${message}. This is a bug in the action; please report it ` +
        'with the log of this step (secrets are masked).',
      { title: 'Unexpected error' },
    );
  }
}
