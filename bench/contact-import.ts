/**
 * Importing 5,000 rows from a CSV into an empty phonebook of the simulator, under the rich and
 * the minimal profile. The rows are national US numbers in mixed formats; half give a free speed
 * dial, half leave it to Callbar, which is not told the tenant's codes here (the platform's
 * refusals are counted). Figures: requests, refused speed dials, 429s, duplicates on the platform
 * afterwards (must be 0), and a second import of the same file (must send no write). Callbar paces
 * writes at the sync's 100 a minute, so 5,000 rows take 50 minutes of the platform's time: the
 * simulator's clock is moved forward instead of waited for (its rate limits follow it), and both
 * times are printed.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type SimProfile } from '../simulator/index';
import type { Clock } from '../src-main/core/clock';
import { guessMapping } from '../src-main/core/contacts-io/column-mapping';
import { runImport } from '../src-main/core/contacts-io/contact-import';
import { readImportFile } from '../src-main/core/contacts-io/import-file';
import { planImport } from '../src-main/core/contacts-io/import-plan';
import type { PlatformApi } from '../src-main/core/api/platform-api';
import type { Contact } from '../src-main/core/api/schemas';
import { signedInApi } from './signed-in-api';

export interface ImportFigures {
  rows: number;
  created: number;
  failed: number;
  /** Write requests (each row once, plus speed dials the platform refused and 429s). */
  requests: number;
  speed_dial_refusals: number;
  throttled: number;
  duplicates: number;
  wall_seconds: number;
  platform_minutes: number;
  /** The same file again: rows skipped, write requests sent. */
  reimport: { skipped: number; writes: number; wall_seconds: number };
}

/** The simulator's clock as Callbar's: a wait moves it forward instead of passing. */
function simulatorClock(baseUrl: string): Clock & { skippedMs: () => number } {
  let offset = 0;
  return {
    now: () => Date.now() + offset,
    async sleep(ms) {
      offset += ms;
      await fetch(`${baseUrl}/__sim/clock/advance`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ seconds: ms / 1000 }),
      });
    },
    skippedMs: () => offset,
  };
}

/** The file: its given speed dials are free ones (`held` are the tenant's contacts' codes). */
function rowsCsv(rows: number, held: ReadonlySet<number>): string {
  const lines = ['Full name,Mobile,Company,Speed dial'];
  let code = 3000;
  for (let i = 0; i < rows; i++) {
    const line = String(i).padStart(4, '0');
    const number = i % 2 === 0 ? `(212) 550-${line}` : `212.550.${line}`;
    while (held.has(code)) code++;
    const speedDial = i % 2 === 0 ? '' : String(code++);
    lines.push(`Person ${i},${number},Company ${i % 97},${speedDial}`);
  }
  return `${lines.join('\n')}\n`;
}

async function contactsOf(api: PlatformApi, phonebook: number): Promise<Contact[]> {
  const all: Contact[] = [];
  for await (const contact of api.phonebooks.allContacts({ phonebook, page_size: 1000 })) {
    all.push(contact);
  }
  return all;
}

async function importOnce(profile: SimProfile, rows: number): Promise<ImportFigures> {
  const sim = await startSimulator({ profile, contacts: 200, autoAnswer: false });
  const folder = await mkdtemp(join(tmpdir(), 'callbar-bench-import-'));
  try {
    const file = join(folder, 'people.csv');
    const api = await signedInApi(sim);
    const held = new Set<number>();
    for await (const contact of api.phonebooks.allContacts({ page_size: 1000 })) {
      if (contact.speed_dial) held.add(contact.speed_dial);
    }
    await writeFile(file, rowsCsv(rows, held));
    const book = await api.phonebooks.createPhonebook({
      description: 'Imported',
      priority: 1,
      is_shared: false,
    });
    const clock = simulatorClock(sim.base_url);
    const run = async () => {
      const table = await readImportFile(file);
      const plan = planImport(table, guessMapping(table.headers), {
        phonebook: book.id,
        existing: await contactsOf(api, book.id),
        region: 'US',
        onDuplicate: 'skip',
      });
      return runImport(plan, api.phonebooks, { clock });
    };
    const log = async () =>
      (await (await fetch(`${sim.base_url}/__sim/requests`)).json()) as {
        method: string;
        path: string;
        status: number | null;
      }[];

    let started = performance.now();
    const result = await run();
    const wall = (performance.now() - started) / 1000;
    const writes = (await log()).filter(
      (entry) => entry.method === 'POST' && entry.path === '/v3/phonebook/contact/',
    );
    const contacts = await contactsOf(api, book.id);
    const numbers = new Set(contacts.map((contact) => contact.number));
    const codes = new Set(contacts.map((contact) => contact.speed_dial));

    started = performance.now();
    const again = await run();
    const againWall = (performance.now() - started) / 1000;
    const againWrites =
      (await log()).filter(
        (entry) => entry.method === 'POST' && entry.path === '/v3/phonebook/contact/',
      ).length - writes.length;
    return {
      rows,
      created: result.counts.created,
      failed: result.counts.failed,
      requests: result.requests,
      speed_dial_refusals: writes.filter((entry) => entry.status === 400).length,
      throttled: writes.filter((entry) => entry.status === 429).length,
      duplicates: contacts.length - numbers.size + (contacts.length - codes.size),
      wall_seconds: Number(wall.toFixed(1)),
      platform_minutes: Number((clock.skippedMs() / 60_000 + wall / 60).toFixed(1)),
      reimport: {
        skipped: again.counts.skipped,
        writes: againWrites,
        wall_seconds: Number(againWall.toFixed(1)),
      },
    };
  } finally {
    await sim.close();
    await rm(folder, { recursive: true, force: true });
  }
}

export async function contactImport(rows = 5000): Promise<Record<string, ImportFigures>> {
  console.log(
    `${rows} CSV rows into an empty phonebook (tenant of 200 contacts), paced at 100 writes a minute`,
  );
  console.log(
    'profile   created  failed  requests  sd-refused  429s  duplicates  wall s  platform min  re-import: skipped writes wall s',
  );
  const figures: Record<string, ImportFigures> = {};
  for (const profile of ['rich', 'minimal'] as const) {
    const f = await importOnce(profile, rows);
    figures[profile] = f;
    console.log(
      `${profile.padEnd(8)} ${String(f.created).padStart(8)} ${String(f.failed).padStart(7)} ${String(f.requests).padStart(9)} ${String(f.speed_dial_refusals).padStart(11)} ${String(f.throttled).padStart(5)} ${String(f.duplicates).padStart(11)} ${f.wall_seconds.toFixed(1).padStart(7)} ${f.platform_minutes.toFixed(1).padStart(13)} ${String(f.reimport.skipped).padStart(19)} ${String(f.reimport.writes).padStart(6)} ${f.reimport.wall_seconds.toFixed(1).padStart(6)}`,
    );
  }
  return figures;
}
