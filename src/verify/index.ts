/**
 * Checks of the agent server after `DEPLOYED`, in order: the health check, the smoke run, the
 * conversation tests (each loaded only when its input asks for it). A URL the API key may not
 * go to skips them all with one warning.
 */
import { CancelledError } from '../lib/errors.js';
import { inert, redact } from '../lib/untrusted.js';
import type { Config } from '../inputs/config.js';
import { CheckError, baseUrl, urlProblem, type VerifyContext } from './shared.js';
import { healthCheck } from './health.js';
import { smokeTest } from './smoke.js';
import {
  runConversationTests,
  type ConversationTestsOptions,
  type ConversationTestsResult,
} from './conversation-tests.js';

/** The checks' inputs, as in `Config`, and the agent server URL (`url` output, if any). */
export type VerifyOptions = Pick<Config, 'healthCheck' | 'smokeTest' | 'smokeTestAssistant'> & {
  url: string | undefined;
  tests?: Omit<ConversationTestsOptions, 'url'>;
};

/** Same shape as the report's `checks`; `error` is set when a check failed. */
export interface VerifyResult {
  health?: 'passed' | 'failed' | 'skipped';
  smoke?: 'passed' | 'interrupted' | 'failed' | 'skipped';
  error?: unknown;
  /** Conversation tests: `failed` when a case failed (the failure is in `error`). */
  tests?: 'passed' | 'failed' | 'skipped';
  testsResult?: ConversationTestsResult;
}

/**
 * Runs the checks the inputs ask for, in order (health, then smoke). A missing URL or a
 * plain-http URL on a non-loopback host skips both with one warning. A failed check is
 * returned in `error` (the second check is not run); a cancellation is thrown.
 */
export async function verifyDeployment(
  ctx: VerifyContext,
  options: VerifyOptions,
): Promise<VerifyResult> {
  const checks = (
    [
      ['health', options.healthCheck, 'the health check'],
      ['smoke', options.smokeTest !== undefined, 'the smoke run'],
      ['tests', options.tests !== undefined, 'the conversation tests'],
    ] as const
  ).filter(([, wanted]) => wanted);
  if (checks.length === 0) return {};
  const problem = urlProblem(options.url);
  if (problem !== undefined) {
    const names = checks.map(([, , name]) => name);
    const what =
      names.length === 1
        ? `${names[0]} ${checks[0]?.[0] === 'tests' ? 'were' : 'was'}`
        : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]} were`;
    ctx.logger.warning(`${problem.reason}, so ${what} skipped. ${problem.advice}`, {
      title: 'Checks skipped',
    });
    return Object.fromEntries(checks.map(([key]) => [key, 'skipped'])) as VerifyResult;
  }
  const url = options.url as string;
  const result: VerifyResult = {};
  if (options.healthCheck) {
    try {
      const health = await healthCheck(ctx, url);
      result.health = 'passed';
      ctx.logger.info(
        `Health check passed: ${baseUrl(url)}/ok answered {"ok": true} ` +
          `(${health.attempts} request${health.attempts === 1 ? '' : 's'}).`,
      );
    } catch (error) {
      if (error instanceof CancelledError) throw error;
      return { ...result, health: 'failed', error };
    }
  }
  if (options.smokeTest !== undefined) {
    try {
      const smoke = await smokeTest(ctx, url, options.smokeTest, options.smokeTestAssistant);
      result.smoke = smoke.outcome;
    } catch (error) {
      if (error instanceof CancelledError) throw error;
      return { ...result, smoke: 'failed', error };
    }
  }
  if (options.tests) {
    const tests = await runConversationTests(ctx, { ...options.tests, url });
    result.testsResult = tests;
    result.tests = tests.failed > 0 ? 'failed' : 'passed';
    if (tests.failed > 0) {
      const failed = tests.cases.filter((c) => c.verdict === 'failed');
      const listed = failed
        .slice(0, 5)
        .map((c) => `"${inert(c.name, 100)}" (${inert(c.reason, 200)})`)
        .join('; ');
      result.error = new CheckError(
        redact(
          `${tests.failed} of ${tests.cases.length} conversation tests failed on ${baseUrl(url)}: ` +
            `${listed}${failed.length > 5 ? `; and ${failed.length - 5} more` : ''}. The table ` +
            'in the step summary has every verdict; fix the agent (or the tests file) and push again.',
        ),
        'Conversation tests failed',
      );
    }
  }
  return result;
}
