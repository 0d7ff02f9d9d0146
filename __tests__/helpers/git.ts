/** `git -C <repo> …` with a fixed author, for tests that build a small history. */
import { execFileSync } from 'node:child_process';

export function gitIn(repo: string): (...args: string[]) => string {
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: 'test',
    GIT_AUTHOR_EMAIL: 'test@example.com',
    GIT_COMMITTER_NAME: 'test',
    GIT_COMMITTER_EMAIL: 'test@example.com',
  };
  return (...args) => execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8', env }).trim();
}
