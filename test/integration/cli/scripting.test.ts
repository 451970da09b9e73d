/**
 * `callbar` as a script uses it (the built bin, a real simulator, a keychain holding a session):
 * a pipe whose reader goes away (`| head -1`, `| false`), a stdout that takes nothing more
 * (`> /dev/full`), an exit code per kind of failure (not found, network down), and Ctrl+C /
 * SIGTERM during a sync or an export to a file.
 */
import { spawn } from 'node:child_process';
import {
  closeSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../simulator/index';
import { callbar, allOutput } from '../../support/cli-process';
import { control, requestLog } from '../../support/sim-harness';
import { signedInCli } from '../../support/signed-in-cli';
import { until } from '../../support/until';

const root = join(import.meta.dirname, '../../..');
const ENGLISH = { LC_ALL: '', LC_MESSAGES: '', LANG: 'C.UTF-8' };

/** Runs `callbar ARGS | false` in bash: the bin's exit code (PIPESTATUS) and its stderr. */
function intoClosedPipe(args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(
    'bash',
    ['-c', '"$0" bin/callbar.mjs "$@" | false; exit "${PIPESTATUS[0]}"', process.execPath, ...args],
    { cwd: root, env: { ...process.env, ...ENGLISH, ...env }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  return finished(child);
}

/** Runs `callbar ARGS > /dev/full`: the exit code and stderr. */
function intoFullDisk(args: string[], env: NodeJS.ProcessEnv) {
  const full = openSync('/dev/full', 'w');
  try {
    const child = spawn(process.execPath, [join(root, 'bin/callbar.mjs'), ...args], {
      cwd: root,
      env: { ...process.env, ...ENGLISH, ...env },
      stdio: ['ignore', full, 'pipe'],
    });
    return finished(child);
  } finally {
    closeSync(full);
  }
}

function finished(child: ReturnType<typeof spawn>) {
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stderr })),
  );
}

