/**
 * `callbar contacts export` and `callbar contacts import`: a phonebook to and from CSV or vCard.
 * Export streams to stdout (or atomically to --output); import reads and checks the whole file
 * before it asks the platform anything, shows progress on a terminal, stops cleanly on Ctrl+C and
 * lists what happened to every row that was not created (--failures saves them as a CSV).
 */
import type { ColumnMapping } from '../../core/contacts-io/column-mapping';
import type { ImportProgress, ImportResult } from '../../core/contacts-io/contact-import';
import { FIELD_HEADINGS, RECORD_FIELDS } from '../../core/contacts-io/contact-record';
import type { ExportFormat } from '../../core/contacts-io/contact-export';
import type { OnDuplicate } from '../../core/contacts-io/import-plan';
import { CallbarError } from '../../core/errors';
import { terminalField, terminalOutput } from '../../core/text/terminal-text';
import { integer, requiredInteger } from '../arguments';
import { ExitCode } from '../cli-io';
import { defineCommand, UsageError, type CommandContext, type CommandGroup } from '../command';
import { formatTable } from '../table';
import { openLocalDirectory } from './directory-commands';

/** Files Callbar writes hold coworkers' contacts: the owner's only. */
const FILE_MODES = { mode: 0o600, dirMode: 0o700 };
/** Rows listed on the terminal; --failures saves them all. */
const MAX_LISTED = 50;

function exportFormat(value: string | undefined, output: string | undefined): ExportFormat {
  if (value === undefined) return output && /\.(vcf|vcard)$/i.test(output) ? 'vcard' : 'csv';
  if (value === 'csv' || value === 'vcard') return value;
  throw new UsageError(`--format must be csv or vcard, not "${value}".`);
}

function onDuplicate(value: string | undefined): OnDuplicate {
  if (value === undefined || value === 'skip' || value === 'update') return value ?? 'skip';
  throw new UsageError(`--on-duplicate must be skip or update, not "${value}".`);
}

/** `--map field=COLUMN` pairs. */
function mapChanges(values: string[] | undefined): Record<string, string> {
  const changes: Record<string, string> = {};
  for (const pair of values ?? []) {
    const equals = pair.indexOf('=');
    if (equals <= 0) throw new UsageError(`--map takes FIELD=COLUMN, not "${pair}".`);
    changes[pair.slice(0, equals).trim()] = pair.slice(equals + 1);
  }
  return changes;
}

/** Writes to stdout as the pieces come, waiting when the pipe is full. */
/** Writes an export to stdout (controls shown as text on a terminal), waiting for drains. */
export async function writeStdout(chunks: AsyncIterable<string> | Iterable<string>): Promise<void> {
  // A terminal shows controls as text; a pipe or a file gets the bytes as they are.
  const tty = process.stdout.isTTY;
  for await (const chunk of chunks) {
    const text = tty ? terminalOutput(chunk) : chunk;
    if (!process.stdout.write(text)) {
      await new Promise<void>((resolve) => process.stdout.once('drain', resolve));
    }
  }
}

function mappingLine(headers: string[], mapping: ColumnMapping): string {
  return RECORD_FIELDS.map((field) => {
    const index = mapping[field];
    return `${FIELD_HEADINGS[field]} ← ${index === undefined ? '(none)' : `"${terminalField(headers[index])}"`}`;
  }).join(', ');
}

function progressLine(progress: ImportProgress): string {
  const waiting =
    progress.waiting_ms === undefined
      ? ''
      : `, waiting ${Math.ceil(progress.waiting_ms / 1000)} s for the platform's rate limit`;
  return `Importing ${progress.done}/${progress.total} rows: ${progress.created} created, ${progress.updated} updated, ${progress.skipped} skipped, ${progress.failed} failed${waiting}`;
}

