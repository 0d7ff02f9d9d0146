import { getInput, runnerLogger, setSecret } from './runner.js';

/** Placeholder flow until the deploy flow lands: validates that an API key is given. */
export async function run(): Promise<void> {
  const apiKey = getInput('api-key');
  if (apiKey) setSecret(apiKey);
  if (!apiKey) {
    runnerLogger.error('Input `api-key` is empty.', { title: 'Input error' });
    process.exitCode = 1;
  }
}