describe('callbar in scripts', () => {
  let sim: RunningSimulator;
  let env: NodeJS.ProcessEnv;
  let close: () => Promise<void>;
  const contactRequests = async () =>
    (await requestLog(sim)).filter((entry) => entry.path.startsWith('/v3/phonebook/contact'))
      .length;
  beforeAll(async () => {
    ({ sim, env, close } = await signedInCli({ contacts: 40 }));
  });
  afterAll(() => close());
  afterEach(() => control(sim, 'DELETE', 'faults'));

  it.each([
    [['contacts', 'list', '--all']],
    [['contacts', 'list', '--json']],
    [['contacts', 'export']],
    [['phonebooks', 'list']],
    [['calls']],
    [['--help']],
  ])(
    'callbar %j | false: exit 141 (as SIGPIPE), nothing on stderr (before: a stack trace, exit 1)',
    async (args) => {
      const result = await intoClosedPipe(args, env);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(141);
    },
  );

  it('callbar … > /dev/full: one line saying the output is incomplete, exit 1, no stack', async () => {
    for (const args of [
      ['phonebooks', 'list'],
      ['contacts', 'export'],
    ]) {
      const result = await intoFullDisk(args, env);
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stderr).toBe(
        'callbar: The output could not be written (ENOSPC); what was written of it is incomplete.\n',
      );
    }
    const german = await intoFullDisk(['phonebooks', 'list', '--json'], {
      ...env,
      LANG: 'de_DE.UTF-8',
    });
    expect(german.code).toBe(1);
    expect(german.stderr).toBe(
      'callbar: Die Ausgabe ließ sich nicht schreiben (ENOSPC); was davon geschrieben wurde, ist unvollständig.\n',
    );
  });

  it('"not found" (exit 6) is told from "network down" (exit 5) and from a refusal (exit 1)', async () => {
    const missing = await allOutput(callbar(['contacts', 'show', '999999', '--json'], env));
    expect(missing.code).toBe(6);
    expect(JSON.parse(missing.stdout)).toMatchObject({ error: { code: 'not_found' } });
    const noBook = await allOutput(callbar(['phonebooks', 'delete', '999999'], env));
    expect(noBook.code).toBe(6);

    // A phonebook still on a phone: the platform refuses.
    const refused = await allOutput(callbar(['phonebooks', 'delete', '1', '--json'], env));
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toMatchObject({ error: { code: 'phonebook_in_use' } });

    await control(sim, 'POST', 'faults', { path: '/v3/phonebook/contact/', reset: true });
    const down = await allOutput(callbar(['contacts', 'show', '1', '--json'], env));
    expect(down.code).toBe(5);
    expect(JSON.parse(down.stdout)).toMatchObject({ error: { code: 'network' } });
  });

  it('the contacts of a phonebook the platform does not have: "not found", exit 6 (before: 1)', async () => {
    // The platform answers the list's phonebook filter 400 invalid_choice (the simulator, as
    // django-filter does); a script hears what `contacts export --phonebook 999999` says, a 404's.
    for (const all of [[], ['--all']]) {
      const json = await allOutput(
        callbar(['contacts', 'list', '--phonebook', '999999', '--json', ...all], env),
      );
      expect(json.code).toBe(6);
      expect(JSON.parse(json.stdout)).toEqual({
        state: 'connected',
        error: {
          code: 'not_found',
          message:
            'This phonebook does not exist (it may have been deleted), or you may not see it.',
          field: 'phonebook',
        },
      });
    }
    const told = await allOutput(callbar(['contacts', 'list', '--phonebook', '999999'], env));
    expect(told.code).toBe(6);
    expect(told.stderr).toBe(
      'callbar: This phonebook does not exist (it may have been deleted), or you may not see it.\n',
    );
  });

  it.each([
    [['contacts', 'list', '--phonebook', '99999999999999999999'], '--phonebook'],
    [['contacts', 'list', '--phonebook=0'], '--phonebook'],
    [['contacts', 'list', '--page', '0'], '--page'],
    [['phonebooks', 'list', '--page-size', '99999999999999999999'], '--page-size'],
    [['contacts', 'show', '0'], 'The contact id'],
    [['contacts', 'update', '3', '--phonebook=0'], '--phonebook'],
    [['contacts', 'bulk-delete', '3', '99999999999999999999'], 'Every contact id'],
    [['phonebooks', 'show', '99999999999999999999'], 'The phonebook id'],
    [['favourites', 'add', '99999999999999999999'], 'The contact id'],
    [['contacts', 'export', '--phonebook', '99999999999999999999'], '--phonebook'],
  ])(
    'callbar %j: an id or page no platform has is a usage error (exit 2, before: 1 or 6), refused before any request',
    async (args, what) => {
      const before = (await requestLog(sim)).length;
      const result = await allOutput(callbar([...args, '--json'], env));
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      const [line, hint, ...more] = result.stderr.trimEnd().split('\n');
      expect(line).toMatch(
        new RegExp(
          `^callbar: ${what} must be a whole number from 1 to 9007199254740991, not "\\d+"\\.$`,
        ),
      );
      expect(hint).toMatch(/^Run 'callbar help /);
      expect(more).toEqual([]);
      expect((await requestLog(sim)).length).toBe(before);
    },
  );

  it('a number field too large to send exactly (--priority, --speed-dial) is a usage error too (before: zod\'s "Too big", exit 1)', async () => {
    const before = (await requestLog(sim)).length;
    for (const [args, what] of [
      [
        [
          'phonebooks',
          'create',
          '--description',
          'Big',
          '--shared',
          '--priority',
          '99999999999999999999',
        ],
        '--priority',
      ],
      [
        [
          'contacts',
          'create',
          '--phonebook',
          '3',
          '--name',
          'Big',
          '--number',
          '+12025550999',
          '--speed-dial',
          '99999999999999999999',
        ],
        '--speed-dial',
      ],
      // An update says it before it reads the item it changes.
      [['contacts', 'update', '3', '--speed-dial', '99999999999999999999'], '--speed-dial'],
      [['phonebooks', 'update', '3', '--priority', '99999999999999999999'], '--priority'],
    ] as const) {
      const result = await allOutput(callbar([...args], { ...env, LANG: 'de_DE.UTF-8' }));
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr.split('\n')[0]).toBe(
        `callbar: ${what} muss eine ganze Zahl von -9007199254740991 bis 9007199254740991 sein, nicht „99999999999999999999“.`,
      );
    }
    expect((await requestLog(sim)).length).toBe(before);
  });

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    'sync stopped by %s exits %i (before: 1), saying it was cancelled',
    async (signal, code) => {
      await control(sim, 'POST', 'faults', { path: '/v3/phonebook/contact/', delay_ms: 400 });
      const before = await contactRequests();
      const run = callbar(['sync', '--json'], env);
      await until('the sync walks the contacts', async () =>
        (await contactRequests()) > before ? true : undefined,
      );
      run.kill(signal);
      const result = await allOutput(run);
      expect(result.code).toBe(code);
      expect(JSON.parse(result.stdout)).toMatchObject({ error: { code: 'sync_cancelled' } });
    },
  );

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    'export --output stopped by %s: exit %i, the file as it was, no temporary file left',
    async (signal, code) => {
      const folder = mkdtempSync(join(tmpdir(), 'callbar-export-stop-'));
      const file = join(folder, 'contacts.csv');
      writeFileSync(file, 'the export before\n');
      await control(sim, 'POST', 'faults', { path: '/v3/phonebook/contact/', delay_ms: 400 });
      const run = callbar(['contacts', 'export', '--output', file], env);
      // The temporary file beside the target exists once the export is under way.
      await until('the export writes its temporary file', () =>
        readdirSync(folder).some((name) => name.endsWith('.tmp')) ? true : undefined,
      );
      run.kill(signal);
      const result = await allOutput(run);
      expect(result.code).toBe(code);
      expect(result.stderr).not.toMatch(/\n\s+at /);
      expect(readdirSync(folder)).toEqual(['contacts.csv']);
      expect(readFileSync(file, 'utf8')).toBe('the export before\n');
    },
  );

  it('import stopped by SIGTERM exits 143 (before: 130, as for Ctrl+C)', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'callbar-import-stop-'));
    const file = join(folder, 'slow.csv');
    const rows = Array.from({ length: 12 }, (_, i) => `Stop ${i},+120255506${10 + i},${7610 + i}`);
    writeFileSync(file, ['Name,Number,Speed dial', ...rows].join('\n'));
    await control(sim, 'POST', 'faults', {
      method: 'POST',
      path: '/v3/phonebook/contact/',
      match: 'exact',
      delay_ms: 300,
    });
    const posts = async () =>
      (await requestLog(sim)).filter(
        (entry) => entry.method === 'POST' && entry.path === '/v3/phonebook/contact/',
      ).length;
    const before = await posts();
    const run = callbar(['contacts', 'import', file, '--phonebook', '4', '--json'], env);
    await until('a row is sent', async () => ((await posts()) > before ? true : undefined));
    run.kill('SIGTERM');
    const result = await allOutput(run);
    expect(result.code).toBe(143);
    expect(JSON.parse(result.stdout)).toMatchObject({ cancelled: true });
  });
});
