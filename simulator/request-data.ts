/**
 * `request.data` as DRF's JSONParser gives it to a view: an empty body or a body without a
 * Content-Type is no data ({}); JSON is parsed (a syntax error is 400 parse_error); any other
 * media type is 415.
 */
import { parseError, unsupportedMediaType } from './drf-errors';
import { isJsonMediaType, mediaType, type SimRequest } from './http';

export function requestData(request: SimRequest): unknown {
  const type = mediaType(request.headers);
  if (request.body.length === 0 || type === undefined) return {};
  if (!isJsonMediaType(type)) throw unsupportedMediaType(request.headers['content-type'] ?? type);
  const text = request.body.toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw parseError(error instanceof Error ? error.message : 'invalid JSON');
  }
}
