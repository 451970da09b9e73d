/**
 * The `callbar` command line: the same core as the desktop app, under plain Node.
 */
import { parseArgs } from 'node:util';
import { packageInfo } from '../core/package-info';

const HELP = `Usage: callbar [options] <command>

Callbar ${packageInfo.version}: click-to-dial for your business phone.

Options:
  -h, --help       Show this help
  -v, --version    Print the version

Commands arrive with the account, directory and calls features.
`;

export function runCli(argv: string[]): Promise<number> | number {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
      allowPositionals: true,
    });
  } catch (error) {
    process.stderr.write(`callbar: ${(error as Error).message}\n\n${HELP}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.version) {
    process.stdout.write(`${packageInfo.version}\n`);
    return 0;
  }
  if (values.help || positionals.length === 0) {
    process.stdout.write(HELP);
    return 0;
  }
  process.stderr.write(`callbar: unknown command "${positionals[0]}"\n\n${HELP}`);
  return 2;
}
