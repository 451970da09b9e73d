/**
 * The window's exports read in pieces: each piece at most EXPORT_PIECE_CHARS, the pieces joined
 * are the source's text, the last says done and closes the export; a failing source closes it;
 * at most MAX_OPEN_EXPORTS stay open and an idle one is closed.
 */
import { describe, expect, it } from 'vitest';
import { EXPORT_PIECE_CHARS } from '../../../../src-shared/contract';
import {
  fileNameOf,
  IDLE_MS,
  MAX_OPEN_EXPORTS,
  WindowExports,
  type ExportSource,
} from '../../../../src-main/core/exports/window-exports';

function source(pieces: string[], failAt?: number): ExportSource & { closed: () => boolean } {
  let items = 0;
  let closed = false;
  async function* generate() {
    try {
      for (const [index, piece] of pieces.entries()) {
        if (index === failAt) throw new Error('the platform went away');
        items++;
        yield await Promise.resolve(piece);
      }
    } finally {
      closed = true;
    }
  }
  return { file_name: 'x.csv', pieces: generate(), items: () => items, closed: () => closed };
}

async function readAll(exports: WindowExports, id: string) {
  const sizes: number[] = [];
  let text = '';
  for (let reads = 0; reads < 100; reads++) {
    const piece = await exports.read(id);
    sizes.push(piece.text.length);
    text += piece.text;
    if (piece.done) return { text, sizes, items: piece.items };
  }
  throw new Error('never done');
}

describe('window exports', () => {
  it('hands the text over in bounded pieces, exactly', async () => {
    const exports = new WindowExports();
    const big = 'a'.repeat(EXPORT_PIECE_CHARS + 10);
    const parts = ['head\r\n', big, 'é'.repeat(EXPORT_PIECE_CHARS), 'tail'];
    const { export_id } = exports.start(source(parts));
    const { text, sizes, items } = await readAll(exports, export_id);
    expect(text).toBe(parts.join(''));
    expect(Math.max(...sizes)).toBeLessThanOrEqual(EXPORT_PIECE_CHARS);
    expect(sizes.length).toBeGreaterThanOrEqual(3);
    expect(items).toBe(4);
    await expect(exports.read(export_id)).rejects.toMatchObject({ code: 'export_unknown' });
  });

  it('closes an export whose source fails, and says why', async () => {
    const exports = new WindowExports();
    const failing = source(['a', 'b'], 1);
    const { export_id } = exports.start(failing);
    await expect(exports.read(export_id)).rejects.toThrow('the platform went away');
    await expect(exports.read(export_id)).rejects.toMatchObject({ code: 'export_unknown' });
  });

  it('keeps a bounded number open and closes idle ones', async () => {
    let now = 0;
    const exports = new WindowExports({ now: () => now });
    const sources = Array.from({ length: MAX_OPEN_EXPORTS + 1 }, () => source(['x']));
    const ids = sources.map((each) => exports.start(each).export_id);
    await expect(exports.read(ids[0]!)).rejects.toMatchObject({ code: 'export_unknown' });
    expect((await exports.read(ids[1]!)).done).toBe(true);
    now += IDLE_MS + 1;
    exports.start(source(['y']));
    await expect(exports.read(ids[2]!)).rejects.toMatchObject({ code: 'export_unknown' });
  });
});

describe('an export file named for its phonebook', () => {
  it('keeps the name as it is, and only what a file name cannot hold is replaced', () => {
    expect(fileNameOf('Customers', 'phonebook-9')).toBe('Customers');
    expect(fileNameOf('Kund:innen / Nord', 'phonebook-9')).toBe('Kund-innen - Nord');
    expect(fileNameOf('Ærø — personal', 'phonebook-9')).toBe('Ærø — personal');
    expect(fileNameOf('evil\u202egnp.exe', 'phonebook-9')).toBe('evil-gnp.exe');
    expect(fileNameOf('../..', 'phonebook-9')).toBe('phonebook-9');
    expect(fileNameOf('   ', 'phonebook-9')).toBe('phonebook-9');
    expect(fileNameOf(undefined, 'phonebook-9')).toBe('phonebook-9');
    expect(fileNameOf('x'.repeat(300), 'phonebook-9')).toHaveLength(80);
  });
});
