/**
 * Core remembers the Saids behind the latest 500 English sentences it said, to word them again in
 * the reader's language (sayAgain). Sentences something holds for longer (the machine's policy
 * problems, an import's row reasons) are kept by their holder: no number of sentences said since
 * (a dial target's per keystroke, 600 rows of one import) makes them English in a German window.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readPoliciesSync } from '../../../../src-main/core/config/policy/policies';
import { guessMapping } from '../../../../src-main/core/contacts-io/column-mapping';
import { dryRun } from '../../../../src-main/core/contacts-io/contact-import';
import { parseImport } from '../../../../src-main/core/contacts-io/import-file';
import { planImport } from '../../../../src-main/core/contacts-io/import-plan';
import { said } from '../../../../src-main/core/text/said';
import {
  holdSentences,
  inEnglish,
  sayAgain,
  translatorFor,
} from '../../../../src-main/core/text/translators';

const de = translatorFor('de', 'errors');

/** As many distinct sentences as a long session's keystrokes say. */
function sayMany(count: number, tag: string) {
  for (let at = 0; at < count; at++) {
    inEnglish(said('errors:calls.duplicateDial', { display: `+49 30 ${tag}${at}` }));
  }
}

/** Each row's reason of an import of `rows` (Name,Number) in Austria, as core says it. */
function reasonsOf(rows: string[]): string[] {
  const csv = ['Name,Number', ...rows].join('\r\n');
  const table = parseImport(new TextEncoder().encode(csv), '.csv');
  const plan = planImport(table, guessMapping(table.headers), {
    phonebook: 1,
    existing: [],
    region: 'AT',
    onDuplicate: 'skip',
  });
  return dryRun(plan).rows.map((row) => row.reason!);
}

const dir = mkdtempSync(join(tmpdir(), 'callbar-held-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('sentences held beyond the latest 500', () => {
  it('a sentence not held is forgotten after 500 others: that is what holding is for', () => {
    const sentence = inEnglish(said('errors:calls.duplicateDial', { display: 'forgotten' }));
    sayMany(600, 'a');
    expect(sayAgain(de, sentence)).toBe(sentence);
  });

  it('a held sentence is worded in German whatever was said since, until its holder lets go', () => {
    const hold = holdSentences('test');
    const sentence = inEnglish(said('errors:calls.duplicateDial', { display: 'kept' }));
    hold(sentence);
    sayMany(600, 'b');
    expect(sayAgain(de, sentence)).toMatch(/^kept wird bereits angerufen/);
    // The holder's next set replaces this one.
    holdSentences('test');
    expect(sayAgain(de, sentence)).toBe(sentence);
  });

  it("the machine's policy problems stay German after a long session", () => {
    writeFileSync(
      join(dir, 'policies.json'),
      JSON.stringify({ locked: { sync_interval_minutes: 0 } }),
    );
    const { problems } = readPoliciesSync({ platform: 'linux', env: { CALLBAR_POLICY_DIR: dir } });
    expect(problems).toHaveLength(1);
    sayMany(600, 'c');
    expect(sayAgain(de, problems[0]!)).toContain(
      'Die festgelegte Richtlinie „sync_interval_minutes“ ist 0, muss aber',
    );
  });

  it("every row's reason of a 600-row import is German, the first as much as the last", () => {
    const reasons = reasonsOf(Array.from({ length: 600 }, (_, at) => `Row ${at},+43 1 ABC ${at}`));
    expect(reasons).toHaveLength(600);
    sayMany(600, 'd');
    const german = reasons.map((reason) => sayAgain(de, reason));
    expect(german.filter((reason) => !reason.startsWith('Das Feld „Nummer“ mit'))).toEqual([]);
    expect(german[0]).toBe(
      'Das Feld „Nummer“ mit „+43 1 ABC 0“ ist keine Telefonnummer: sie enthält Buchstaben.',
    );
  });

  it('a row’s reason shown in German is worded in English again, from the German', () => {
    const english = reasonsOf(['Ada,+43 1 ABC 1', 'Bea,+43 1 ABC 2']);
    // The window was answered in German; the person switches to English with the preview open.
    const german = english.map((reason) => sayAgain(de, reason));
    sayMany(600, 'e');
    const en = translatorFor('en', 'errors');
    expect(german.map((reason) => sayAgain(en, reason))).toEqual(english);
    expect(german.map((reason) => sayAgain(de, reason))).toEqual(german);
  });
});
