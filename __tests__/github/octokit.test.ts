/**
 * The GitHub client bounds what an answer may cost: a hostile or broken API (a GHES
 * `GITHUB_API_URL`, a proxy page) answering a huge body is refused past the answer cap, with
 * or without a `Content-Length`, instead of being read whole into memory.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connectGithub } from '../../src/github/octokit.js';
import { MAX_ANSWER_BYTES } from '../../src/api/http/request.js';
import type { Logger } from '../../src/lib/untrusted.js';
import type { GithubContext } from '../../src/inputs/config.js';

const quiet: Logger = {
  info: () => {},
  debug: () => {},
  notice: () => {},
  warning: () => {},
  error: () => {},
};

let server: Server;
let base: string;
/** Bytes the server managed to write per path before the client went away. */
const written: Record<string, number> = {};

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '';
    written[path] = 0;
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    const total = 64 * 1024 * 1024;
    res.writeHead(200, {
      'content-type': 'application/json',
      ...(path.includes('declared') ? { 'content-length': String(total) } : {}),
    });
    const pump = () => {
      while (written[path]! < total) {
        written[path]! += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end();
    };
    res.on('error', () => undefined);
    pump();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('connectGithub', () => {
  it.each(['/repos/o/r/compare/chunked', '/repos/o/r/compare/declared'])(
    'refuses an answer over the cap (%s) before reading it whole',
    async (path) => {
      const github = { apiUrl: base, repository: 'o/r' } as GithubContext;
      const { octokit } = await connectGithub({
        config: { githubToken: 'token', github },
        logger: quiet,
        githubTimeoutMs: 20_000,
      });
      // The outcome as one short line (a 64 MiB answer must not end up in Jest's message).
      const outcome = await octokit.request(`GET ${path}`).then(
        (r) => `read ${String(r.data).length} characters`,
        (e: unknown) => (e instanceof Error ? e.message : String(e)).slice(0, 200),
      );
      expect(outcome).toMatch(/answer too large/);
      // It stopped reading near the cap, not at the end of the 64 MiB.
      expect(written[path]).toBeLessThan(MAX_ANSWER_BYTES * 3);
    },
  );
});
