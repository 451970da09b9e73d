/**
 * The HTTP plumbing every part of the simulator shares: a request as the handlers see it (body
 * already read, capped), the response they return (a value, so faults can delay, replace or
 * corrupt it after the fact), and the small helpers to build and write both.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';

/** Request bodies larger than this are refused with 413 (Django's DATA_UPLOAD_MAX_MEMORY_SIZE). */
export const MAX_BODY_BYTES = 1024 * 1024;
/** Beyond this the simulator stops draining a refused body and drops the connection. */
const MAX_DRAIN_BYTES = 64 * 1024 * 1024;

export interface SimRequest {
  method: string;
  /** The absolute URL as the client addressed it (scheme, Host header, path, query). */
  url: URL;
  path: string;
  /** One value per key, the last (Django's QueryDict); `url.searchParams` keeps them all. */
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
  bodyTooLarge: boolean;
}

export interface SimResponse {
  status: number;
  headers?: Record<string, string>;
  /** Undefined means no body at all (Content-Length: 0). */
  body?: string | Buffer;
}

export function jsonResponse(
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): SimResponse {
  return {
    status,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(value),
  };
}

export function emptyResponse(status: number, headers: Record<string, string> = {}): SimResponse {
  return { status, headers };
}

export function htmlResponse(
  status: number,
  html: string,
  headers: Record<string, string> = {},
): SimResponse {
  return {
    status,
    headers: { 'content-type': 'text/html; charset=utf-8', ...headers },
    body: html,
  };
}

export function redirectResponse(
  status: 302 | 303,
  location: string,
  headers: Record<string, string> = {},
): SimResponse {
  return { status, headers: { location, ...headers } };
}

/** Reads the whole body, keeping at most `limit` bytes; a larger body is drained and flagged. */
export function readBody(
  request: IncomingMessage,
  limit = MAX_BODY_BYTES,
): Promise<{ body: Buffer; tooLarge: boolean; aborted: boolean }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (aborted: boolean) => {
      if (settled) return;
      settled = true;
      resolve({
        body: size > limit ? Buffer.alloc(0) : Buffer.concat(chunks),
        tooLarge: size > limit,
        aborted,
      });
    };
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else chunks.length = 0;
      if (size > MAX_DRAIN_BYTES) {
        request.socket.destroy();
        finish(true);
      }
    });
    request.on('end', () => finish(false));
    request.on('aborted', () => finish(true));
    request.on('error', () => finish(true));
    request.on('close', () => finish(!request.complete));
  });
}

export function writeResponse(response: ServerResponse, result: SimResponse): void {
  if (response.destroyed || response.writableEnded) return;
  const body = result.body === undefined ? undefined : Buffer.from(result.body);
  response.writeHead(result.status, {
    ...result.headers,
    'content-length': String(body?.length ?? 0),
  });
  response.end(body);
}

/** The media type of the Content-Type header, lower-cased, without parameters. */
export function mediaType(headers: IncomingHttpHeaders): string | undefined {
  const value = headers['content-type'];
  if (!value) return undefined;
  return value.split(';')[0]?.trim().toLowerCase() || undefined;
}

/** DRF's JSONParser handles application/json only: application/vnd.x+json is a 415. */
export function isJsonMediaType(type: string | undefined): boolean {
  return type === 'application/json';
}

/**
 * The query string as Django's QueryDict answers `get` and `items()`: one value per key, the last
 * one given (`?page=1&page=2` is page 2), keys in the order they first appeared.
 */
export function lastValueQuery(params: URLSearchParams): URLSearchParams {
  const last = new Map<string, string>();
  for (const [key, value] of params) last.set(key, value);
  return new URLSearchParams([...last]);
}

export function isFormMediaType(type: string | undefined): boolean {
  return type === 'application/x-www-form-urlencoded';
}

/** The name Python would give the JSON value's type, as DRF puts it in its messages. */
export function pythonTypeName(value: unknown): string {
  if (value === null) return 'NoneType';
  if (Array.isArray(value)) return 'list';
  if (typeof value === 'string') return 'str';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'object') return 'dict';
  return typeof value;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function cookieValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  for (const part of (headers.cookie ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

export function bearerToken(headers: IncomingHttpHeaders): string | undefined {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(headers.authorization ?? '');
  return match?.[1];
}
