/**
 * A small fake of the GitHub REST API (the parts the action uses) on node:http, listening on
 * 127.0.0.1 port 0. Point Octokit at `fake.url` (the `baseUrl` option, or `GITHUB_API_URL`
 * for a whole run). It records every request (method, path, query, JSON body) and can be told
 * to answer a route with a forced status (e.g. 403) or not at all.
 *
 * Routes: GET /user; GET|POST /repos/:o/:r/issues/:n/comments; GET|PATCH
 * /repos/:o/:r/issues/comments/:id; GET|POST /repos/:o/:r/deployments; GET|POST
 * /repos/:o/:r/deployments/:id/statuses; GET /repos/:o/:r and GET /repos/:o/:r/pulls/:n (from
 * `pulls`, the simulator's own pull requests). Lists paginate with `per_page`/`page` and a `Link`
 * header as GitHub does.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GithubPulls } from '../../simulator/github.js';

export interface RecordedRequest {
  method: string;
  /** Path without the query string, e.g. `/repos/o/r/issues/7/comments`. */
  path: string;
  query: Record<string, string>;
  /** Parsed JSON body (`undefined` when there is none). */
  body: unknown;
  /** Whether an `Authorization` header was sent (its value is not kept). */
  authorized: boolean;
}

export interface FakeUser {
  login: string;
  type: 'User' | 'Bot';
}

export interface FakeComment {
  id: number;
  issue_number: number;
  body: string;
  user: FakeUser;
  performed_via_github_app: { slug: string } | null;
  created_at: string;
  updated_at: string;
}

export interface FakeDeploymentStatus {
  id: number;
  state: string;
  environment_url?: string;
  log_url?: string;
  description?: string;
  auto_inactive?: boolean;
}

export interface FakeDeployment {
  id: number;
  ref: string;
  sha: string;
  environment: string;
  description?: string;
  transient_environment?: boolean;
  production_environment?: boolean;
  required_contexts?: unknown;
  auto_merge?: boolean;
  /** What the creator recorded (the action: `{langsmith_deployment_id}`). */
  payload?: unknown;
  statuses: FakeDeploymentStatus[];
}

interface ForcedAnswer {
  method: string;
  path: string | RegExp;
  status: number;
  message: string;
  headers: Record<string, string>;
  /** Remaining uses; `Infinity` for every request. */
  times: number;
  hang: boolean;
}

/** The identity of the workflow's `GITHUB_TOKEN`. */
export const ACTIONS_BOT: FakeUser = { login: 'github-actions[bot]', type: 'Bot' };

export class FakeGithub {
  readonly requests: RecordedRequest[] = [];
  readonly comments: FakeComment[] = [];
  readonly deployments: FakeDeployment[] = [];
  /** Pull requests (`pulls.setPullRequest('acme/agent', 12, { state: 'open' })`). */
  readonly pulls = new GithubPulls();
  /**
   * `GET /user` answers this login (a personal access token). `undefined` (default) is the
   * workflow token: `GET /user` answers 403 and new comments are by `github-actions[bot]`.
   */
  viewer: string | undefined;
  private readonly forced: ForcedAnswer[] = [];
  private nextId = 1000;
  private clock = Date.UTC(2024, 0, 1);

  private readonly server: Server;
  private port = 0;

  private constructor() {
    this.server = createServer((req, res) => {
      void this.handle(req, res);
    });
  }

