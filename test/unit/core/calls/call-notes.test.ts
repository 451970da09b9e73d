/**
 * Call notes in the profile: two writers (the app and another process: each with its own
 * CallNotes, sharing only the folder, its lock file and call-notes.json) lose none of each
 * other's notes; a note is checked (length, control and bidi characters); the oldest notes go
 * past MAX_CALL_NOTES.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CALL_NOTE_CHARS } from '../../../../src-shared/contract';
import {
  MAX_CALL_NOTES,
  checkedNote,
  memoryCallNotes,
  profileCallNotes,
} from '../../../../src-main/core/calls/call-notes';
import { silentLogger } from '../../../../src-main/core/log/logger';

describe('call notes', () => {
  it('keeps every note when two writers note calls at the same moment', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'callbar-call-notes-'));
    const app = profileCallNotes(dataDir, silentLogger);
    const cli = profileCallNotes(dataDir, silentLogger);
    await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        (index % 2 ? app : cli).set(`call-${index}`, `note ${index}`),
      ),
    );
    await app.load();
    for (let index = 0; index < 20; index++) {
      expect(app.note(`call-${index}`)).toBe(`note ${index}`);
    }
    const file = JSON.parse(readFileSync(join(dataDir, 'call-notes.json'), 'utf8')) as {
      notes: unknown[];
    };
    expect(file.notes).toHaveLength(20);
    await cli.set('call-3', '');
    await app.load();
    expect(app.note('call-3')).toBeUndefined();
  });

  it('checks a note and keeps the newest MAX_CALL_NOTES', async () => {
    expect(checkedNote('  two\r\nlines  ')).toBe('two\nlines');
    expect(() => checkedNote('x'.repeat(CALL_NOTE_CHARS + 1))).toThrow(/at most 500 characters/);
    expect(() => checkedNote('bell\u0007')).toThrow(/control or text-direction/);
    expect(() => checkedNote('evil\u202etxt')).toThrow(/control or text-direction/);
    const notes = memoryCallNotes();
    for (let index = 0; index <= MAX_CALL_NOTES; index++) {
      await notes.set(`call-${index}`, `n${index}`);
    }
    expect(notes.note('call-0')).toBeUndefined();
    expect(notes.note('call-1')).toBe('n1');
    expect(notes.note(`call-${MAX_CALL_NOTES}`)).toBe(`n${MAX_CALL_NOTES}`);
  });
});