function summary(result: ImportResult, seconds: number): string {
  const { created, updated, skipped, failed, not_sent } = result.counts;
  if (result.dry_run) {
    return `Dry run, nothing was sent: ${created} to create, ${updated} to update, ${skipped} to skip, ${failed} that fail.`;
  }
  const head = result.cancelled
    ? 'Import cancelled'
    : result.stopped
      ? 'Import stopped'
      : 'Imported';
  const rest = not_sent > 0 ? `, ${not_sent} not sent` : '';
  return `${head} into phonebook ${result.phonebook}: ${created} created, ${updated} updated, ${skipped} skipped, ${failed} failed${rest} (${seconds.toFixed(1)} s, ${result.requests} requests).`;
}

function rowsTable(result: ImportResult): string {
  // Every row not imported, and the imported ones with something to say (an extension not kept).
  const listed = result.rows.filter(
    (row) => (row.outcome !== 'created' && row.outcome !== 'updated') || row.reason,
  );
  if (listed.length === 0) return '';
  const shown = listed.slice(0, MAX_LISTED);
  const table = formatTable(
    ['ROW', 'NAME', 'NUMBER', 'OUTCOME', 'REASON'],
    shown.map((row) => [
      row.row,
      row.cells.display_name,
      row.cells.number,
      row.outcome.replace('_', ' '),
      row.reason ?? '',
    ]),
  );
  const more =
    listed.length > shown.length
      ? `\n…and ${listed.length - shown.length} more (--failures FILE saves every row not imported).`
      : '';
  return `\n\n${table}${more}`;
}

async function runExport(
  ctx: CommandContext,
  values: { phonebook?: string; format?: string; output?: string },
): Promise<void> {
  const phonebook = integer(values.phonebook, '--phonebook');
  const format = exportFormat(values.format, values.output);
  if (values.output === '') throw new UsageError('--output needs a file name.');
  const api = await ctx.platform();
  const { exportContacts } = await import('../../core/contacts-io/contact-export');
  let contacts = 0;
  const chunks = exportContacts(api.phonebooks, {
    format,
    ...(phonebook === undefined ? {} : { phonebook }),
    onContact: () => contacts++,
  });
  if (values.output === undefined) return writeStdout(chunks);
  const { writeChunksAtomic } = await import('../../core/config/atomic-write');
  await writeChunksAtomic(values.output, chunks, FILE_MODES);
  const what = phonebook === undefined ? 'every phonebook' : `phonebook ${phonebook}`;
  if (ctx.json) ctx.io.out(JSON.stringify({ file: values.output, format, contacts }));
  else ctx.io.err(`Exported ${contacts} contacts of ${what} to ${terminalField(values.output)}.`);
}

