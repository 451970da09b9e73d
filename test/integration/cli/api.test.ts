/**
 * The platform commands of the `callbar` CLI against the simulator, with the session in the real
 * keychain of a throwaway profile. Dial and hangup, whose answers differ between the simulator's
 * profiles, run under both; the phonebook commands once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../simulator/index';
import { runCallbar, runCallbarInProcess } from '../../support/cli-process';
import { control, describeEachProfile } from '../../support/sim-harness';
import { signedInCli } from '../../support/signed-in-cli';

describe('callbar CLI: phonebooks, contacts', () => {
  let sim: RunningSimulator;
  let env: NodeJS.ProcessEnv;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ sim, env, close } = await signedInCli({ contacts: 60 }));
  });
  afterAll(() => close());

  it('lists phonebooks as a table and as JSON', async () => {
    const human = await runCallbar(['phonebooks', 'list'], env);
    expect(human.code).toBe(0);
    expect(human.stdout.split('\n')[0]).toMatch(/^ID\s+DESCRIPTION\s+PRIORITY\s+SHARED\s+OWNERS$/);
    const json = await runCallbarInProcess(
      ['phonebooks', 'list', '--json', '--ordering=-priority'],
      env,
    );
    const page = JSON.parse(json.stdout) as { count: number; results: { priority: number }[] };
    const priorities = page.results.map((book) => book.priority);
    expect(priorities).toEqual([...priorities].sort((a, b) => b - a));
  });

  it('creates a phonebook and a contact, updates and deletes them', async () => {
    const book = JSON.parse(
      (
        await runCallbarInProcess(
          [
            'phonebooks',
            'create',
            '--description',
            'CLI book',
            '--priority',
            '3',
            '--shared',
            '--json',
          ],
          env,
        )
      ).stdout,
    ) as { id: number };
    const created = await runCallbarInProcess(
      [
        'contacts',
        'create',
        '--phonebook',
        String(book.id),
        '--name',
        'Grace Hopper',
        '--number',
        '+12025550143',
        '--speed-dial',
        '7601',
        '--company',
        'Navy',
        '--json',
      ],
      env,
    );
    expect(created.code).toBe(0);
    const contact = JSON.parse(created.stdout) as { id: number };
    const updated = await runCallbarInProcess(
      ['contacts', 'update', String(contact.id), '--name', 'Grace B. Hopper'],
      env,
    );
    expect(updated.stdout).toContain('Grace B. Hopper');
    // Unchanged fields kept; a table shows the number as a person reads it at home (issue 41).
    expect(updated.stdout).toContain('(202) 555-0143');
    expect(updated.stdout).toContain('7601');
    const search = await runCallbarInProcess(
      ['contacts', 'list', '--search', '5550143', '--json'],
      env,
    );
    expect(
      (JSON.parse(search.stdout) as { results: { id: number }[] }).results.map((c) => c.id),
    ).toContain(contact.id);
    expect((await runCallbarInProcess(['contacts', 'delete', String(contact.id)], env)).code).toBe(
      0,
    );
    expect((await runCallbarInProcess(['phonebooks', 'delete', String(book.id)], env)).code).toBe(
      0,
    );
  });

  it('prints the platform’s detail and the field on an error, exit 1', async () => {
    const existing = JSON.parse(
      (await runCallbarInProcess(['phonebooks', 'list', '--json'], env)).stdout,
    ) as {
      results: { description: string }[];
    };
    const duplicate = await runCallbarInProcess(
      [
        'phonebooks',
        'create',
        '--description',
        existing.results[0]!.description,
        '--priority',
        '1',
        '--shared',
      ],
      env,
    );
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toMatch(/description/);
    const badSpeedDial = await runCallbarInProcess(
      [
        'contacts',
        'create',
        '--phonebook',
        '1',
        '--name',
        'X',
        '--number',
        '+15550000',
        '--speed-dial',
        '9191',
      ],
      env,
    );
    expect(badSpeedDial.code).toBe(1);
    expect(badSpeedDial.stderr).toContain('9191');
    const empty = await runCallbarInProcess(['contacts', 'bulk-delete'], env);
    expect(empty.code).toBe(2);
  });

  it('a field error is printed once, naming the field', async () => {
    const result = await runCallbarInProcess(
      [
        'contacts',
        'create',
        '--phonebook',
        '1',
        '--name',
        'X',
        '--number',
        'abc',
        '--speed-dial',
        '7345',
      ],
      env,
    );
    expect(result.code).toBe(1);
    const said = result.stderr.split('\n').filter((line) => line.trim() !== '');
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/^callbar: number: /);
  });

  it('a number already in the phonebook, said as DRF’s non_field_errors: on the number, in plain words', async () => {
    await control(sim, 'PATCH', 'config', { uniqueNumberError: 'non_field_errors' });
    try {
      const books = JSON.parse(
        (await runCallbarInProcess(['phonebooks', 'list', '--json'], env)).stdout,
      ) as {
        results: { id: number }[];
      };
      const create = (speedDial: string, json: string[] = []) =>
        runCallbarInProcess(
          [
            'contacts',
            'create',
            '--phonebook',
            String(books.results[0]!.id),
            '--name',
            'Twice Listed',
            '--number',
            '+12025550177',
            '--speed-dial',
            speedDial,
            ...json,
          ],
          env,
        );
      const first = await create('8811');
      expect(first.code, first.stderr).toBe(0);
      const again = await create('8812');
      expect(again.code).toBe(1);
      expect(again.stderr.trim()).toBe(
        'callbar: number: Another contact in this phonebook already has this number.',
      );
      const json = JSON.parse((await create('8812', ['--json'])).stdout) as {
        error: { field?: string; fields?: Record<string, string>; errors: { attr: string }[] };
      };
      expect(json.error).toMatchObject({
        field: 'number',
        fields: { number: 'Another contact in this phonebook already has this number.' },
        errors: [{ attr: 'non_field_errors' }],
      });
    } finally {
      await control(sim, 'PATCH', 'config', { uniqueNumberError: 'field' });
    }
  });

  it('translates the platform’s framework jargon', async () => {
    const missing = await runCallbarInProcess(['contacts', 'show', '999999'], env);
    // Not found has an exit code of its own (a field naming a missing phonebook is a refusal: 1).
    expect(missing.code).toBe(6);
    expect(missing.stderr).toContain('This contact does not exist (it may have been deleted)');
    expect(missing.stderr).not.toContain('PhonebookContact');

    const intoMissingBook = [
      'contacts',
      'create',
      '--phonebook',
      '999999',
      '--name',
      'X',
      '--number',
      '+12025550100',
      '--speed-dial',
      '7346',
    ];
    const noBook = await runCallbarInProcess(intoMissingBook, env);
    expect(noBook.stderr).toContain('phonebook: There is no phonebook with id 999999');
    expect(noBook.stderr).not.toContain('Invalid pk');
    // --json names the field the way the window's errors do (`fields`), beside the raw detail.
    const noBookJson = await runCallbarInProcess([...intoMissingBook, '--json'], env);
    const refused = JSON.parse(noBookJson.stdout) as {
      error: { fields?: Record<string, string>; errors: { detail: string }[] };
    };
    expect(refused.error.fields?.phonebook).toMatch(/^There is no phonebook with id 999999/);
    expect(refused.error.errors[0]!.detail).toContain('Invalid pk');

    // A list filtered by a phonebook that is not there: django-filter's "Select a valid choice."
    const listMissingBook = await runCallbarInProcess(
      ['contacts', 'list', '--phonebook', '999999'],
      env,
    );
    // Not a refusal but a phonebook not found, as `contacts export --phonebook 999999` says.
    expect(listMissingBook.code).toBe(6);
    expect(listMissingBook.stderr).toBe(
      'callbar: This phonebook does not exist (it may have been deleted), or you may not see it.\n',
    );
    expect(listMissingBook.stderr).not.toContain('Select a valid choice');

    // A number field's bounds (DRF's "Ensure this value is less than or equal to …"), in German too.
    const tooHigh = [
      'phonebooks',
      'create',
      '--description',
      'Bounds',
      '--priority',
      '3000000000',
      '--shared',
    ];
    expect(await runCallbarInProcess(tooHigh, env)).toMatchObject({
      code: 1,
      stderr: 'callbar: priority: The value may be at most 2147483647.\n',
    });
    const tooLow = await runCallbarInProcess(
      ['phonebooks', 'create', '--description', 'Bounds', '--priority=-1', '--shared'],
      { ...env, LANG: 'de_DE.UTF-8' },
    );
    expect(tooLow.stderr).toBe('callbar: priority: Der Wert muss mindestens 0 sein.\n');

    const pastTheEnd = await runCallbarInProcess(['contacts', 'list', '--page', '9999'], env);
    expect(pastTheEnd.code).toBe(6);
    expect(pastTheEnd.stderr).toContain('That page is past the end of the list');

    // Programs get the platform's own detail beside the translated message.
    const json = await runCallbarInProcess(['contacts', 'show', '999999', '--json'], env);
    const { error } = JSON.parse(json.stdout) as {
      error: { message: string; status: number; errors: { detail: string }[] };
    };
    expect(error.status).toBe(404);
    expect(error.message).toMatch(/^This contact does not exist/);
    expect(error.errors[0]!.detail).toBe('No PhonebookContact matches the given query.');
  });
});

describeEachProfile('callbar CLI: dial and hang up', (profile) => {
  let sim: RunningSimulator;
  let env: NodeJS.ProcessEnv;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ sim, env, close } = await signedInCli({ profile, contacts: 5 }));
  });
  afterAll(() => close());

  it('dials and hangs up', async () => {
    const dial = await runCallbarInProcess(['dial', '+1 202 555 0188', '--json'], env);
    expect(dial.code).toBe(0);
    expect(JSON.parse(dial.stdout)).toMatchObject({ status: 'dialing' });
    const calls = await control<{ legs?: { id: string }[] }[]>(sim, 'GET', 'calls');
    const call = calls.find((c) => JSON.stringify(c).includes('+12025550188'))!;
    const leg =
      (JSON.parse(dial.stdout) as { call: { leg_ids: string[] } }).call.leg_ids[0] ??
      call.legs![0]!.id;
    const hangup = await runCallbarInProcess(['hangup', leg], env);
    expect(hangup.code).toBe(0);
    expect(hangup.stdout).toContain('Hung up');
    const bad = await runCallbarInProcess(['dial', 'not a number'], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('That is not a phone number');
  });
});

describe('callbar CLI: a page size above the platform’s maximum', () => {
  let env: NodeJS.ProcessEnv;
  let close: () => Promise<void>;
  beforeAll(async () => {
    // The variant refuses a page_size above 50 (400 max_value) where rich and minimal clamp it.
    ({ env, close } = await signedInCli({ contacts: 120, profile: 'variant' }));
  });
  afterAll(() => close());

  it('lists the largest page the platform takes, as a clamping platform does (before: exit 1)', async () => {
    for (const command of [['contacts'], ['phonebooks']]) {
      const run = await runCallbarInProcess(
        [...command, 'list', '--page-size', '100', '--json'],
        env,
      );
      expect(run.code, run.stderr).toBe(0);
      const page = JSON.parse(run.stdout) as { count: number; results: unknown[] };
      expect(page.results).toHaveLength(Math.min(50, page.count));
    }
    const second = await runCallbarInProcess(
      ['contacts', 'list', '--page-size', '100', '--page', '2'],
      env,
    );
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toMatch(/\n\n50 of 120 contacts \(more: --page N, or --all\)$/);
  });
});
