/**
 * What the import plans for rows that repeat a number: a number the phonebook has, with
 * duplicates skipped, is skipped on every row that carries it (none is refused as a copy of
 * another row that is not imported either), and with duplicates updated, the first row that
 * changes something updates it; a number new to the phonebook twice in the file is created once
 * and the second row refused, naming the first.
 */
import { describe, expect, it } from 'vitest';
import { guessMapping } from '../../../../src-main/core/contacts-io/column-mapping';
import { dryRun } from '../../../../src-main/core/contacts-io/contact-import';
import { parseImport } from '../../../../src-main/core/contacts-io/import-file';
import { planImport } from '../../../../src-main/core/contacts-io/import-plan';

const CSV = [
  'Name,Number',
  'Hanna Berg,+49 30 1234567',
  'Hanna B.,+49 30 1234567',
  'Neu Person,+49 30 7654321',
  'Neu Again,+49 30 7654321',
].join('\r\n');

const HANNA = {
  id: 7,
  phonebook: 1,
  display_name: 'Hanna Berg',
  number: '+49301234567',
  secondary_number: null,
  speed_dial: 2345,
  company: '',
};

function plan(onDuplicate: 'skip' | 'update') {
  const table = parseImport(new TextEncoder().encode(CSV), '.csv');
  return dryRun(
    planImport(table, guessMapping(table.headers), {
      phonebook: 1,
      existing: [HANNA],
      region: 'DE',
      onDuplicate,
    }),
  ).rows.map((row) => [row.row, row.outcome, row.reason]);
}

describe('rows that repeat a number', () => {
  it('skips every row of a number the phonebook has, when duplicates are skipped', () => {
    expect(plan('skip')).toEqual([
      [1, 'skipped', 'The phonebook has this number already (Hanna Berg).'],
      [2, 'skipped', 'The phonebook has this number already (Hanna Berg).'],
      [3, 'created', undefined],
      [4, 'failed', expect.stringMatching(/row 3 has the same number/i)],
    ]);
  });

  it('updates with the first row that changes something, when duplicates are updated', () => {
    expect(plan('update')).toEqual([
      [1, 'skipped', 'Unchanged.'],
      [2, 'updated', undefined],
      [3, 'created', undefined],
      [4, 'failed', expect.stringMatching(/row 3 has the same number/i)],
    ]);
  });
});
