/**
 * The platform's API spoken over plain HTTP, as any integrator would: a bearer-token client that
 * returns status, headers and body as sent (redirects not followed), and the DRF shapes the
 * simulator's conformance tests read (error bodies, pages, phonebooks, contacts).
 */

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
