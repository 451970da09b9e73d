/**
 * `callbar sync` and `callbar search`: the local directory on the command line. `sync` walks the
 * platform's phonebooks (a progress bar on a terminal, one JSON object with --json, Ctrl+C
 * cancels and keeps the previous copy); `search` answers from the cached directory alone, and
 * says when it is empty or stale.
 */
import type { DirectoryStatus, SearchHit } from '../../../src-shared/contract';
import type { Contact } from '../../core/api/schemas';
import { CallbarError, describeError } from '../../core/errors';
import type { Directory } from '../../core/directory/directory';
import type { PhonebookEditor } from '../../core/phonebooks/phonebook-editor';
import { terminalField } from '../../core/text/terminal-text';
import { ExitCode } from '../cli-io';
import { defineCommand, UsageError, type CommandContext, type CommandGroup } from '../command';
import { formatTable } from '../table';

const BAR_WIDTH = 24;
const MAX_LIMIT = 500;

function progressLine(status: DirectoryStatus): string {
  const progress = status.progress;
  if (!progress) return 'Syncing the directory…';
  const total = progress.contacts_total ?? 0;
  const share =
    progress.phonebooks_total === 0
      ? 0
      : total > 0 && progress.phonebooks_done < progress.phonebooks_total
        ? Math.min(
            progress.contacts / total,
            (progress.phonebooks_done + 1) / progress.phonebooks_total,
          )
        : progress.phonebooks_done / progress.phonebooks_total;
  const filled = Math.round(share * BAR_WIDTH);
  const bar = '█'.repeat(filled) + '░'.repeat(BAR_WIDTH - filled);
  return `Syncing ${bar} ${progress.phonebooks_done}/${progress.phonebooks_total} phonebooks, ${progress.contacts} contacts`;
}

function hitRows(hits: SearchHit[]): string {
  return formatTable(
    ['NAME', 'COMPANY', 'NUMBER', 'SECONDARY', 'SPEED DIAL', 'PHONEBOOK', 'MATCH'],
    hits.map(({ contact, field, match }) => [
      contact.display_name,
      contact.company,
      contact.number,
      contact.secondary_number,
      contact.speed_dial,
      contact.phonebook_name,
      `${match} (${field.replace('_', ' ')})`,
    ]),
  );
}

/**
 * This computer's copy of the directory (the cache; no sync), for the account whose session the
 * keychain holds: the cache is read only once that account is known (see directory-cache.ts).
 */
export async function openLocalDirectory(ctx: CommandContext): Promise<Directory> {
  const { openDirectory } = await import('../../core/directory/open-directory');
  const profile = await ctx.profile();
  if (!profile.account.owner()) await profile.account.start();
  const directory = openDirectory(profile);
  await directory.load();
  return directory;
}

/**
 * A contact change the platform accepted, applied to this computer's directory at once (so
 * `callbar search` finds it without a sync). A failure here only warns: the platform has it.
 */
export async function updateLocalDirectory(
  ctx: CommandContext,
  change: { upsert: Contact } | { remove: number[] },
): Promise<void> {
  try {
    const directory = await openLocalDirectory(ctx);
    try {
      if ('upsert' in change) await directory.upsertLocal(change.upsert);
      else await directory.removeLocal(change.remove);
    } finally {
      await directory.close();
    }
  } catch (error) {
    ctx.io.err(
      `callbar: the platform has the change, but this computer's directory could not be updated (${terminalField(describeError(error).message)}); \`callbar sync\` brings it up to date.`,
    );
  }
}

/**
 * The one phonebook and contact editing layer (core/phonebooks/phonebook-editor.ts), as the window
 * has it, for a command: contact changes go to this computer's directory through
 * updateLocalDirectory (a failure only warns); a phonebook change waits for `callbar sync`.
 */
export async function cliPhonebookEditor(ctx: CommandContext): Promise<PhonebookEditor> {
  const { PhonebookEditor } = await import('../../core/phonebooks/phonebook-editor');
  const api = await ctx.platform();
  return new PhonebookEditor(api.phonebooks, {
    upsertLocal: (contact) => updateLocalDirectory(ctx, { upsert: contact }),
    removeLocal: (ids) => updateLocalDirectory(ctx, { remove: [...ids] }),
    sync: () => Promise.resolve(),
  });
}

