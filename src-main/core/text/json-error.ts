import { said, type Said } from './said';

/**
 * Where the JSON broke, without quoting the file (V8's messages sometimes quote the input, and a
 * misplaced secret could be in it).
 */
export function describeJsonError(error: unknown, text: string): Said {
  const message = error instanceof Error ? error.message : '';
  const located = /^(.*?) in JSON at position (\d+)/.exec(message);
  if (located?.[1] !== undefined && located[2] !== undefined) {
    const before = text.slice(0, Number(located[2]));
    const line = before.split('\n').length;
    const column = before.length - before.lastIndexOf('\n');
    return said('errors:settings.jsonAt', { problem: located[1], line, column });
  }
  if (message.startsWith('Unexpected end of JSON input')) return said('errors:settings.jsonEnds');
  return said('errors:settings.notJsonDocument');
}
