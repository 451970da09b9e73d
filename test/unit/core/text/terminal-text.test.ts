import { describe, expect, it } from 'vitest';
import { terminalField, terminalOutput } from '../../../../src-main/core/text/terminal-text';

/** Every character a terminal acts on or that reorders text, by kind. */
const ACTING = {
  C0: Array.from({ length: 0x20 }, (_, code) => String.fromCharCode(code)),
  DEL: ['\u007f'],
  C1: Array.from({ length: 0x20 }, (_, code) => String.fromCharCode(0x80 + code)),
  bidi: [
    ...'\u202a\u202b\u202c\u202d\u202e',
    ...'\u2066\u2067\u2068\u2069',
    ...'\u200e\u200f\u061c',
  ],
  'line separators': ['\u2028', '\u2029'],
};

describe('terminalField', () => {
  it.each(Object.entries(ACTING))('shows each %s character as its \\u escape', (_, characters) => {
    for (const character of characters) {
      const code = character.charCodeAt(0).toString(16).padStart(4, '0');
      expect(terminalField(`a${character}b`)).toBe(`a\\u${code}b`);
    }
  });

  it('shows every escape sequence kind as text', () => {
    expect(terminalField('\u001b]52;c;ZXZpbA==\u0007')).toBe('\\u001b]52;c;ZXZpbA==\\u0007');
    expect(terminalField('\u001b]8;;https://x/\u001b\\link')).toBe(
      '\\u001b]8;;https://x/\\u001b\\link',
    );
    expect(terminalField('\u009b2J\u009d0;t\u009c\u0090q\u009c')).toBe(
      '\\u009b2J\\u009d0;t\\u009c\\u0090q\\u009c',
    );
  });

  it('keeps a value on one line, printable text as written, and is the same when applied twice', () => {
    const field = terminalField('Row\nForged\r\tcell');
    expect(field).toBe('Row\\u000aForged\\u000d\\u0009cell');
    expect(terminalField(field)).toBe(field);
    expect(terminalField('Grete Nørgaard 日本 🙂 أحمد +1 (907) 555-0163')).toBe(
      'Grete Nørgaard 日本 🙂 أحمد +1 (907) 555-0163',
    );
    expect(terminalField(null)).toBe('');
    expect(terminalField(42)).toBe('42');
  });
});

describe('terminalOutput', () => {
  it('keeps the line breaks between lines and shows every other acting character', () => {
    expect(terminalOutput('NAME\nEve\u001b[2J\r\u202e\n')).toBe(
      'NAME\nEve\\u001b[2J\\u000d\\u202e\n',
    );
  });

  it('leaves JSON the same JSON: every value reads back exactly, nothing acting goes out raw', () => {
    const values = Object.values(ACTING).flat();
    const value = { names: values.map((character) => `x${character}y`), plain: 'Nørgaard \\ "q"' };
    const shown = terminalOutput(JSON.stringify(value));
    expect(JSON.parse(shown)).toEqual(value);
    for (const character of values) expect(shown).not.toContain(character);
  });
});