  /** Base URL, e.g. `http://127.0.0.1:54321` (use as Octokit's `baseUrl` / `GITHUB_API_URL`). */
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  static async start(options: { viewer?: string } = {}): Promise<FakeGithub> {
    const fake = new FakeGithub();
    fake.viewer = options.viewer;
    await new Promise<void>((resolve, reject) => {
      fake.server.once('error', reject);
      fake.server.listen(0, '127.0.0.1', () => resolve());
    });
    fake.port = (fake.server.address() as AddressInfo).port;
    return fake;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Answers matching requests with `status` (GitHub's error body) `times` times (default: always). */
  failOn(
    method: string,
    path: string | RegExp,
    status: number,
    options: { message?: string; times?: number; headers?: Record<string, string> } = {},
  ): void {
    this.forced.push({
      method: method.toUpperCase(),
      path,
      status,
      message:
        options.message ?? (status === 403 ? 'Resource not accessible by integration' : 'Error'),
      headers: options.headers ?? {},
      times: options.times ?? Infinity,
      hang: false,
    });
  }

  /** Never answers matching requests (for timeouts); `close()` drops them. */
  hangOn(method: string, path: string | RegExp): void {
    this.forced.push({
      method: method.toUpperCase(),
      path,
      status: 0,
      message: '',
      headers: {},
      times: Infinity,
      hang: true,
    });
  }

  addComment(
    issueNumber: number,
    body: string,
    author: FakeUser & { app?: string } = ACTIONS_BOT,
  ): FakeComment {
    const at = this.tick();
    const comment: FakeComment = {
      id: this.nextId++,
      issue_number: issueNumber,
      body,
      user: { login: author.login, type: author.type },
      performed_via_github_app:
        author.app !== undefined
          ? { slug: author.app }
          : author.login === ACTIONS_BOT.login
            ? { slug: 'github-actions' }
            : null,
      created_at: at,
      updated_at: at,
    };
    this.comments.push(comment);
    return comment;
  }

  addDeployment(environment: string, fields: Partial<FakeDeployment> = {}): FakeDeployment {
    const deployment: FakeDeployment = {
      id: this.nextId++,
      ref: 'main',
      sha: '0'.repeat(40),
      environment,
      statuses: [],
      ...fields,
    };
    this.deployments.push(deployment);
    return deployment;
  }

  /** Recorded requests whose method and path match. */
  requestsTo(method: string, path: string | RegExp): RecordedRequest[] {
    return this.requests.filter((r) => r.method === method.toUpperCase() && matches(path, r.path));
  }

  private tick(): string {
    this.clock += 1000;
    return new Date(this.clock).toISOString();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const parsed = new URL(req.url ?? '/', 'http://fake');
    const method = (req.method ?? 'GET').toUpperCase();
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = raw;
    }
    const recorded: RecordedRequest = {
      method,
      path: parsed.pathname,
      query: Object.fromEntries(parsed.searchParams),
      body,
      authorized: typeof req.headers.authorization === 'string',
    };
    this.requests.push(recorded);

    const forced = this.forced.find(
      (f) => f.times > 0 && f.method === method && matches(f.path, recorded.path),
    );
    if (forced) {
      forced.times--;
      if (forced.hang) return;
      send(res, forced.status, { message: forced.message }, forced.headers);
      return;
    }
    const base = `http://${req.headers.host ?? '127.0.0.1'}`;
    this.route(recorded, base, res);
  }

  private route(r: RecordedRequest, base: string, res: ServerResponse): void {
    const b = (r.body ?? {}) as Record<string, unknown>;
    let m: RegExpMatchArray | null;

    const pull = this.pulls.handle(r.method, r.path);
    if (pull) return send(res, pull.status, pull.body);
    if (r.path === '/user' && r.method === 'GET') {
      if (this.viewer === undefined) {
        send(res, 403, { message: 'Resource not accessible by integration' });
      } else send(res, 200, { login: this.viewer, type: 'User', id: 1 });
      return;
    }
    if ((m = r.path.match(/^\/repos\/[^/]+\/[^/]+\/issues\/(\d+)\/comments$/))) {
      const issue = Number(m[1]);
      if (r.method === 'GET') {
        const list = this.comments.filter((c) => c.issue_number === issue);
        sendPage(res, r, base, list);
        return;
      }
      if (r.method === 'POST') {
        if (typeof b['body'] !== 'string') return send(res, 422, { message: 'body is missing' });
        const author = this.viewer ? { login: this.viewer, type: 'User' as const } : ACTIONS_BOT;
        send(res, 201, this.addComment(issue, b['body'], author));
        return;
      }
    }
    if ((m = r.path.match(/^\/repos\/[^/]+\/[^/]+\/issues\/comments\/(\d+)$/))) {
      const comment = this.comments.find((c) => c.id === Number(m![1]));
      if (!comment) return send(res, 404, { message: 'Not Found' });
      if (r.method === 'GET') return send(res, 200, comment);
      if (r.method === 'PATCH') {
        if (typeof b['body'] !== 'string') return send(res, 422, { message: 'body is missing' });
        comment.body = b['body'];
        comment.updated_at = this.tick();
        return send(res, 200, comment);
      }
    }
    if (r.path.match(/^\/repos\/[^/]+\/[^/]+\/deployments$/)) {
      if (r.method === 'GET') {
        const list = this.deployments
          .filter((d) => !r.query['environment'] || d.environment === r.query['environment'])
          .filter((d) => !r.query['sha'] || d.sha === r.query['sha'])
          .filter((d) => !r.query['ref'] || d.ref === r.query['ref'])
          .slice()
          .reverse(); // newest first, as GitHub lists them
        sendPage(res, r, base, list);
        return;
      }
      if (r.method === 'POST') {
        if (typeof b['ref'] !== 'string') return send(res, 422, { message: 'ref is missing' });
        const deployment = this.addDeployment(String(b['environment'] ?? 'production'), {
          ref: b['ref'],
          sha: /^[0-9a-f]{40}$/.test(b['ref']) ? b['ref'] : '1'.repeat(40),
          description: b['description'] as string | undefined,
          transient_environment: b['transient_environment'] as boolean | undefined,
          production_environment: b['production_environment'] as boolean | undefined,
          required_contexts: b['required_contexts'],
          auto_merge: b['auto_merge'] as boolean | undefined,
          payload: b['payload'] ?? {},
        });
        send(res, 201, deployment);
        return;
      }
    }
    if ((m = r.path.match(/^\/repos\/[^/]+\/[^/]+\/deployments\/(\d+)\/statuses$/))) {
      const deployment = this.deployments.find((d) => d.id === Number(m![1]));
      if (!deployment) return send(res, 404, { message: 'Not Found' });
      if (r.method === 'GET') return sendPage(res, r, base, deployment.statuses.slice().reverse());
      if (r.method === 'POST') {
        const status: FakeDeploymentStatus = {
          id: this.nextId++,
          state: String(b['state']),
          environment_url: b['environment_url'] as string | undefined,
          log_url: b['log_url'] as string | undefined,
          description: b['description'] as string | undefined,
          auto_inactive: b['auto_inactive'] as boolean | undefined,
        };
        deployment.statuses.push(status);
        return send(res, 201, status);
      }
    }
    send(res, 404, { message: 'Not Found' });
  }
}

function matches(pattern: string | RegExp, path: string): boolean {
  return typeof pattern === 'string' ? pattern === path : pattern.test(path);
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

function sendPage(res: ServerResponse, r: RecordedRequest, base: string, items: unknown[]): void {
  const perPage = Math.min(100, Math.max(1, Number(r.query['per_page'] ?? 30) || 30));
  const page = Math.max(1, Number(r.query['page'] ?? 1) || 1);
  const last = Math.max(1, Math.ceil(items.length / perPage));
  const link = (p: number, rel: string) => {
    const query = new URLSearchParams({ ...r.query, per_page: String(perPage), page: String(p) });
    return `<${base}${r.path}?${query}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (page < last) links.push(link(page + 1, 'next'), link(last, 'last'));
  if (page > 1) links.push(link(1, 'first'), link(page - 1, 'prev'));
  send(
    res,
    200,
    items.slice((page - 1) * perPage, page * perPage),
    links.length ? { link: links.join(', ') } : {},
  );
}
