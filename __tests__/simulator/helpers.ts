/** Shared bits of the simulator tests: a JSON fetch with the key, and a bounded poll. */
import type { Simulator } from '../../simulator/index.js';

export interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

export async function call(
  sim: Simulator,
  method: string,
  path: string,
  options: { body?: unknown; key?: string | null; tenant?: string; base?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  const key = options.key === undefined ? sim.apiKey : options.key;
  if (key !== null) headers['x-api-key'] = key;
  if (options.tenant) headers['x-tenant-id'] = options.tenant;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${options.base ?? sim.url}${path}`, {
    method,
    headers,
    body:
      options.body === undefined
        ? undefined
        : typeof options.body === 'string'
          ? options.body
          : JSON.stringify(options.body),
  });
  const text = await response.text();
  let body: unknown = undefined;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: response.status, headers: response.headers, body, text };
}

export const INTEGRATION_ID = '5f0c2f5e-1111-4aaa-8bbb-000000000001';

export function githubCreate(name: string, extra: Record<string, unknown> = {}) {
  return {
    name,
    source: 'github',
    source_config: { integration_id: INTEGRATION_ID, repo_url: 'https://github.com/acme/agent' },
    source_revision_config: { repo_ref: 'main', langgraph_config_path: 'langgraph.json' },
    secrets: [{ name: 'OPENAI_API_KEY', value: 'sk-test-value' }],
    ...extra,
  };
}

export function dockerCreate(name: string, extra: Record<string, unknown> = {}) {
  return {
    name,
    source: 'external_docker',
    source_config: { custom_url: 'https://agent.example.com' },
    source_revision_config: { image_uri: 'registry.example.com/agent:1' },
    secrets: [],
    ...extra,
  };
}

/** Calls `read` until `done` holds; fails after `timeoutMs` (no fixed sleeps). */
export async function pollUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 5000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) {
      throw new Error(
        `Condition not met within ${timeoutMs} ms; last value: ${JSON.stringify(value)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export const asRecord = (v: unknown) => v as Record<string, unknown>;
