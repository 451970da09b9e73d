/**
 * `callbar sync` and `callbar search`: the local directory on the command line. `sync` walks the
 * platform's phonebooks (a progress bar on a terminal, one JSON object with --json); `search`
 * answers from the cached directory alone, and says when it is empty or stale.
 */
import type { DirectoryStatus, SearchHit } from '../../../src-preload/contract';
import { openDirectory } from '../../core/directory/open-directory';
import { describeError } from '../../core/errors';
import type { Profile } from '../../core/profile';
import { exitCodeForError, ExitCode, type CliIo } from '../cli-io';
import { formatTable } from '../table';

export interface DirectoryArgs {
  json: boolean;
  args: string[];
  limit?: string | undefined;
  /** Where a progress bar is drawn (a terminal's stderr); none when output is not a terminal. */
  progress?: ((text: string) => void) | undefined;
}

type DirectoryCommand = (profile: Profile, io: CliIo, options: DirectoryArgs) => Promise<number>;

const BAR_WIDTH = 24;

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

function failed(io: CliIo, json: boolean, error: unknown): number {
  const described = describeError(error);
  if (json) io.out(JSON.stringify({ error: described }));
  else io.err(`callbar: ${described.message}`);
  return exitCodeForError(error);
}

const sync: DirectoryCommand = async (profile, io, options) => {
  if (options.args.length > 0) {
    io.err(`callbar: sync takes no arguments, not "${options.args[0]}"`);
    return ExitCode.usage;
  }
  const account = await profile.account.start();
  if (account.state === 'vault-unavailable') {
    io.err(`callbar: ${account.message ?? 'The system keychain is not available.'}`);
    return ExitCode.keychainUnavailable;
  }
  if (!account.tenant_id) {
    io.err(
      'callbar: Not connected. Run `callbar activate` to connect Callbar to your phone account.',
    );
    return ExitCode.notConnected;
  }
  const directory = openDirectory(profile);
  await directory.load();
  const draw = options.json ? undefined : options.progress;
  const stopDrawing = directory.onChange((status) => draw?.(`\r${progressLine(status)}\x1b[K`));
  const cancel = () => directory.cancelSync('Cancelled from the command line.');
  process.once('SIGINT', cancel);
  const started = performance.now();
  try {
    const { status, requests } = await directory.sync();
    const seconds = Math.round(performance.now() - started) / 1000;
    draw?.('\r\x1b[K');
    if (options.json) io.out(JSON.stringify({ ...status, requests, seconds }));
    else {
      io.out(
        `Synced ${status.contacts} contacts from ${status.phonebooks} phonebooks in ${seconds.toFixed(1)} s (${requests} requests).`,
      );
    }
    return ExitCode.ok;
  } catch (error) {
    draw?.('\n');
    return failed(io, options.json, error);
  } finally {
    process.removeListener('SIGINT', cancel);
    stopDrawing();
    await directory.close();
  }
};

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

const search: DirectoryCommand = async (profile, io, options) => {
  const query = options.args.join(' ').trim();
  if (query === '') {
    io.err(
      'callbar: give something to search for: a name, a company, digits of a number or a speed dial.',
    );
    return ExitCode.usage;
  }
  const limit = options.limit === undefined ? 50 : Number(options.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 500) {
    io.err(`callbar: --limit must be a whole number from 1 to 500, not "${options.limit}".`);
    return ExitCode.usage;
  }
  if (query.length > 200) {
    io.err('callbar: a search is at most 200 characters.');
    return ExitCode.usage;
  }
  // The cache alone: no keychain, no network.
  const directory = openDirectory(profile);
  try {
    const status = await directory.load();
    const result = directory.search(query, limit);
    if (options.json) {
      io.out(JSON.stringify({ ...result, directory: status }));
      return status.state === 'empty' ? ExitCode.failed : ExitCode.ok;
    }
    if (status.state === 'empty') {
      io.err('callbar: The directory is empty on this computer. Run `callbar sync` first.');
      return ExitCode.failed;
    }
    if (status.state === 'stale') {
      io.err(
        `callbar: The directory was last synced at ${status.synced_at ?? 'an unknown time'}, more than ${profile.settings.sync_interval_minutes} minutes ago; run \`callbar sync\` to refresh it.`,
      );
    }
    io.out(
      result.hits.length === 0
        ? `No contact matches "${query}" (${status.contacts} contacts searched).`
        : `${hitRows(result.hits)}\n\n${result.hits.length} of ${status.contacts} contacts match "${query}".`,
    );
    return ExitCode.ok;
  } finally {
    await directory.close();
  }
};

export const directoryCommands: Record<string, DirectoryCommand> = { sync, search };
