import { chmodSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contentStamp, fileStamp } from '../../../../src-main/core/files/file-stamp';

/**
 * A file's stamp, the one way the settings file, the policy files, the call log and the directory
 * cache tell that another process changed them: with the change time (a chmod counts) or without
 * it (a chmod in a loop is no change).
 */
let dir: string;
let file: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'callbar-stamp-'));
  file = join(dir, 'a.json');
  writeFileSync(file, '{}');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('file stamps', () => {
  it('a file that is not there has none', () => {
    expect(fileStamp(join(dir, 'missing'))).toBeUndefined();
    expect(contentStamp(join(dir, 'missing'))).toBeUndefined();
  });

  it('new contents, or another file put in its place, change both stamps', () => {
    const before = [fileStamp(file), contentStamp(file)];
    writeFileSync(file, '{"a":1}');
    const written = [fileStamp(file), contentStamp(file)];
    expect(written[0]).not.toBe(before[0]);
    expect(written[1]).not.toBe(before[1]);
    const other = join(dir, 'b.json');
    writeFileSync(other, '{"a":1}');
    renameSync(other, file);
    expect(fileStamp(file)).not.toBe(written[0]);
    expect(contentStamp(file)).not.toBe(written[1]);
  });

  // That the file stamp does change on a chmod is not asserted: the change time is a coarse clock
  // tick, which the chmod may share with the write before it (the policy tests see it change).
  it.skipIf(process.platform === 'win32')('a change of mode is no change of the contents', () => {
    const before = contentStamp(file);
    chmodSync(file, 0o600);
    chmodSync(file, 0o644);
    expect(contentStamp(file)).toBe(before);
  });

  it.skipIf(process.platform === 'win32')(
    'a link is followed unless its own stamp is asked for',
    () => {
      const link = join(dir, 'link.json');
      symlinkSync(file, link);
      expect(fileStamp(link)).toBe(fileStamp(file));
      expect(fileStamp(link, { link: 'itself' })).not.toBe(fileStamp(file));
      rmSync(file);
      expect(fileStamp(link)).toBeUndefined();
      expect(fileStamp(link, { link: 'itself' })).toBeDefined();
    },
  );
});