async function runImportCommand(
  ctx: CommandContext,
  file: string,
  values: {
    phonebook?: string;
    'dry-run'?: boolean;
    'on-duplicate'?: string;
    map?: string[];
    failures?: string;
  },
): Promise<number> {
  const phonebook = requiredInteger(values.phonebook, '--phonebook');
  const duplicates = onDuplicate(values['on-duplicate']);
  const changes = mapChanges(values.map);
  const io = await import('../../core/contacts-io/import-file');
  const { adjustMapping, guessMapping } = await import('../../core/contacts-io/column-mapping');
  const { phonebookContacts, planImport } = await import('../../core/contacts-io/import-plan');
  const { dryRun, runImport } = await import('../../core/contacts-io/contact-import');
  // The whole file is read and checked before the platform is asked anything.
  const table = await io.readImportFile(file);
  let mapping: ColumnMapping;
  try {
    mapping = adjustMapping(table.headers, guessMapping(table.headers), changes);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const api = await ctx.platform();
  const profile = await ctx.profile();
  const existing = await phonebookContacts(api.phonebooks, phonebook);
  const directory = await openLocalDirectory(ctx);
  const takenSpeedDials = directory.contacts.flatMap((contact) => contact.speed_dial ?? []);
  await directory.close();
  const plan = planImport(table, mapping, {
    phonebook,
    existing,
    region: profile.settings.region,
    onDuplicate: duplicates,
    takenSpeedDials,
  });
  if (!ctx.json) ctx.io.err(`Columns: ${mappingLine(table.headers, mapping)}`);

  const started = performance.now();
  let result: ImportResult;
  if (values['dry-run']) result = dryRun(plan);
  else {
    const abort = new AbortController();
    const stopCancelling = ctx.onSignal(() =>
      abort.abort(new CallbarError('import_cancelled', 'Cancelled from the command line.')),
    );
    const draw =
      !ctx.json && process.stderr.isTTY ? (text: string) => process.stderr.write(text) : undefined;
    try {
      result = await runImport(plan, api.phonebooks, {
        signal: abort.signal,
        onProgress: (progress) => draw?.(`\r${progressLine(progress)}\x1b[K`),
      });
    } finally {
      draw?.('\r\x1b[K');
      stopCancelling();
    }
  }
  const seconds = (performance.now() - started) / 1000;
  const notImported = result.counts.failed + result.counts.not_sent;
  if (values.failures !== undefined && notImported > 0) {
    const { failuresCsv } = await import('../../core/contacts-io/import-report');
    const { writeFileAtomic } = await import('../../core/config/atomic-write');
    await writeFileAtomic(values.failures, failuresCsv(result), FILE_MODES);
  }
  if (ctx.json) {
    ctx.io.out(JSON.stringify({ ...result, mapping, seconds: Number(seconds.toFixed(2)) }));
  } else {
    ctx.io.out(`${summary(result, seconds)}${rowsTable(result)}`);
    if (values.failures !== undefined && notImported > 0) {
      ctx.io.err(`The ${notImported} rows not imported are in ${terminalField(values.failures)}.`);
    }
    if (!result.dry_run && result.counts.created + result.counts.updated > 0) {
      ctx.io.err("`callbar sync` brings this computer's directory up to date.");
    }
  }
  if (result.cancelled) return 130;
  return notImported > 0 || result.stopped ? ExitCode.failed : ExitCode.ok;
}

export const contactTransferCommands: CommandGroup = {
  title: 'Contacts: import and export',
  commands: [
    defineCommand({
      name: 'contacts export',
      usage: '[--phonebook ID] [--format csv|vcard] [--output FILE]',
      summary: 'Export a phonebook (or every phonebook) as CSV or vCard 4.0',
      help: "Writes to stdout, or to FILE (replaced only once the export is complete; readable by you only). The format follows FILE's extension (.vcf: vCard), else CSV. CSV cells that a spreadsheet would run as a formula (starting with = + - @) are written after an apostrophe; import takes it off again.",
      options: {
        phonebook: { type: 'string' },
        format: { type: 'string' },
        output: { type: 'string', short: 'o' },
      },
      run: (ctx, { values }) => runExport(ctx, values),
    }),
    defineCommand({
      name: 'contacts import',
      usage:
        'FILE --phonebook ID [--dry-run] [--on-duplicate skip|update] [--map FIELD=COLUMN]… [--failures FILE]',
      summary: 'Import a CSV or vCard (3.0, 4.0) file into a phonebook',
      help: `Columns are matched to fields by their headings (Name, Number/Phone/Mobile, Secondary number, Speed dial, Company, and their synonyms, in any case); --map changes a match (fields: ${RECORD_FIELDS.join(', ')}; a heading or a column number). Numbers become E.164 with the default region. Every row is checked before anything is sent; a number the phonebook has already is skipped, or updated with --on-duplicate update, so importing a file twice changes nothing. Rows without a speed dial get a free one. --dry-run shows what would happen; Ctrl+C stops after the row being sent. Exit 1 when a row was not imported.`,
      options: {
        phonebook: { type: 'string' },
        'dry-run': { type: 'boolean' },
        'on-duplicate': { type: 'string' },
        map: { type: 'string', multiple: true },
        failures: { type: 'string' },
      },
      args: { name: 'FILE', min: 1 },
      run: (ctx, { values, args }) => runImportCommand(ctx, args[0]!, values),
    }),
  ],
};
