/**
 * The transport under `ControlPlaneClient`: headers (API key, workspace), one `request()` per
 * call, answers masked before they are parsed, errors built from the answer. The API methods
 * live in `client.ts`; this file knows no path of the API.
 */
import type * as z from 'zod/mini';
import type { ApiError } from '../lib/errors.js';
import { checkControlPlaneUrl } from './http/key-policy.js';
import { request, type HttpContext, type HttpResponse, type RetryMode } from './http/request.js';
import { setSecret } from '../lib/untrusted.js';
import { maskDeploymentSecrets, parseAnswer, safeJson } from './answers.js';
import { errorFromResponse } from './error-messages.js';

export const USER_AGENT = 'langgraph-deploy-action/1 (+GitHub Action)';

export interface ControlPlaneClientOptions {
  /** E.g. `https://api.host.langchain.com` or `https://<host>/api-host`; trailing `/` allowed. */
  baseUrl: string;
  apiKey: string;
  workspaceId?: string;
  http: HttpContext;
  /** Masks a secret value; default `setSecret`. */
  mask?: (value: string) => void;
  /** `limit` of list calls; default (and the API's maximum) 100. */
  pageLimit?: number;
}

export interface Call {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  /** An array value is sent as the parameter repeated (`ids=a&ids=b`), as FastAPI reads lists. */
  query?: Record<string, string | number | boolean | undefined | readonly string[]>;
  body?: unknown;
  retry: RetryMode;
  describe: string;
  notFound?: string;
}

export class ControlPlaneTransport {
  protected readonly baseUrl: string;
  protected readonly apiKey: string;
  protected readonly workspaceId: string | undefined;
  protected readonly http: HttpContext;
  protected readonly mask: (value: string) => void;
  protected readonly pageLimit: number;

  constructor(options: ControlPlaneClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    checkControlPlaneUrl(this.baseUrl);
    this.apiKey = options.apiKey;
    this.workspaceId = options.workspaceId || undefined;
    this.http = options.http;
    this.mask = options.mask ?? setSecret;
    this.mask(this.apiKey);
    this.pageLimit = Math.min(100, Math.max(1, Math.floor(options.pageLimit ?? 100)));
  }

  protected headers(): Record<string, string> {
    const headers: Record<string, string> = {
      'X-Api-Key': this.apiKey,
      Accept: 'application/json',
      'User-Agent': USER_AGENT,
    };
    if (this.workspaceId) headers['X-Tenant-Id'] = this.workspaceId;
    return headers;
  }

  protected async send(call: Call): Promise<HttpResponse> {
    const url = new URL(this.baseUrl + call.path);
    for (const [key, value] of Object.entries(call.query ?? {})) {
      if (Array.isArray(value)) for (const item of value) url.searchParams.append(key, item);
      else if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const headers = this.headers();
    if (call.body !== undefined) headers['Content-Type'] = 'application/json';
    return request(this.http, {
      method: call.method,
      url: url.href,
      headers,
      ...(call.body !== undefined ? { body: call.body } : {}),
      retry: call.retry,
      describe: call.describe,
    });
  }

  protected fail(call: Call, res: HttpResponse): ApiError {
    return errorFromResponse(res, {
      method: call.method,
      path: new URL(this.baseUrl + call.path).pathname,
      describe: call.describe,
      ...(call.notFound !== undefined ? { notFound: call.notFound } : {}),
      ...(this.workspaceId !== undefined ? { workspaceId: this.workspaceId } : {}),
    });
  }

  protected async json<S extends z.ZodMiniType>(
    call: Call,
    schema: S,
    options: { ok: number[]; deployments?: boolean },
  ): Promise<z.infer<S>> {
    const res = await this.send(call);
    if (!options.ok.includes(res.status)) {
      // Error bodies of deployment calls are not expected to carry secrets, but mask anyway.
      if (options.deployments) maskDeploymentSecrets(safeJson(res), this.mask);
      throw this.fail(call, res);
    }
    return this.parse(call, res, schema, options.deployments ?? false);
  }

  /** The answer, masked first when it holds deployments, checked against its schema. */
  protected parse<S extends z.ZodMiniType>(
    call: Call,
    res: HttpResponse,
    schema: S,
    deployments: boolean,
  ): z.infer<S> {
    const body = res.json();
    if (deployments) maskDeploymentSecrets(body, this.mask);
    const path = new URL(this.baseUrl + call.path).pathname;
    return parseAnswer(schema, body, {
      describe: call.describe,
      status: res.status,
      method: call.method,
      path,
    });
  }
}
