import { describe, expect, it } from 'vitest';
import { encodeMessage, MessageFramer } from '../../../../src-main/core/browser/native-messaging';

describe('native messaging framing', () => {
  it('a 32-bit length in the machine’s order, then UTF-8 JSON', () => {
    const bytes = encodeMessage({ a: 'ü' });
    expect(bytes.readUInt32LE(0)).toBe(Buffer.byteLength('{"a":"ü"}'));
    expect(bytes.subarray(4).toString()).toBe('{"a":"ü"}');
  });

  it('messages cut anywhere come out whole, in order', () => {
    const framer = new MessageFramer();
    const stream = Buffer.concat([encodeMessage({ id: 1 }), encodeMessage({ id: 2 })]);
    const out = [...stream].flatMap((byte) => framer.push(Buffer.from([byte])));
    expect(out).toEqual([
      { kind: 'message', value: { id: 1 } },
      { kind: 'message', value: { id: 2 } },
    ]);
  });

  it('a body that is not JSON is said; a length over the limit stops the framer for good', () => {
    const framer = new MessageFramer(16);
    const bad = Buffer.concat([Buffer.from([3, 0, 0, 0]), Buffer.from('{{{')]);
    expect(framer.push(bad)).toEqual([{ kind: 'not-json' }]);
    expect(framer.push(Buffer.from([17, 0, 0, 0]))).toEqual([{ kind: 'too-large', bytes: 17 }]);
    expect(framer.push(encodeMessage({ id: 3 }))).toEqual([]);
  });
});
