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
import { CallbarError, sayingOf } from '../../core/errors';
import { said, type Translate } from '../../core/text/said';
import { terminalField } from '../../core/text/terminal-text';
import { positiveInteger, requiredId } from '../arguments';
import { ExitCode, type CliIo } from '../cli-io';
import { defineCommand, UsageError, type CommandContext, type CommandGroup } from '../command';
import { tenths } from '../list-output';
import { checkOutputFile, writeOutputFile } from '../output-file';
import { formatTable } from '../table';
import { openLocalDirectory } from './directory-commands';

/** Rows listed on the terminal; --failures saves them all. */
const MAX_LISTED = 50;

function exportFormat(value: string | undefined, output: string | undefined): ExportFormat {
  if (value === undefined) return output && /\.(vcf|vcard)$/i.test(output) ? 'vcard' : 'csv';
  if (value === 'csv' || value === 'vcard') return value;
  throw new UsageError(said('cli:usage.format', { value }));
}

function onDuplicate(value: string | undefined): OnDuplicate {
  if (value === undefined || value === 'skip' || value === 'update') return value ?? 'skip';
  throw new UsageError(said('cli:usage.onDuplicate', { value }));
}

/**
 * `--encoding NAME`: one of `known` (in any case; `utf8`, `cp1250`, `mac-roman` and the like
 * too), else a usage error naming them. Undefined when not given: Callbar finds the encoding.
 */
function chosenEncoding<Name extends string>(
  value: string | undefined,
  known: readonly Name[],
): Name | undefined {
  if (value === undefined) return undefined;
  const name = value
    .trim()
    .toLowerCase()
    .replace(/^(cp|win)-?(125\d)$/, 'windows-$2')
    .replace(/^utf-?(8|16le|16be)$/, 'utf-$1')
    .replace(/^mac(-?roman)?$/, 'macintosh');
  const found = known.find((encoding) => encoding === name);
  if (found === undefined) {
    throw new UsageError(said('cli:usage.encoding', { value, encodings: known.join(', ') }));
  }
  return found;
}

/** `--map field=COLUMN` pairs. */
function mapChanges(values: string[] | undefined): Record<string, string> {
  const changes: Record<string, string> = {};
  for (const pair of values ?? []) {
    const equals = pair.indexOf('=');
    if (equals <= 0) throw new UsageError(said('cli:usage.map', { pair }));
    changes[pair.slice(0, equals).trim()] = pair.slice(equals + 1);
  }
  return changes;
}

/** Writes an export to stdout as the pieces come, waiting while the pipe is full. */
export async function writeStdout(
  io: CliIo,
  chunks: AsyncIterable<string> | Iterable<string>,
): Promise<void> {
  for await (const chunk of chunks) await io.write(chunk);
}

function mappingLine(t: Translate, headers: string[], mapping: ColumnMapping): string {
  return RECORD_FIELDS.map((field) => {
    const index = mapping[field];
    return `${FIELD_HEADINGS[field]} ← ${index === undefined ? t('transfer.none') : `"${terminalField(headers[index])}"`}`;
  }).join(', ');
}

function progressLine(t: Translate, progress: ImportProgress): string {
  const waiting =
    progress.waiting_ms === undefined
      ? ''
      : t('transfer.waiting', { seconds: Math.ceil(progress.waiting_ms / 1000) });
  const { done, total, created, updated, skipped, failed } = progress;
  return t('transfer.progress', { done, total, created, updated, skipped, failed, waiting });
}

function summary(t: Translate, result: ImportResult, seconds: number): string {
  const { created, updated, skipped, failed, not_sent } = result.counts;
  if (result.dry_run) return t('transfer.dryRun', { created, updated, skipped, failed });
  // Rows that failed: the import did not bring the file in, whatever else it did.
  const head = t(
    result.cancelled
      ? 'transfer.cancelled'
      : result.stopped
        ? 'transfer.stopped'
        : failed > 0
          ? 'transfer.incomplete'
          : 'transfer.imported',
  );
  return t('transfer.summary', {
    head,
    phonebook: result.phonebook,
    created,
    updated,
    skipped,
    failed,
    rest: not_sent > 0 ? t('transfer.notSent', { count: not_sent }) : '',
    seconds: tenths(t, seconds),
    requests: result.requests,
  });
}

function rowsTable(t: Translate, result: ImportResult): string {
  // Every row not imported, and the imported ones with something to say (an extension not kept).
  const listed = result.rows.filter(
    (row) => (row.outcome !== 'created' && row.outcome !== 'updated') || row.reason,
  );
  if (listed.length === 0) return '';
  const shown = listed.slice(0, MAX_LISTED);
  const table = formatTable(
    t,
    ['ROW', 'NAME', 'NUMBER', 'OUTCOME', 'REASON'],
    shown.map((row) => [
      row.row,
      row.cells.display_name,
      row.cells.number,
      t(`transfer.outcome.${row.outcome}`),
      row.reason ?? '',
    ]),
  );
  const more =
    listed.length > shown.length
      ? `\n${t('transfer.andMore', { count: listed.length - shown.length })}`
      : '';
  return `\n\n${table}${more}`;
}