export const directoryCommands: CommandGroup = {
  title: 'Directory (search without the network)',
  commands: [
    defineCommand({
      name: 'sync',
      summary: "Copy every visible phonebook's contacts to this computer",
      help: "Walks every phonebook page by page, under the platform's rate limit. A sync that fails or is cancelled (Ctrl+C) keeps the previous copy.",
      async run(ctx) {
        // The session must be there (exit 3 / 4 otherwise) before anything is walked.
        await ctx.platform();
        const profile = await ctx.profile();
        if (!profile.account.status().tenant_id) {
          throw new CallbarError(
            'not_connected',
            'Callbar is not connected to your phone account.',
          );
        }
        const directory = await openLocalDirectory(ctx);
        const draw =
          !ctx.json && process.stderr.isTTY
            ? (text: string) => process.stderr.write(text)
            : undefined;
        const stopDrawing = directory.onChange((status) =>
          draw?.(`\r${progressLine(status)}\x1b[K`),
        );
        const stopCancelling = ctx.onSignal(() =>
          directory.cancelSync('Cancelled from the command line.'),
        );
        const started = performance.now();
        try {
          const { status, requests } = await directory.sync();
          const seconds = Math.round(performance.now() - started) / 1000;
          draw?.('\r\x1b[K');
          if (ctx.json) ctx.io.out(JSON.stringify({ ...status, requests, seconds }));
          else {
            ctx.io.out(
              `Synced ${status.contacts} contacts from ${status.phonebooks} phonebooks in ${seconds.toFixed(1)} s (${requests} requests).`,
            );
          }
        } catch (error) {
          draw?.('\n');
          throw error;
        } finally {
          stopCancelling();
          stopDrawing();
          await directory.close();
        }
      },
    }),
    defineCommand({
      name: 'search',
      usage: 'QUERY… [--limit N]',
      summary: 'Search the contacts: name, company, digits of a number, speed dial',
      help: 'Answers from the copy on this computer (callbar sync makes it): word prefixes in any order, one typo in a word of 4+ letters, digits anywhere in a number however it is stored.',
      options: { limit: { type: 'string' } },
      args: { name: 'QUERY', min: 1, max: Infinity },
      async run(ctx, { values, args }) {
        const query = args.join(' ').trim();
        if (query === '') {
          throw new UsageError(
            'Give something to search for: a name, a company, digits of a number or a speed dial.',
          );
        }
        if (query.length > 200) throw new UsageError('A search is at most 200 characters.');
        const limit = values.limit === undefined ? 50 : Number(values.limit);
        if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
          throw new UsageError(
            `--limit must be a whole number from 1 to ${MAX_LIMIT}, not "${values.limit}".`,
          );
        }
        // The cache alone: no keychain, no network.
        const directory = await openLocalDirectory(ctx);
        try {
          const status = directory.status();
          const result = directory.search(query, limit);
          if (ctx.json) {
            ctx.io.out(JSON.stringify({ ...result, directory: status }));
            return status.state === 'empty' ? ExitCode.failed : ExitCode.ok;
          }
          if (status.state === 'empty') {
            ctx.io.err(
              'callbar: The directory is empty on this computer. Run `callbar sync` first.',
            );
            return ExitCode.failed;
          }
          if (status.state === 'stale') {
            const minutes = (await ctx.profile()).settings.sync_interval_minutes;
            ctx.io.err(
              `callbar: The directory was last synced at ${status.synced_at ?? 'an unknown time'}, more than ${minutes} minutes ago; run \`callbar sync\` to refresh it.`,
            );
          }
          ctx.io.out(
            result.hits.length === 0
              ? `No contact matches "${terminalField(query)}" (${status.contacts} contacts searched).`
              : `${hitRows(result.hits)}\n\n${
                  result.hits.length === limit
                    ? `The ${limit} best matches for "${terminalField(query)}" (--limit N shows more).`
                    : `${result.hits.length} of ${status.contacts} contacts match "${terminalField(query)}".`
                }`,
          );
          return ExitCode.ok;
        } finally {
          await directory.close();
        }
      },
    }),
  ],
};
