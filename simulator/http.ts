/** node:http plumbing: reading a request body and writing a `SimResponse`. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setImmediate as nextTick, setTimeout as sleep } from 'node:timers/promises';
import type { SimResponse } from './types.js';

const MAX_BODY = 1024 * 1024;

export class BodyTooLarge extends Error {
  constructor() {
    super(`Request body is larger than ${MAX_BODY} bytes.`);
  }
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > MAX_BODY) throw new BodyTooLarge();
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function send(res: ServerResponse, response: SimResponse): Promise<void> {
  if (res.destroyed) return;
  const headers: Record<string, string> = { ...(response.headers ?? {}) };
  if (response.sse) {
    res.writeHead(response.status, headers);
    res.flushHeaders();
    for (const [index, event] of response.sse.entries()) {
      if (index === 1 && response.sseDelayMs && !(await pause(res, response.sseDelayMs))) return;
      // Split each event across two writes so clients must reassemble lines.
      const cut = Math.floor(event.length / 2);
      res.write(event.slice(0, cut));
      await nextTick();
      res.write(event.slice(cut));
      await nextTick();
      if (res.destroyed) return;
    }
    res.end();
    return;
  }
  if (response.delayMs && !(await pause(res, response.delayMs))) return;
  writeJson(res, response, headers);
  response.onSent?.();
}

/** Waits `ms`; false when the client went away meanwhile (cancelled run, closed simulator). */
async function pause(res: ServerResponse, ms: number): Promise<boolean> {
  const gone = new AbortController();
  const onClose = () => gone.abort();
  res.once('close', onClose);
  await sleep(ms, undefined, { signal: gone.signal }).catch(() => {});
  res.off('close', onClose);
  return !res.destroyed;
}

function writeJson(res: ServerResponse, response: SimResponse, headers: Record<string, string>) {
  if (response.status === 204 || (response.body === undefined && response.raw === undefined)) {
    res.writeHead(response.status, headers);
    res.end();
    return;
  }
  const text = response.raw ?? JSON.stringify(response.body);
  const lower = Object.keys(headers).map((h) => h.toLowerCase());
  if (!lower.includes('content-type')) headers['content-type'] = 'application/json';
  headers['content-length'] = String(Buffer.byteLength(text));
  res.writeHead(response.status, headers);
  res.end(text);
}
