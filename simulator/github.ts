/**
 * The few GitHub REST routes the action reads: `GET /repos/{owner}/{repo}/pulls/{n}` and
 * `GET /repos/{owner}/{repo}` (`command: prune`), answered from pull requests set by the test
 * or demo, and `GET /repos/{owner}/{repo}/compare/{base}...{head}` (`skip-unchanged`),
 * answered from a linear history of commits set with `addCommits`. The
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

/** One file a commit changes, as GitHub's compare API lists it. */
export interface SimChangedFile {
  filename: string;
  status: 'added' | 'modified' | 'removed' | 'renamed';
  previous_filename?: string;
}

/** One commit of a repository's (linear) history: its SHA and the files it changes. */
export interface SimCommit {
  sha: string;
  files: SimChangedFile[];
}

/** GitHub lists at most this many files in one comparison. */
const COMPARE_FILE_CAP = 300;

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
  private readonly histories = new Map<string, SimCommit[]>();

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

  /** Appends commits (oldest first) to `repository`'s history; the repository becomes known. */
  addCommits(repository: string, commits: SimCommit[]): void {
    this.addRepository(repository);
    const key = repository.toLowerCase();
    this.histories.set(key, [...(this.histories.get(key) ?? []), ...commits]);
  }

  clear(): void {
    this.repos.clear();
    this.histories.clear();
  }

  /**
   * `base...head` of the linear history: `ahead` with the files the commits after `base` up to
   * `head` change (one entry per path, the last change wins; at most 300, as on GitHub),
   * `identical`, or `behind` (head before base: no files). An unknown commit answers 404.
   */
  private compare(repository: string, basehead: string): SimResponse {
    const history = this.histories.get(repository.toLowerCase()) ?? [];
    const m = /^([^.]+)\.\.\.([^.]+)$/.exec(decodeURIComponent(basehead));
    const find = (sha: string) =>
      history.findIndex((c) => c.sha.toLowerCase().startsWith(sha.toLowerCase()));
    const base = m ? find(m[1]!) : -1;
    const head = m ? find(m[2]!) : -1;
    if (base < 0 || head < 0) {
      return { status: 404, body: { message: 'No common ancestor between base and head.' } };
    }
    const byPath = new Map<string, SimChangedFile>();
    for (const commit of history.slice(base + 1, head + 1)) {
      for (const file of commit.files) byPath.set(file.filename, file);
    }
    const files = [...byPath.values()].slice(0, COMPARE_FILE_CAP);
    const status = head === base ? 'identical' : head > base ? 'ahead' : 'behind';
    return {
      status: 200,
      body: {
        status,
        ahead_by: Math.max(0, head - base),
        behind_by: Math.max(0, base - head),
        total_commits: Math.max(0, head - base),
        commits: [],
        files: status === 'ahead' ? files : [],
      },
    };
  }

  /** The answer for a GitHub route this serves, or `undefined` for any other path. */
  handle(method: string, path: string): SimResponse | undefined {
    const compare = /^\/repos\/([^/]+)\/([^/]+)\/compare\/([^/]+)$/.exec(path);
    if (compare && method.toUpperCase() === 'GET') {
      const repository = `${compare[1]}/${compare[2]}`;
      if (!this.repos.has(repository.toLowerCase())) return notFound();
      return this.compare(repository, compare[3]!);
    }
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
