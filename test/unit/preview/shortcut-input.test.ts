import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src-main/core/log/logger';
import { readShortcutPresses } from '../../../src-main/preview/shortcut-input';

describe("the web preview's dial shortcut on stdin", () => {
  it('presses once per well-formed line; anything else is logged without its text', async () => {
    const input = new PassThrough();
    const lines: string[] = [];
    const pressed: string[] = [];
    readShortcutPresses(
      input,
      createLogger((line) => lines.push(line)),
      (clipboard) => {
        pressed.push(clipboard);
        return Promise.resolve();
      },
    );
    input.write('{"shortcut":"dial","clipboard":"+49 30 5550199"}\n');
    input.write('not json +49 30 1111111\n');
    input.write('{"shortcut":"hangup","clipboard":"+49 30 2222222"}\n');
    input.write('{"shortcut":"dial","clipboard":"x","extra":1}\n');
    input.write('{"shortcut":"dial","clipboard":""}\n');
    input.end();
    await new Promise((done) => input.once('end', done));
    await new Promise((done) => setImmediate(done));

    expect(pressed).toEqual(['+49 30 5550199', '']);
    expect(lines).toHaveLength(3);
    for (const line of lines) {
      expect(JSON.parse(line)).toMatchObject({ level: 'warn' });
      expect(line).not.toMatch(/1111111|2222222/);
    }
  });
});
