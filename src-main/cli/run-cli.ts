/**
 * The `callbar` command line: the same core as the desktop app, under plain Node.
 */
import { parseArgs } from 'node:util';
import { packageInfo } from '../core/package-info';
import { openProfile, type Profile } from '../core/profile';
import { describeError } from '../core/errors';
import { exitCodeForError, ExitCode, processIo, type CliIo } from './cli-io';
import { createPlatformApi } from '../core/api/platform-api';
import { activate, deactivateLocal, status } from './commands/account-commands';
import { platformCommands, runPlatformCommand } from './commands/platform-commands';
import { directoryCommands } from './commands/directory-commands';
import { openDirectory } from '../core/directory/open-directory';

const HELP = `Usage: callbar [options] <command>

Callbar ${packageInfo.version}: click-to-dial for your business phone.

Commands:
  activate [--no-browser] [--timeout SECONDS] [--tenant-param NAME=VALUE]…
                      Connect Callbar to your phone account through the portal
  status              Show whether Callbar is connected, and as whom
  deactivate-local    Forget the session on this computer

  phonebooks list [--search S] [--ordering F] [--page N] [--page-size N] [--all]
  phonebooks show ID
  phonebooks create --description D --priority N --shared|--no-shared [--owner ID]…
  phonebooks update ID [--description D] [--priority N] [--shared|--no-shared] [--owner ID]…
  phonebooks delete ID
  contacts list [--phonebook ID] [--search S] [--ordering F] [--page N] [--page-size N] [--all]
  contacts show ID
  contacts create --phonebook ID --name N --number X --speed-dial N [--secondary X] [--company C]
  contacts update ID [--phonebook ID] [--name N] [--number X] [--speed-dial N] [--secondary X] [--company C]
  contacts delete ID
  contacts bulk-delete ID…      (all or nothing)
  sync                          Copy every visible phonebook's contacts to this computer
  search QUERY [--limit N]      Search them: name, company, digits of a number, speed dial
  dial DESTINATION              Ring your phone, then the destination
  hangup CALL_LEG_ID

Options:
  --json              Machine-readable output (one JSON object per line)
  -h, --help          Show this help
  -v, --version       Print the version

Environment: CALLBAR_DATA_DIR, CALLBAR_BASE_URL, CALLBAR_PORTAL_URL, CALLBAR_SLUG,
CALLBAR_CLIENT_ID, CALLBAR_CLIENT_SECRET, CALLBAR_RECEIVER_PORT, CALLBAR_REGION (see README).

Exit codes: 0 ok, 1 failed, 2 usage, 3 not connected, 4 keychain unavailable,
5 platform unreachable.
`;

export async function runCli(argv: string[], io: CliIo = processIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
        json: { type: 'boolean', default: false },
        browser: { type: 'boolean', default: true },
        timeout: { type: 'string' },
        'tenant-param': { type: 'string', multiple: true },
        search: { type: 'string' },
        ordering: { type: 'string' },
        page: { type: 'string' },
        'page-size': { type: 'string' },
        all: { type: 'boolean' },
        phonebook: { type: 'string' },
        description: { type: 'string' },
        priority: { type: 'string' },
        shared: { type: 'boolean' },
        owner: { type: 'string', multiple: true },
        name: { type: 'string' },
        number: { type: 'string' },
        secondary: { type: 'string' },
        'speed-dial': { type: 'string' },
        company: { type: 'string' },
        limit: { type: 'string' },
      },
      allowPositionals: true,
      allowNegative: true,
    });
  } catch (error) {
    io.err(`callbar: ${(error as Error).message}\n\n${HELP}`);
    return ExitCode.usage;
  }
  const { values, positionals } = parsed;
  if (values.version) {
    io.out(packageInfo.version);
    return ExitCode.ok;
  }
  const [command, ...rest] = positionals;
  if (values.help || command === undefined) {
    io.out(HELP);
    return ExitCode.ok;
  }
  const directoryCommand = directoryCommands[command];
  if (directoryCommand) {
    const progress = process.stderr.isTTY
      ? (text: string) => process.stderr.write(text)
      : undefined;
    return withProfile(io, (profile) =>
      directoryCommand(profile, io, {
        json: values.json,
        args: rest,
        limit: values.limit,
        progress,
      }),
    );
  }
  // `dial` and `hangup` are one word; the others are a noun and a verb.
  const oneWord = command === 'dial' || command === 'hangup';
  const platformCommand = platformCommands[oneWord ? command : `${command} ${rest[0]}`];
  if (platformCommand) {
    const args = oneWord ? rest : rest.slice(1);
    return withProfile(io, async (profile) => {
      const account = await profile.account.start();
      if (account.state === 'vault-unavailable') {
        io.err(`callbar: ${account.message ?? 'The system keychain is not available.'}`);
        return ExitCode.keychainUnavailable;
      }
      const api = createPlatformApi({
        baseUrl: profile.settings.base_url,
        tokens: profile.account.tokens,
        log: profile.log,
      });
      const directory = openDirectory(profile, api.phonebooks);
      const loaded = () => directory.load().then(() => directory);
      try {
        return await runPlatformCommand(platformCommand, api, io, { ...values, args }, loaded);
      } finally {
        await directory.close();
      }
    });
  }
  if (rest.length > 0) {
    io.err(`callbar: unexpected argument "${rest[0]}"\n\n${HELP}`);
    return ExitCode.usage;
  }
  const timeout = values.timeout === undefined ? undefined : Number(values.timeout);
  if (timeout !== undefined && !(timeout > 0)) {
    io.err('callbar: --timeout must be a positive number of seconds');
    return ExitCode.usage;
  }
  const tenantParams: Record<string, string> = {};
  for (const pair of values['tenant-param'] ?? []) {
    const eq = pair.indexOf('=');
    if (eq <= 0) {
      io.err(`callbar: --tenant-param takes NAME=VALUE, not "${pair}"`);
      return ExitCode.usage;
    }
    tenantParams[pair.slice(0, eq)] = pair.slice(eq + 1);
  }

  const commands: Record<string, (profile: Profile) => Promise<number>> = {
    activate: (profile) =>
      activate(profile, io, {
        json: values.json,
        browser: values.browser,
        timeoutSeconds: timeout,
        tenantParams,
      }),
    status: (profile) => status(profile, io, values.json),
    'deactivate-local': (profile) => deactivateLocal(profile, io, values.json),
  };
  const run = commands[command];
  if (!run) {
    io.err(`callbar: unknown command "${command}"\n\n${HELP}`);
    return ExitCode.usage;
  }
  return withProfile(io, run);
}

async function withProfile(io: CliIo, run: (profile: Profile) => Promise<number>): Promise<number> {
  let profile: Profile;
  try {
    profile = openProfile();
  } catch (error) {
    io.err(`callbar: ${describeError(error).message}`);
    return exitCodeForError(error);
  }
  try {
    return await run(profile);
  } finally {
    await profile.close();
  }
}
