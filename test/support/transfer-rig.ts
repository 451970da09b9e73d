/** Shared set-up of the import/export tests: phonebooks on the simulator, and an import run. */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PlatformApi } from '../../src-main/core/api/platform-api';
import type { Contact, ContactInput } from '../../src-main/core/api/schemas';
import { guessMapping } from '../../src-main/core/contacts-io/column-mapping';
import { dryRun, runImport, type RunOptions } from '../../src-main/core/contacts-io/contact-import';
import { exportContacts, type ExportFormat } from '../../src-main/core/contacts-io/contact-export';
import { readImportFile } from '../../src-main/core/contacts-io/import-file';
import { planImport, type OnDuplicate } from '../../src-main/core/contacts-io/import-plan';

let books = 0;

/** A new phonebook with `contacts` (phonebook filled in). */
export async function phonebookWith(
  api: PlatformApi,
  contacts: Omit<ContactInput, 'phonebook'>[] = [],
): Promise<number> {
  const book = await api.phonebooks.createPhonebook({
    description: `Transfer ${process.pid} ${++books} ${Date.now()}`,
    priority: 1,
    is_shared: false,
  });
  for (const contact of contacts) {
    await api.phonebooks.createContact({ ...contact, phonebook: book.id });
  }
  return book.id;
}

export async function contactsOf(api: PlatformApi, phonebook: number): Promise<Contact[]> {
  const all: Contact[] = [];
  for await (const contact of api.phonebooks.allContacts({ phonebook, page_size: 1000 })) {
    all.push(contact);
  }
  return all;
}

export async function exported(
  api: PlatformApi,
  phonebook: number | undefined,
  format: ExportFormat,
): Promise<string> {
  let text = '';
  for await (const chunk of exportContacts(api.phonebooks, {
    format,
    ...(phonebook === undefined ? {} : { phonebook }),
  })) {
    text += chunk;
  }
  return text;
}

/** `text` as a file named `name` in a fresh folder. */
export async function fileWith(name: string, text: string | Uint8Array): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'callbar-import-')), name);
  await writeFile(file, text);
  return file;
}

/** Reads, plans and (unless dry) runs an import of `file` into `phonebook`, as the CLI does. */
export async function importFile(
  api: PlatformApi,
  file: string,
  phonebook: number,
  options: RunOptions & {
    onDuplicate?: OnDuplicate;
    dry?: boolean;
    takenSpeedDials?: number[];
  } = {},
) {
  const table = await readImportFile(file);
  const plan = planImport(table, guessMapping(table.headers), {
    phonebook,
    existing: await contactsOf(api, phonebook),
    region: 'US',
    onDuplicate: options.onDuplicate ?? 'skip',
    ...(options.takenSpeedDials ? { takenSpeedDials: options.takenSpeedDials } : {}),
  });
  return options.dry ? dryRun(plan) : runImport(plan, api.phonebooks, options);
}
