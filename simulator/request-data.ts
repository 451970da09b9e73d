/**
 * `request.data` as DRF's JSONParser gives it to a view: an empty body or a body without a
 * Content-Type is no data ({}); JSON is decoded as strict UTF-8 and parsed (invalid UTF-8 or a
 * syntax error, such as a raw control character in a string, is 400 parse_error); any other
 * media type, application/*+json included, is 415.
 */
import { parseError, unsupportedMediaType } from './drf-errors';
import { isJsonMediaType, mediaType, type SimRequest } from './http';

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

export function requestData(request: SimRequest): unknown {
  const type = mediaType(request.headers);
  if (request.body.length === 0 || type === undefined) return {};
  if (!isJsonMediaType(type)) throw unsupportedMediaType(request.headers['content-type'] ?? type);
  let text: string;
  try {
    text = UTF8.decode(request.body);
  } catch {
    throw parseError(`'utf-8' codec can't decode the body: invalid UTF-8.`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw parseError(error instanceof Error ? error.message : 'invalid JSON');
  }
}
