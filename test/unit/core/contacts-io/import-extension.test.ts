/**
 * An extension written after a number in a file to import ("ext. 12", ";ext=12", "x12"): the
 * platform's numbers are digits only (contract 2.5, E.164 recommended; the simulator refuses
 * anything else), so it cannot be kept. The row is imported with the number alone, and the row
 * says so (the preview, the result, the CLI's table), instead of the extension being lost unsaid.
 */
import { describe, expect, it } from 'vitest';
import { parseDialTarget } from '../../../../src-main/core/calls/dial-target';
import { guessMapping } from '../../../../src-main/core/contacts-io/column-mapping';
import { dryRun } from '../../../../src-main/core/contacts-io/contact-import';
import { parseImport } from '../../../../src-main/core/contacts-io/import-file';
import { planImport } from '../../../../src-main/core/contacts-io/import-plan';

const CSV = [
  'Name,Number,Other phone',
  'Written,+43 1 234 567 ext. 12,',
  'RFC 3966,+43 1 234 568;ext=13,',
  'Short,+43 1 234 569 x14,+43 1 234 570 extension 7',
  'Plain,+43 1 234 571,',
].join('\r\n');

describe('an extension after a number, on import', () => {
  it('imports the number and says, for that row, that the extension is not kept', () => {
    const table = parseImport(new TextEncoder().encode(CSV), '.csv');
    const plan = planImport(table, guessMapping(table.headers), {
      phonebook: 1,
      existing: [],
      region: 'AT',
      onDuplicate: 'skip',
    });
    const result = dryRun(plan);
    expect(result.counts).toMatchObject({ created: 4, failed: 0 });
    expect(result.rows.map((row) => [row.record?.number, row.reason])).toEqual([
      [
        '+431234567',
        "The number's extension 12 is not kept (the platform stores numbers without extensions): +431234567 is imported.",
      ],
      [
        '+431234568',
        "The number's extension 13 is not kept (the platform stores numbers without extensions): +431234568 is imported.",
      ],
      [
        '+431234569',
        "The number's extension 14 is not kept (the platform stores numbers without extensions): +431234569 is imported; the secondary number's extension 7 is not kept (the platform stores numbers without extensions): +431234570 is imported.",
      ],
      ['+431234571', undefined],
    ]);
  });

  it('reads ;ext= after a typed number as the extension, as tel: links have it', () => {
    const target = parseDialTarget('+43 1 234 568;ext=13', { region: 'AT' });
    expect(target).toMatchObject({
      destination: '+431234568',
      extension: '13',
      display: '01 234568 ext. 13',
    });
  });
});
