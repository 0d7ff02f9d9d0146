/**
 * The few GitHub REST routes `command: prune` reads: `GET /repos/{owner}/{repo}/pulls/{n}`
 * and `GET /repos/{owner}/{repo}`, answered from pull requests set by the test or demo. The
 * simulator serves them under `<url>/github` (use that as `GITHUB_API_URL`); the tests' fake
 * GitHub (`__tests__/helpers/fake-github.ts`) serves the same object at its root.
 *
 * A repository is known once a pull request of it is set (or `addRepository`); an unknown
 * repository answers 404 on both routes, as GitHub does for a repository the token cannot see.
 */
import type { SimResponse } from './types.js';

export interface SimPullRequestInput {
  state: 'open' | 'closed';
  /** Only with `state: 'closed'`. */
  merged?: boolean;
  title?: string;
}

interface SimPullRequest {
  number: number;
  state: 'open' | 'closed';
  merged: boolean;
  title: string;
}

const notFound = (): SimResponse => ({
  status: 404,
  body: {
    message: 'Not Found',
    documentation_url: 'https://docs.github.com/rest',
    status: '404',
  },
});

export class GithubPulls {
  private readonly repos = new Map<string, Map<number, SimPullRequest>>();

  /** `owner/name`, case-insensitive as on GitHub. */
  addRepository(repository: string): void {
    const key = repository.toLowerCase();
    if (!this.repos.has(key)) this.repos.set(key, new Map());
  }

  /** Creates or replaces pull request `number` of `repository` (`owner/name`). */
  setPullRequest(repository: string, number: number, input: SimPullRequestInput): void {
    if (!Number.isInteger(number) || number < 1) {
      throw new Error(`A pull-request number is a positive integer, not ${number}.`);
    }
    if (input.merged && input.state !== 'closed') {
      throw new Error(`Pull request #${number} cannot be merged and open.`);
    }
    this.addRepository(repository);
    this.repos.get(repository.toLowerCase())!.set(number, {
      number,
      state: input.state,
      merged: input.merged ?? false,
      title: input.title ?? `Pull request ${number}`,
    });
  }

  clear(): void {
    this.repos.clear();
  }

  /** The answer for a GitHub route this serves, or `undefined` for any other path. */
  handle(method: string, path: string): SimResponse | undefined {
    const m = /^\/repos\/([^/]+)\/([^/]+)(?:\/pulls\/([^/]+))?\/?$/.exec(path);
    if (!m) return undefined;
    if (method.toUpperCase() !== 'GET') return undefined;
    const [, owner = '', name = '', number] = m;
    const repository = `${owner}/${name}`;
    const pulls = this.repos.get(repository.toLowerCase());
    if (!pulls) return notFound();
    if (number === undefined) {
      return {
        status: 200,
        body: { id: 1, name, full_name: repository, private: true, owner: { login: owner } },
      };
    }
    const pr = /^\d+$/.test(number) ? pulls.get(Number(number)) : undefined;
    if (!pr) return notFound();
    const closedAt = pr.state === 'closed' ? '2024-01-02T00:00:00Z' : null;
    return {
      status: 200,
      body: {
        number: pr.number,
        title: pr.title,
        state: pr.state,
        merged: pr.merged,
        merged_at: pr.merged ? closedAt : null,
        closed_at: closedAt,
        html_url: `https://github.com/${repository}/pull/${pr.number}`,
      },
    };
  }
}
