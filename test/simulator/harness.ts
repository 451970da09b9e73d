/**
 * Shared set-up for the simulator's conformance tests: a simulator on a free port, its control
 * client, an API client that speaks plain HTTP with a bearer token, and a throwaway receiver that
 * plays the integrator (Activation, Deactivation and Webhook URLs).
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SimControl } from '../../simulator/control-client';
import {
  startSimulator,
  type RunningSimulator,
  type SimulatorOptions,
} from '../../simulator/index';

export interface TestSim {
  sim: RunningSimulator;
  control: SimControl;
  /** A fresh access token for the main tenant's user with this extension. */
  token(extension?: string): Promise<string>;
  api(token?: string): Api;
  /** A form-encoded refresh at the token endpoint with the simulator's client credentials. */
  refresh(refreshToken: string, overrides?: Record<string, string>): Promise<Response>;
}

export async function startTestSim(options: SimulatorOptions = {}): Promise<TestSim> {
  const sim = await startSimulator({ contacts: 60, autoAnswer: false, ...options });
  const control = new SimControl(sim.base_url);
  return {
    sim,
    control,
    token: async (extension = '201') =>
      (await control.issueTokens({ tenant_id: sim.tenant_id, user_extension: extension }))
        .access_token,
    api: (token) => new Api(sim.base_url, token),
    refresh: (refreshToken, overrides = {}) =>
      fetch(`${sim.base_url}/v3/oauth/token/`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: refreshToken,
          client_id: sim.client_id,
          client_secret: sim.client_secret,
          ...overrides,
        }),
      }),
  };
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body; undefined when the body is empty or not JSON. */
  json: unknown;
}

export interface RequestOptions {
  body?: unknown;
  /** A raw body, sent as is (overrides `body`). */
  raw?: string | Blob;
  headers?: Record<string, string>;
}

/** Plain HTTP to the platform, as an integrator would send it. */
export class Api {
  constructor(
    readonly baseUrl: string,
    readonly token?: string,
  ) {}

  async request(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = {};
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    let body: string | Blob | undefined;
    if (options.raw !== undefined) body = options.raw;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    Object.assign(headers, options.headers);
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      body: body ?? null,
      redirect: 'manual',
    });
    const text = await response.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: response.status, headers: response.headers, text, json };
  }

  get(path: string, options?: RequestOptions) {
    return this.request('GET', path, options);
  }

  post(path: string, body?: unknown, options: RequestOptions = {}) {
    return this.request('POST', path, { ...options, body });
  }

  put(path: string, body?: unknown, options: RequestOptions = {}) {
    return this.request('PUT', path, { ...options, body });
  }

  delete(path: string, body?: unknown, options: RequestOptions = {}) {
    return this.request('DELETE', path, { ...options, body });
  }
}

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** The answer for the next requests (default 200 "ok"). */
  answer: { status: number; body: string };
  close(): Promise<void>;
}

/** A throwaway integrator endpoint that records what it receives. */
export async function startReceiver(): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const answer = { status: 200, body: 'ok' };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests.push({
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      response.writeHead(answer.status, { 'content-type': 'text/plain' });
      response.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    answer,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Polls until `check` returns a value (not undefined/false), or fails after `timeoutMs`. */
export async function eventually<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 3000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export interface ErrorItem {
  code: string;
  detail: string;
  attr: string | null;
}

export interface ErrorBody {
  type: string;
  errors: ErrorItem[];
}

/** The errors of a DRF error body as `type/code/attr` strings, for compact assertions. */
export function errorKeys(response: ApiResponse): string[] {
  const body = response.json as ErrorBody;
  return body.errors.map((error) => `${body.type}/${error.code}/${error.attr ?? 'null'}`);
}

export interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

export interface PhonebookRead {
  id: number;
  description: string;
  priority: number;
  is_shared: boolean;
  owners: { id: number; username: string }[];
  created: string;
  modified: string;
}

export interface ContactBody {
  id: number;
  phonebook: number;
  display_name: string;
  number: string;
  secondary_number: string | null;
  speed_dial: number;
  company: string;
}
