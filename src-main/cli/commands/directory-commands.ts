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
import { said, type Translate } from '../../core/text/said';
import type { PhonebookEditor } from '../../core/phonebooks/phonebook-editor';
import { terminalField } from '../../core/text/terminal-text';
import { ExitCode } from '../cli-io';
import { defineCommand, UsageError, type CommandContext, type CommandGroup } from '../command';
import { tenths } from '../list-output';
import { formatTable } from '../table';

const BAR_WIDTH = 24;
const MAX_LIMIT = 500;

function progressLine(t: Translate, status: DirectoryStatus): string {
  const progress = status.progress;
  if (!progress) return t('directory.syncing');
  // Every contact is in; the sync asks whether the platform's list moved under it.
  if (progress.checking) return t('directory.checking', { contacts: progress.contacts });
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
  return t('directory.progress', {
    bar,
    done: progress.phonebooks_done,
    total: progress.phonebooks_total,
    contacts: progress.contacts,
  });
}

function hitRows(t: Translate, hits: SearchHit[]): string {
  return formatTable(
    t,
    ['NAME', 'COMPANY', 'NUMBER', 'SECONDARY', 'SPEED DIAL', 'PHONEBOOK', 'MATCH'],
    // The numbers as core shows them (--json has them as stored too).
    hits.map(({ contact, field, match, shown }) => [
      contact.display_name,
      contact.company,
      shown.number,
      shown.secondary_number,
      contact.speed_dial,
      contact.phonebook_name,
      t('directory.match', {
        match: t(`directory.matchKind.${match}`),
        field: t(`directory.field.${field}`),
      }),
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
      ctx.t('errors.directoryNotUpdated', {
        message: terminalField(describeError(error, ctx.t).message),
      }),
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
  const profile = await ctx.profile();
  return new PhonebookEditor(
    api.phonebooks,
    {
      upsertLocal: (contact) => updateLocalDirectory(ctx, { upsert: contact }),
      removeLocal: (ids) => updateLocalDirectory(ctx, { remove: [...ids] }),
      sync: () => Promise.resolve(),
    },
    () => profile.region.current(),
  );
}

export const directoryCommands: CommandGroup = {
  title: 'directory',
  commands: [
    defineCommand({
      name: 'sync',
      async run(ctx) {
        // The session must be there (exit 3 / 4 otherwise) before anything is walked.
        await ctx.platform();
        const profile = await ctx.profile();
        if (!profile.account.status().tenant_id) {
          throw new CallbarError('not_connected', said('cli:errors.notConnected'));
        }
        const directory = await openLocalDirectory(ctx);
        const draw = ctx.json ? undefined : ctx.io.progress;
        const stopDrawing = directory.onChange((status) =>
          draw?.(`\r${progressLine(ctx.t, status)}\x1b[K`),
        );
        const stopCancelling = ctx.onSignal(() =>
          directory.cancelSync(said('cli:directory.cancelled')),
        );
        const started = performance.now();
        try {
          const { status, requests } = await directory.sync();
          const seconds = Math.round(performance.now() - started) / 1000;
          draw?.('\r\x1b[K');
          if (ctx.json) ctx.io.out(JSON.stringify({ ...status, requests, seconds }));
          else {
            ctx.io.out(
              ctx.t('directory.synced', {
                contacts: status.contacts,
                phonebooks: status.phonebooks,
                seconds: tenths(ctx.t, seconds),
                requests,
              }),
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
      options: { limit: { type: 'string' } },
      args: { name: 'QUERY', min: 1, max: Infinity },
      async run(ctx, { values, args }) {
        const query = args.join(' ').trim();
        if (query === '') {
          throw new UsageError(said('cli:usage.searchEmpty'));
        }
        if (query.length > 200) throw new UsageError(said('cli:usage.searchTooLong'));
        const limit = values.limit === undefined ? 50 : Number(values.limit);
        if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
          throw new UsageError(
            said('cli:usage.limit', { max: MAX_LIMIT, value: values.limit ?? '' }),
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
            ctx.io.err(ctx.t('directory.empty'));
            return ExitCode.failed;
          }
          if (status.state === 'stale') {
            const minutes = (await ctx.profile()).settings.sync_interval_minutes;
            ctx.io.err(
              ctx.t('directory.stale', {
                syncedAt: status.synced_at ?? ctx.t('directory.unknownTime'),
                minutes,
              }),
            );
          }
          const { t } = ctx;
          const shown = terminalField(query);
          ctx.io.out(
            result.hits.length === 0
              ? t('directory.noMatch', { query: shown, contacts: status.contacts })
              : `${hitRows(t, result.hits)}\n\n${
                  result.hits.length === limit
                    ? t('directory.best', { limit, query: shown })
                    : t('directory.matches', {
                        count: result.hits.length,
                        contacts: status.contacts,
                        query: shown,
                      })
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
