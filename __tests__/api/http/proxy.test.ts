/**
 * The one proxy look-up (`src/api/http/proxy.ts`): the `fetch` dispatcher and the `node:https`
 * agent of the upload both come from `@actions/http-client`, with `NO_PROXY` honoured.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { createServer, request as httpRequest } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { agentFor, dispatcherFor, proxied } from '../../../src/api/http/proxy.js';

const NAMES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy'];
let saved: Record<string, string | undefined> = {};

beforeEach(() => {
  saved = Object.fromEntries(NAMES.map((n) => [n, process.env[n]]));
  for (const n of NAMES) delete process.env[n];
});
afterEach(() => {
  for (const n of NAMES) {
    if (saved[n] === undefined) delete process.env[n];
    else process.env[n] = saved[n];
  }
});

describe('proxy look-up', () => {
  it('finds no proxy when no variable is set', async () => {
    const url = new URL('https://uploads.example.test/archive');
    expect(proxied(url)).toBe(false);
    expect(agentFor(url)).toBeUndefined();
    expect(await dispatcherFor(url)).toBeUndefined();
  });

  it('gives the fetch dispatcher and the upload agent for a proxied host, neither for NO_PROXY', async () => {
    process.env['HTTPS_PROXY'] = 'http://127.0.0.1:9';
    process.env['NO_PROXY'] = 'internal.example.test';
    const viaProxy = new URL('https://uploads.example.test/archive');
    const bypassed = new URL('https://store.internal.example.test/archive');
    expect(proxied(viaProxy)).toBe(true);
    expect(agentFor(viaProxy)).toBeDefined();
    expect(await dispatcherFor(viaProxy)).toBeDefined();
    // One dispatcher per proxy, reused by every request through it.
    expect(await dispatcherFor(viaProxy)).toBe(
      await dispatcherFor(new URL('https://x.example.test')),
    );
    expect(agentFor(bypassed)).toBeUndefined();
    expect(await dispatcherFor(bypassed)).toBeUndefined();
    expect(proxied(bypassed)).toBe(false);
  });

  it('tunnels a node:http request (the upload PUT) through the proxy', async () => {
    const target = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.end(`got ${req.method}`));
    });
    const connects: string[] = [];
    const sockets: Socket[] = [];
    const proxy = createServer((_req, res) => res.writeHead(501).end());
    proxy.on('connect', (req, client: Socket, head: Buffer) => {
      connects.push(req.url ?? '');
      const upstream = connect((target.address() as AddressInfo).port, '127.0.0.1', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      sockets.push(client, upstream);
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    });
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', () => r()));
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
    try {
      const targetPort = (target.address() as AddressInfo).port;
      process.env['HTTP_PROXY'] = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      const url = new URL(`http://uploads.test:${targetPort}/archive`);
      const agent = agentFor(url);
      expect(agent).toBeDefined();
      const body = await new Promise<string>((resolve, reject) => {
        const req = httpRequest(url, { method: 'PUT', agent }, (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (d: string) => (text += d));
          res.on('end', () => resolve(text));
        });
        req.on('error', reject);
        req.end('archive bytes');
      });
      expect(body).toBe('got PUT');
      expect(connects).toEqual([`uploads.test:${targetPort}`]);
    } finally {
      for (const socket of sockets) socket.destroy();
      proxy.closeAllConnections();
      target.closeAllConnections();
      await new Promise<void>((r) => proxy.close(() => r()));
      await new Promise<void>((r) => target.close(() => r()));
    }
  });
});
