/**
 * `callbar contacts export` and `callbar contacts import` as a user runs them (the built CLI, a
 * throwaway profile whose keychain holds a session, the simulator): stdout and files, dry run,
 * re-import, the failures file, Ctrl+C, and usage mistakes caught before anything is asked.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../simulator/index';
import type { PlatformApi } from '../../../src-main/core/api/platform-api';
import { openVault } from '../../../src-main/core/vault/keytar-vault';
import { apiFor } from '../../support/api-rig';
import { callbar, runCallbar, runCallbarInProcess } from '../../support/cli-process';
import { control, issuedSession, requestLog, startSim } from '../../support/sim-harness';
import { until } from '../../support/until';
import { contactsOf, exported, fileWith, phonebookWith } from '../../support/transfer-rig';

describe('callbar contacts export / import', () => {
  let sim: RunningSimulator;
  let api: PlatformApi;
  let env: NodeJS.ProcessEnv;
  let dataDir: string;
  beforeAll(async () => {
    sim = await startSim({ contacts: 20 });
    ({ api } = await apiFor(sim));
    dataDir = mkdtempSync(join(tmpdir(), 'callbar-cli-transfer-'));
    await openVault({ dataDir }).save(await issuedSession(sim, sim.users[0]!));
    env = { CALLBAR_DATA_DIR: dataDir, CALLBAR_BASE_URL: sim.base_url, CALLBAR_REGION: 'US' };
  });
  afterAll(async () => {
    await openVault({ dataDir }).clear();
    rmSync(dataDir, { recursive: true, force: true });
    await sim.close();
  });

  it('exports to stdout and, atomically and private, to a file', async () => {
    const book = await phonebookWith(api, [
      {
        display_name: 'Grace Hopper',
        number: '+12025550301',
        secondary_number: null,
        speed_dial: 7301,
        company: '=1+1',
      },
    ]);
    const out = await runCallbar(['contacts', 'export', '--phonebook', String(book)], env);
    expect(out.code).toBe(0);
    // Read line by line (CRLF or LF); the file below is compared byte for byte.
    expect(out.stdout).toBe(
      [
        'Name,Number,Secondary number,Speed dial,Company',
        `Grace Hopper,"'+12025550301",,7301,"'=1+1"`,
      ].join('\n'),
    );
    const folder = mkdtempSync(join(tmpdir(), 'callbar-export-'));
    const file = join(folder, 'book.vcf');
    const written = await runCallbarInProcess(
      ['contacts', 'export', '--phonebook', String(book), '--output', file],
      env,
    );
    expect(written).toMatchObject({ code: 0, stdout: '' });
    expect(written.stderr).toContain(`Exported 1 contact of phonebook ${book} to ${file}.`);
    expect(await readFile(file, 'utf8')).toBe(await exported(api, book, 'vcard'));
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    // A CSV file begins with UTF-8's mark, so Excel reads it as UTF-8; stdout (a pipe) has none.
    const csv = join(folder, 'book.csv');
    await runCallbarInProcess(
      ['contacts', 'export', '--phonebook', String(book), '--output', csv],
      env,
    );
    expect(await readFile(csv, 'utf8')).toBe(`\uFEFF${await exported(api, book, 'csv')}`);
  });

  it('imports: a dry run sends nothing, the import creates, a second one skips everything', async () => {
    const book = await phonebookWith(api);
    const file = await fileWith(
      'team.csv',
      'Display Name;Phone;Company\nAlan Turing;(202) 555-0311;Bletchley\nKatherine Johnson;202 555 0312;NASA\n',
    );
    const args = ['contacts', 'import', file, '--phonebook', String(book), '--json'];
    const before = (await requestLog(sim)).length;
    const dry = await runCallbarInProcess([...args, '--dry-run'], env);
    expect(dry.code).toBe(0);
    const planned = JSON.parse(dry.stdout) as { dry_run: boolean; counts: { created: number } };
    expect(planned).toMatchObject({ dry_run: true, counts: { created: 2 } });
    const writes = (await requestLog(sim)).slice(before).filter((e) => e.method !== 'GET');
    expect(writes).toEqual([]);

    const done = await runCallbarInProcess(args, env);
    expect(done.code).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({ counts: { created: 2, failed: 0 } });
    const contacts = await contactsOf(api, book);
    expect(contacts.map((c) => [c.display_name, c.number, c.company]).sort()).toEqual([
      ['Alan Turing', '+12025550311', 'Bletchley'],
      ['Katherine Johnson', '+12025550312', 'NASA'],
    ]);

    const again = await runCallbarInProcess(
      ['contacts', 'import', file, '--phonebook', String(book)],
      env,
    );
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^Imported into phonebook \d+: 0 created, 0 updated, 2 skipped/);
    expect(again.stderr).toContain('Columns: Name ← "Display Name", Number ← "Phone"');
  });

  it('imports Outlook, German Outlook and Google exports, whose names come in parts', async () => {
    const book = await phonebookWith(api);
    // Outlook's CSV export (a few of its 90 columns): no name column, First/Middle/Last Name.
    const outlook = await fileWith(
      'outlook.csv',
      [
        'First Name,Middle Name,Last Name,E-mail Address,Home Phone,Mobile Phone,Business Phone,Company',
        'Ada,,Lovelace,ada@example.com,,(202) 555-0331,+1 202 555 0399,Analytical Engines',
      ].join('\r\n'),
    );
    // German Outlook ("Kommagetrennte Werte"), as Excel saves it: a BOM and semicolons.
    const german = await fileWith(
      'kontakte.csv',
      [
        '\uFEFFAnrede;Vorname;Nachname;Firma;Telefon geschäftlich;Telefon (privat)',
        'Herr;Jürgen;Müller;Bäckerei Größe GmbH;(202) 555-0332;202 555 0333',
      ].join('\r\n'),
    );
    // Google Contacts' export.
    const google = await fileWith(
      'google.csv',
      [
        'First Name,Middle Name,Last Name,Organization Name,Phone 1 - Label,Phone 1 - Value,Phone 2 - Label,Phone 2 - Value',
        'Grace,Brewster,Hopper,US Navy,Mobile,202-555-0334,Work,202-555-0335',
      ].join('\n'),
    );
    const outlookRun = await runCallbarInProcess(
      ['contacts', 'import', outlook, '--phonebook', String(book)],
      env,
    );
    expect(outlookRun.stderr).toContain(
      'Columns: Name ← "First Name + Middle Name + Last Name", Number ← "Mobile Phone", Secondary number ← "Business Phone"',
    );
    expect(outlookRun.code).toBe(0);
    for (const file of [german, google]) {
      const run = await runCallbarInProcess(
        ['contacts', 'import', file, '--phonebook', String(book)],
        env,
      );
      expect(run.code).toBe(0);
    }
    const contacts = await contactsOf(api, book);
    expect(
      contacts.map((c) => [c.display_name, c.number, c.secondary_number, c.company]).sort(),
    ).toEqual([
      ['Ada Lovelace', '+12025550331', '+12025550399', 'Analytical Engines'],
      ['Grace Brewster Hopper', '+12025550334', '+12025550335', 'US Navy'],
      ['Jürgen Müller', '+12025550332', '+12025550333', 'Bäckerei Größe GmbH'],
    ]);
  });

  it("imports Windows' ANSI CSV and an Android vCard 2.1, saying the encoding read first", async () => {
    const book = await phonebookWith(api);
    // Outlook's "CSV (Windows)" on a Western Windows: Windows-1252.
    const ansi = await fileWith(
      'outlook-ansi.csv',
      Buffer.from('Vorname;Nachname;Mobiltelefon\r\nJürgen;Müller;(202) 555-0351\r\n', 'latin1'),
    );
    const run = await runCallbarInProcess(
      ['contacts', 'import', ansi, '--phonebook', String(book)],
      env,
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      `Read ${ansi} as CSV in Windows-1252. The file is not UTF-8, so Callbar read it as Windows' Western European text (the first name reads "Jürgen Müller")`,
    );
    // An Android phone's export: quoted-printable UTF-8 over two lines, bare TEL types, a photo.
    const android = await fileWith(
      'contacts.vcf',
      [
        'BEGIN:VCARD',
        'VERSION:2.1',
        'N;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:Gr=C3=B6=C3=9Fe;Ren=C3=A9;;;',
        'FN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:Ren=C3=A9 Gr=C3=B6=',
        '=C3=9Fe',
        'TEL;CELL;PREF:202-555-0352',
        'TEL;WORK:202-555-0353',
        'PHOTO;ENCODING=BASE64;JPEG:/9j/4AAQSkZJRgABAQAAAQABAAD',
        '  AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
        '',
        'END:VCARD',
        '',
      ].join('\r\n'),
    );
    const phone = await runCallbarInProcess(
      ['contacts', 'import', android, '--phonebook', String(book), '--json'],
      env,
    );
    expect(phone.code).toBe(0);
    expect(JSON.parse(phone.stdout)).toMatchObject({
      format: 'vcard',
      encoding: 'utf-8',
      counts: { created: 1, failed: 0 },
    });
    const contacts = await contactsOf(api, book);
    expect(contacts.map((c) => [c.display_name, c.number, c.secondary_number]).sort()).toEqual([
      ['Jürgen Müller', '+12025550351', null],
      ['René Größe', '+12025550352', '+12025550353'],
    ]);
    // The group's help says so too (it named only 3.0 and 4.0).
    const help = await runCallbarInProcess(['contacts'], env);
    expect(help.stdout).toContain('Import a CSV or vCard (2.1, 3.0, 4.0) file into a phonebook');
  });

  it('imports a Central European file in the encoding given with --encoding; refuses an unknown one', async () => {
    const book = await phonebookWith(api);
    // A Polish Windows writes "Łódź Żółć" in Windows-1250; the guess (Windows-1252) misreads it.
    const polish = await fileWith(
      'polska.csv',
      Buffer.concat([
        Buffer.from('Name;Number\r\n'),
        Buffer.from([0xa3, 0xf3, 0x64, 0x9f, 0x20, 0xaf, 0xf3, 0xb3, 0xe6]),
        Buffer.from(';(202) 555-0361\r\n'),
      ]),
    );
    const args = ['contacts', 'import', polish, '--phonebook', String(book)];
    const guessed = await runCallbarInProcess([...args, '--dry-run'], env);
    expect(guessed.stderr).toContain('(the first name reads "£ódŸ ¯ó³æ")');
    expect(guessed.stderr).toContain('--encoding windows-1250 (Central European)');
    const unknown = await runCallbarInProcess([...args, '--encoding', 'klingon'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(
      '--encoding must name one of utf-8, utf-16le, utf-16be, windows-1252, windows-1250, windows-1251, macintosh, not "klingon".',
    );
    const wrong = await runCallbarInProcess([...args, '--encoding', 'utf-8'], env);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('The file is not UTF-8 text');
    expect(await contactsOf(api, book)).toEqual([]);
    const run = await runCallbarInProcess([...args, '--encoding', 'CP1250'], env);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`Read ${polish} as CSV in Windows-1250.`);
    expect(run.stderr).not.toContain('first name reads');
    const contacts = await contactsOf(api, book);
    expect(contacts.map((c) => [c.display_name, c.number])).toEqual([
      ['Łódź Żółć', '+12025550361'],
    ]);
  });

  it('imports a second phone column as the secondary number; a re-import changes nothing', async () => {
    const book = await phonebookWith(api);
    const file = await fileWith(
      'outlook.csv',
      [
        'First Name,Last Name,Home Phone,Mobile Phone,Business Phone',
        'Ada,Both,,(202) 555-0341,202 555 0342',
        'Bob,Business Only,,,202 555 0343',
        'Cy,All Three,202 555 0344,202 555 0345,202 555 0346',
      ].join('\r\n'),
    );
    const args = ['contacts', 'import', file, '--phonebook', String(book)];
    const run = await runCallbarInProcess(args, env);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('Number ← "Mobile Phone", Secondary number ← "Business Phone"');
    expect(run.stdout).toMatch(/^Imported into phonebook \d+: 3 created, 0 updated, 0 skipped/);
    // The phone with no room is named on its row.
    expect(run.stdout).toMatch(
      /3\s+Cy All Three\s+202 555 0345\s+created\s+The phone "202 555 0344" of column "Home Phone" is not imported/,
    );
    const contacts = await contactsOf(api, book);
    expect(contacts.map((c) => [c.display_name, c.number, c.secondary_number]).sort()).toEqual([
      ['Ada Both', '+12025550341', '+12025550342'],
      ['Bob Business Only', '+12025550343', null],
      ['Cy All Three', '+12025550345', '+12025550346'],
    ]);
    for (const duplicates of ['skip', 'update']) {
      const again = await runCallbarInProcess(
        [...args, '--on-duplicate', duplicates, '--json'],
        env,
      );
      expect(again.code).toBe(0);
      expect(JSON.parse(again.stdout)).toMatchObject({
        counts: { created: 0, updated: 0, skipped: 3, failed: 0 },
      });
    }
    expect(await contactsOf(api, book)).toEqual(contacts);
  });

  it('lists the rows it could not import, saves them as a CSV, and exits 1', async () => {
    const book = await phonebookWith(api);
    const file = await fileWith(
      'mixed.csv',
      'Name,Number,Speed dial\nGood,+12025550321,\nBad,not a number,\nWorse,+12025550322,9191\n',
    );
    const failures = join(mkdtempSync(join(tmpdir(), 'callbar-failures-')), 'failed.csv');
    const run = await runCallbarInProcess(
      ['contacts', 'import', file, '--phonebook', String(book), '--failures', failures],
      env,
    );
    expect(run.code).toBe(1);
    // Rows failed: not "Imported", whatever else it did.
    expect(run.stdout).toMatch(
      /^Imported in part into phonebook \d+: 1 created, 0 updated, 0 skipped, 2 failed/,
    );
    expect(run.stdout).toMatch(/2\s+Bad\s+not a number\s+failed\s+The number "not a number"/);
    expect(run.stderr).toContain(`The 2 rows not imported are in ${failures}.`);
    const saved = (await readFile(failures, 'utf8')).split('\r\n');
    expect(saved[0]).toBe('Row,Name,Number,Secondary number,Speed dial,Company,Reason');
    expect(saved[1]).toMatch(/^2,Bad,not a number,,,,/);
    expect(saved[2]).toMatch(/^3,Worse,"'\+12025550322",,9191,,/);
  });

  it('counts one in the singular, in English as in German: 1 contact, 1 request, the row not imported', async () => {
    const book = await phonebookWith(api);
    const file = await fileWith(
      'one-bad.csv',
      // A speed dial of its own: one request, none spent finding a free one.
      'Name,Number,Speed dial\nFine,+12025550331,9876\nBad,not a number,\n',
    );
    const failures = join(mkdtempSync(join(tmpdir(), 'callbar-failures-')), 'failed.csv');
    const args = ['contacts', 'import', file, '--phonebook', String(book), '--failures', failures];
    const run = await runCallbarInProcess(args, env);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /: 1 created, 0 updated, 0 skipped, 1 failed \(\d+\.\d s, 1 request\)\./,
    );
    expect(run.stderr).toContain(`The row not imported is in ${failures}.`);
    const german = await runCallbarInProcess(args, { ...env, LANG: 'de_DE.UTF-8' });
    expect(german.stderr).toContain(`Die nicht importierte Zeile steht in ${failures}.`);
    expect(german.stdout).toMatch(/^Teilweise importiert in /);

    const listed = await runCallbarInProcess(
      ['contacts', 'list', '--phonebook', String(book), '--all'],
      env,
    );
    expect(listed.stdout).toMatch(/\n\n1 contact$/);
    const [contact] = await contactsOf(api, book);
    const deleted = await runCallbarInProcess(
      ['contacts', 'bulk-delete', String(contact!.id)],
      env,
    );
    expect(deleted.stdout).toBe(`Deleted 1 contact: ${contact!.id}.`);
  });

  it('an --output it cannot write is one sentence naming it, before any request (before: EISDIR, a temporary path)', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'callbar-output-'));
    const aFile = join(folder, 'a-file.csv');
    await writeFile(aFile, 'kept\n');
    const cases: [string[], string][] = [
      [['contacts', 'export', '--output', folder], `${folder}: it is a folder; name a file in it.`],
      [['calls', 'export', '--output', folder], `${folder}: it is a folder; name a file in it.`],
      [
        ['contacts', 'export', '--output', join(aFile, 'x.csv')],
        `${join(aFile, 'x.csv')}: a part of the path is not a folder.`,
      ],
      // A mistyped folder is said, never made (before: created, and the export written into it).
      [
        ['contacts', 'export', '--output', join(folder, 'Documnets', 'x.csv')],
        `${join(folder, 'Documnets', 'x.csv')}: there is no such folder.`,
      ],
      [
        ['calls', 'export', '--output', join(folder, 'Documnets', 'x.csv')],
        `${join(folder, 'Documnets', 'x.csv')}: there is no such folder.`,
      ],
    ];
    for (const [args, why] of cases) {
      const before = (await requestLog(sim)).length;
      const run = await runCallbarInProcess(args, env);
      expect(run.code, args.join(' ')).toBe(1);
      expect(run.stderr).toBe(`callbar: Callbar could not write ${why} Nothing was written.\n`);
      if (args[0] === 'contacts') expect((await requestLog(sim)).length).toBe(before);
    }
    expect(await readFile(aFile, 'utf8')).toBe('kept\n');
    expect(existsSync(join(folder, 'Documnets'))).toBe(false);
    const german = await runCallbarInProcess(['contacts', 'export', '--output', folder, '--json'], {
      ...env,
      LANG: 'de_DE.UTF-8',
    });
    // --json is English, with a code of its own.
    expect(JSON.parse(german.stdout)).toEqual({
      state: 'connected',
      error: {
        code: 'output_unwritable',
        message: `Callbar could not write ${folder}: it is a folder; name a file in it. Nothing was written.`,
      },
    });
    const germanText = await runCallbarInProcess(['contacts', 'export', '--output', folder], {
      ...env,
      LANG: 'de_DE.UTF-8',
    });
    expect(germanText.stderr).toBe(
      `callbar: Callbar konnte ${folder} nicht schreiben: das ist ein Ordner; nennen Sie eine Datei darin. Es wurde nichts geschrieben.\n`,
    );
  });

  it('an --output that is a pipe or a device (`>(gzip …)`, /dev/stdout) is written into, never replaced by a file (before: renamed over, as root even /dev/stdout)', async () => {
    const book = await phonebookWith(api, [
      {
        display_name: 'Piped Person',
        number: '+12025550351',
        secondary_number: null,
        speed_dial: 7351,
        company: '',
      },
    ]);
    const folder = mkdtempSync(join(tmpdir(), 'callbar-pipe-'));
    const fifo = join(folder, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const reader = spawn('cat', [fifo], { stdio: ['ignore', 'pipe', 'ignore'] });
    let read = '';
    reader.stdout.on('data', (chunk: Buffer) => (read += chunk.toString()));
    const readerDone = new Promise((done) => reader.on('exit', done));
    try {
      const run = await runCallbar(
        ['contacts', 'export', '--phonebook', String(book), '--output', fifo],
        env,
      );
      expect(run.code, run.stderr).toBe(0);
      expect((await stat(fifo)).isFIFO()).toBe(true);
      await readerDone;
      expect(read).toContain('Piped Person');
    } finally {
      reader.kill();
    }
    // (A device such as /dev/null goes the same way; not tried here: as root, CI's user, a
    // regression would replace the machine's /dev/null.)
    // Through a link (as /dev/stdout is one when the shell sends stdout to a file): the file it
    // names gets the export, and the link stays a link.
    const elsewhere = join(mkdtempSync(join(tmpdir(), 'callbar-linked-')), 'contacts.csv');
    await writeFile(elsewhere, 'old\n');
    const link = join(folder, 'latest.csv');
    symlinkSync(elsewhere, link);
    const linked = await runCallbar(
      ['contacts', 'export', '--phonebook', String(book), '--output', link],
      env,
    );
    expect(linked.code, linked.stderr).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(await readFile(elsewhere, 'utf8')).toContain('Piped Person');
  });

  it('an import whose --failures cannot be written sends nothing and says so (before: the rows were sent, then the summary was lost)', async () => {
    const book = await phonebookWith(api);
    const file = await fileWith(
      'to-fail.csv',
      'Name,Number\nFine,+12025550341\nBad,not a number\n',
    );
    const folder = mkdtempSync(join(tmpdir(), 'callbar-failures-'));
    const failures = join(folder, 'no-such-folder', 'failed.csv');
    const args = ['contacts', 'import', file, '--phonebook', String(book), '--failures', failures];
    const run = await runCallbarInProcess(args, env);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `callbar: Callbar could not write ${failures}: there is no such folder. Nothing was written.\n`,
    );
    expect(await contactsOf(api, book)).toEqual([]);
    expect(existsSync(join(folder, 'no-such-folder'))).toBe(false);
  });

  it('stops on Ctrl+C after the row in flight and says which rows were not sent', async () => {
    const book = await phonebookWith(api);
    const rows = Array.from({ length: 12 }, (_, i) => `Slow ${i},+120255504${10 + i},${7410 + i}`);
    const file = await fileWith('slow.csv', ['Name,Number,Speed dial', ...rows].join('\n'));
    await control(sim, 'POST', 'faults', {
      method: 'POST',
      path: '/v3/phonebook/contact/',
      match: 'exact',
      delay_ms: 300,
    });
    try {
      const run = callbar(['contacts', 'import', file, '--phonebook', String(book), '--json'], env);
      await until('two contacts created', async () =>
        (await contactsOf(api, book)).length >= 2 ? true : undefined,
      );
      run.kill('SIGINT');
      const lines: string[] = [];
      for await (const line of run.lines) lines.push(line);
      const { code } = await run.exit;
      expect(code).toBe(130);
      const result = JSON.parse(lines.join('\n')) as {
        cancelled: boolean;
        counts: { created: number; not_sent: number };
      };
      expect(result.cancelled).toBe(true);
      expect(result.counts.created + result.counts.not_sent).toBe(12);
      expect(result.counts.not_sent).toBeGreaterThan(0);
      expect(await contactsOf(api, book)).toHaveLength(result.counts.created);
    } finally {
      await control(sim, 'DELETE', 'faults');
    }
  });

  it('refuses mistakes before asking the platform anything', async () => {
    const file = await fileWith('x.csv', 'Name,Number\nA,+12025550331\n');
    const cases: [string[], number, RegExp][] = [
      [['contacts', 'export', '--format', 'xml'], 2, /--format must be csv or vcard/],
      [['contacts', 'import', file], 2, /--phonebook is required/],
      [
        ['contacts', 'import', file, '--phonebook', '1', '--on-duplicate', 'merge'],
        2,
        /skip or update/,
      ],
      [
        ['contacts', 'import', file, '--phonebook', '1', '--map', 'email=Name'],
        2,
        /not a contact field/,
      ],
      [['contacts', 'import', '/nonexistent/x.csv', '--phonebook', '1'], 1, /There is no file/],
    ];
    for (const [args, code, message] of cases) {
      const run = await runCallbarInProcess(args, env);
      expect(run.code, args.join(' ')).toBe(code);
      expect(run.stderr).toMatch(message);
    }
  });
});
