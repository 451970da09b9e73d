/**
 * The `callbar` command line: the same core as the desktop app, under plain Node.
 */
import { parseArgs } from 'node:util';
import { packageInfo } from '../core/package-info';
import { openProfile, type Profile } from '../core/profile';
import { describeError, exitCodeForError, ExitCode, processIo, type CliIo } from './cli-io';
import { activate, deactivateLocal, status } from './commands/account-commands';

const HELP = `Usage: callbar [options] <command>

Callbar ${packageInfo.version}: click-to-dial for your business phone.

Commands:
  activate [--no-browser] [--timeout SECONDS] [--tenant-param NAME=VALUE]…
                      Connect Callbar to your phone account through the portal
  status              Show whether Callbar is connected, and as whom
  deactivate-local    Forget the session on this computer

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
  let profile: Profile;
  try {
    profile = openProfile();
  } catch (error) {
    const described = describeError(error);
    io.err(`callbar: ${described.message}`);
    return exitCodeForError(error);
  }
  try {
    return await run(profile);
  } finally {
    await profile.close();
  }
}
