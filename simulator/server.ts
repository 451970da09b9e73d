/**
 * The HTTP server: reads each body (capped at 1 MiB → 413), routes /__sim/ to the control API
 * and everything else to the platform (REST API, token endpoint, portal) through the fault table
 * and into the request log. Handlers return response values, so a fault can answer before the
 * request is processed or take the real answer away afterwards (reset, malformed, status).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ControlApi } from './control-api';
import { notFound, requestTooLarge, serverError } from './drf-errors';
import { faultEffects, faultResponse, type Fault } from './faults';
import {
  lastValueQuery,
  isFormMediaType,
  isJsonMediaType,
  MAX_BODY_BYTES,
  mediaType,
  readBody,
  writeResponse,
  type SimRequest,
  type SimResponse,
} from './http';
import type { Platform } from './platform';
import type { Portal } from './portal';
import { redact, type LoggedRequest } from './request-log';
import { handleRest, scopeOfPath } from './rest-api';

export interface SimServerParts {
  platform: Platform;
  control: ControlApi;
  portal: Portal;
}

function loggedBody(request: SimRequest): unknown {
  if (request.bodyTooLarge) return '[body too large]';
  if (request.body.length === 0) return null;
  const text = request.body.toString('utf8');
  const type = mediaType(request.headers);
  // JSON first, whatever the declared type: a JSON body sent as a form must not be logged as one
  // form key holding every secret.
  try {
    return redact(JSON.parse(text));
  } catch {
    if (isFormMediaType(type)) return redact(Object.fromEntries(new URLSearchParams(text)));
    return isJsonMediaType(type) || type === undefined
      ? text.slice(0, 2000)
      : `[${type}, ${request.body.length} bytes]`;
  }
}

function loggedQuery(query: URLSearchParams): Record<string, string> {
  return redact(Object.fromEntries(query)) as Record<string, string>;
}

export function createSimServer(parts: SimServerParts): Server {
  const { platform } = parts;

  const destroy = (response: ServerResponse) => {
    const socket = response.socket;
    if (!socket) return;
    if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
    else socket.destroy();
  };

  const wait = async (ms: number): Promise<boolean> => {
    try {
      await sleep(ms, undefined, { signal: platform.signal, ref: false });
      return true;
    } catch {
      return false;
    }
  };

  const platformResponse = async (request: SimRequest): Promise<SimResponse> => {
    if (request.bodyTooLarge) return requestTooLarge(MAX_BODY_BYTES).toResponse();
    const hostile = platform.hostile.answer(request, platform.origin);
    if (hostile) return hostile;
    if (request.path.startsWith('/v3/')) return handleRest(platform, request);
    if (request.path === '/portal' || request.path.startsWith('/portal/'))
      return parts.portal.handle(request);
    return notFound().toResponse();
  };

  const handle = async (incoming: IncomingMessage, response: ServerResponse) => {
    const method = (incoming.method ?? 'GET').toUpperCase();
    let url: URL;
    try {
      url = new URL(incoming.url ?? '/', `http://${incoming.headers.host ?? '127.0.0.1'}`);
    } catch {
      url = new URL(incoming.url?.startsWith('/') ? incoming.url : '/', 'http://127.0.0.1');
    }
    const isControl = url.pathname === '/__sim' || url.pathname.startsWith('/__sim/');
    const seq = isControl ? 0 : platform.requestLog.seq();
    const arrived = platform.clock.nowIso();
    const { body, tooLarge, aborted } = await readBody(incoming);
    if (aborted) return;
    const request: SimRequest = {
      method,
      url,
      path: url.pathname,
      query: lastValueQuery(url.searchParams),
      headers: incoming.headers,
      body,
      bodyTooLarge: tooLarge,
    };
    if (isControl) {
      writeResponse(
        response,
        tooLarge ? requestTooLarge(MAX_BODY_BYTES).toResponse() : parts.control.handle(request),
      );
      return;
    }

    const entry: LoggedRequest = {
      seq,
      time: arrived,
      method,
      path: request.path,
      query: loggedQuery(request.query),
      status: null,
      scope: scopeOfPath(request.path),
      body: loggedBody(request),
    };
    const finish = (result: SimResponse | undefined, fault?: Fault, originalStatus?: number) => {
      entry.status = result ? result.status : null;
      if (fault) {
        entry.fault = {
          id: fault.id,
          when: fault.when,
          effects: faultEffects(fault),
          ...(originalStatus !== undefined ? { original_status: originalStatus } : {}),
        };
      }
      platform.requestLog.add(entry);
      if (result) writeResponse(response, result);
      else destroy(response);
    };

    const fault = platform.faults.take(method, request.path);
    if (fault?.when === 'before') {
      if (fault.delay_ms !== undefined && !(await wait(fault.delay_ms))) return;
      if (fault.reset) return finish(undefined, fault);
      if (fault.malformed || fault.status !== undefined) return finish(faultResponse(fault), fault);
    }
    let result: SimResponse;
    try {
      result = await platformResponse(request);
    } catch (error) {
      platform.log(`internal error on ${method} ${request.path}: ${String(error)}`);
      result = serverError().toResponse();
    }
    if (fault?.when === 'after') {
      if (fault.delay_ms !== undefined && !(await wait(fault.delay_ms))) return;
      if (fault.reset) return finish(undefined, fault, result.status);
      if (fault.malformed || fault.status !== undefined)
        return finish(faultResponse(fault, result), fault, result.status);
    }
    finish(result, fault);
  };

  const server = createServer((incoming, response) => {
    handle(incoming, response).catch((error: unknown) => {
      platform.log(`request failed: ${String(error)}`);
      if (!response.headersSent) writeResponse(response, serverError().toResponse());
      else response.destroy();
    });
  });
  server.on('clientError', (_error, socket) => {
    if (socket.writable)
      socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    else socket.destroy();
  });
  return server;
}