async function runExport(
  ctx: CommandContext,
  values: { phonebook?: string; format?: string; output?: string },
): Promise<void> {
  const phonebook = positiveInteger(values.phonebook, '--phonebook');
  const format = exportFormat(values.format, values.output);
  if (values.output === '') throw new UsageError(said('cli:usage.outputFile'));
  const api = await ctx.platform();
  const { exportContacts, ExportIncompleteError } =
    await import('../../core/contacts-io/contact-export');
  let contacts = 0;
  const chunks = exportContacts(api.phonebooks, {
    format,
    // A file is opened by Excel too, which needs the mark to read UTF-8; a pipe gets none.
    byteOrderMark: values.output !== undefined,
    ...(phonebook === undefined ? {} : { phonebook }),
    onContact: () => contacts++,
  });
  if (values.output === undefined) {
    // Standard output keeps what was written before a failure: said, with how far it got.
    let wrote = false;
    try {
      for await (const chunk of chunks) {
        await ctx.io.write(chunk);
        wrote = true;
      }
    } catch (error) {
      if (!wrote) throw error;
      const count = contacts;
      throw new CallbarError(
        error instanceof CallbarError ? error.code : 'export_incomplete',
        error instanceof ExportIncompleteError
          ? said('cli:transfer.exportCutIncomplete', { count, why: error.why })
          : said('cli:transfer.exportCut', { count, why: sayingOf(error) }),
        { cause: error },
      );
    }
    return;
  }
  await writeOutputFile(values.output, chunks);
  const { t } = ctx;
  const what =
    phonebook === undefined
      ? t('transfer.everyPhonebook')
      : t('transfer.phonebook', { id: phonebook });
  if (ctx.json) ctx.io.out(JSON.stringify({ file: values.output, format, contacts }));
  else {
    ctx.io.err(
      t('transfer.exported', { count: contacts, what, file: terminalField(values.output) }),
    );
  }
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
    encoding?: string;
  },
): Promise<number> {
  const phonebook = requiredId(values.phonebook, '--phonebook');
  const duplicates = onDuplicate(values['on-duplicate']);
  const changes = mapChanges(values.map);
  const encodings = await import('../../core/contacts-io/import-encoding');
  const encoding = chosenEncoding(values.encoding, encodings.IMPORT_ENCODINGS);
  const io = await import('../../core/contacts-io/import-file');
  const { adjustMapping, guessMapping } = await import('../../core/contacts-io/column-mapping');
  const { phonebookContacts, planImport } = await import('../../core/contacts-io/import-plan');
  const { dryRun, runImport } = await import('../../core/contacts-io/contact-import');
  // The whole file is read and checked before the platform is asked anything, and where the
  // rows not imported would go.
  const table = await io.readImportFile(file, encoding);
  if (values.failures !== undefined) await checkOutputFile(values.failures);
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
    region: profile.region.current(),
    onDuplicate: duplicates,
    takenSpeedDials,
  });
  const { t } = ctx;
  if (!ctx.json) {
    // Which encoding was read, before anything is sent (a guess of Windows-1252 shows a name).
    const read = t('transfer.read', {
      file: terminalField(file),
      format: table.format === 'vcard' ? 'vCard' : 'CSV',
      encoding: encodings.encodingName(table.encoding),
    });
    const name = plan.rows.find((row) => row.cells.display_name !== '')?.cells.display_name;
    ctx.io.err(
      table.encoding === 'windows-1252' && !table.encodingChosen && name !== undefined
        ? `${read} ${t('transfer.westernHint', { name: terminalField(name) })}`
        : read,
    );
    ctx.io.err(t('transfer.columns', { mapping: mappingLine(t, table.headers, mapping) }));
  }

  const started = performance.now();
  let result: ImportResult;
  if (values['dry-run']) result = dryRun(plan);
  else {
    const abort = new AbortController();
    const stopCancelling = ctx.onSignal(() =>
      abort.abort(new CallbarError('import_cancelled', said('cli:transfer.importCancelled'))),
    );
    const draw = ctx.json ? undefined : ctx.io.progress;
    try {
      result = await runImport(plan, api.phonebooks, {
        signal: abort.signal,
        onProgress: (progress) => draw?.(`\r${progressLine(t, progress)}\x1b[K`),
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
    await writeOutputFile(values.failures, [failuresCsv(result)]);
  }
  if (ctx.json) {
    ctx.io.out(
      JSON.stringify({
        ...result,
        format: table.format,
        encoding: table.encoding,
        mapping,
        seconds: Number(seconds.toFixed(2)),
      }),
    );
  } else {
    ctx.io.out(`${summary(t, result, seconds)}${rowsTable(t, result)}`);
    if (values.failures !== undefined && notImported > 0) {
      ctx.io.err(
        t('transfer.failuresSaved', { count: notImported, file: terminalField(values.failures) }),
      );
    }
    if (!result.dry_run && result.counts.created + result.counts.updated > 0) {
      ctx.io.err(t('transfer.syncHint'));
    }
  }
  if (result.cancelled) return 130;
  return notImported > 0 || result.stopped ? ExitCode.failed : ExitCode.ok;
}

export const contactTransferCommands: CommandGroup = {
  title: 'contactTransfer',
  commands: [
    defineCommand({
      name: 'contacts export',
      usage: '[--phonebook ID] [--format csv|vcard] [--output FILE]',
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
        'FILE --phonebook ID [--dry-run] [--on-duplicate skip|update] [--map FIELD=COLUMN]… [--encoding NAME] [--failures FILE]',
      helpValues: () => ({ fields: RECORD_FIELDS.join(', ') }),
      options: {
        phonebook: { type: 'string' },
        'dry-run': { type: 'boolean' },
        'on-duplicate': { type: 'string' },
        map: { type: 'string', multiple: true },
        encoding: { type: 'string' },
        failures: { type: 'string' },
      },
      args: { name: 'FILE', min: 1 },
      run: (ctx, { values, args }) => runImportCommand(ctx, args[0]!, values),
    }),
  ],
};
