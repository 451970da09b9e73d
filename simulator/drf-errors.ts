/**
 * Error bodies as drf-standardized-errors writes them (the contract's section 7):
 * `{type: "validation_error" | "client_error" | "server_error", errors: [{code, detail, attr}]}`.
 * Handlers throw an ApiError; the REST layer turns it into a response.
 */
import { jsonResponse, type SimResponse } from './http';

export type ErrorType = 'validation_error' | 'client_error' | 'server_error';

export interface ErrorItem {
  code: string;
  detail: string;
  attr: string | null;
}

export interface ErrorBody {
  type: ErrorType;
  errors: ErrorItem[];
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    /** Null means an empty body (the bulk-delete 403 of the contract). */
    readonly body: ErrorBody | null,
    readonly headers: Record<string, string> = {},
  ) {
    super(body?.errors[0]?.detail ?? `HTTP ${status}`);
    this.name = 'ApiError';
  }

  toResponse(): SimResponse {
    return this.body === null
      ? { status: this.status, headers: this.headers }
      : jsonResponse(this.status, this.body, this.headers);
  }
}

export function errorBody(
  type: ErrorType,
  code: string,
  detail: string,
  attr: string | null = null,
): ErrorBody {
  return { type, errors: [{ code, detail, attr }] };
}

export function validationError(errors: ErrorItem[]): ApiError {
  return new ApiError(400, { type: 'validation_error', errors });
}

export function clientError(
  status: number,
  code: string,
  detail: string,
  headers: Record<string, string> = {},
): ApiError {
  return new ApiError(status, errorBody('client_error', code, detail), headers);
}

export function notFound(detail = 'Not found.'): ApiError {
  return clientError(404, 'not_found', detail);
}

export function permissionDenied(): ApiError {
  return clientError(
    403,
    'permission_denied',
    'You do not have permission to perform this action.',
  );
}

export function parseError(reason: string): ApiError {
  return clientError(400, 'parse_error', `JSON parse error - ${reason}`);
}

export function unsupportedMediaType(type: string): ApiError {
  return clientError(415, 'unsupported_media_type', `Unsupported media type "${type}" in request.`);
}

export function methodNotAllowed(method: string, allowed: string[]): ApiError {
  return clientError(405, 'method_not_allowed', `Method "${method}" not allowed.`, {
    allow: allowed.join(', '),
  });
}

export function requestTooLarge(limit: number): ApiError {
  return clientError(413, 'request_too_large', `Request body exceeds the limit of ${limit} bytes.`);
}

export function serverError(): ApiError {
  return new ApiError(500, errorBody('server_error', 'error', 'A server error occurred.'));
}
