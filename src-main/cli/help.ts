/** The help texts: the whole CLI, one group (`callbar contacts`), one command. */
import { packageInfo } from '../core/package-info';
import type { CommandSpec } from './command';
import { commandGroups } from './registry';

const usageLine = (command: CommandSpec) =>
  `callbar ${command.name}${command.usage ? ` ${command.usage}` : ''}`;

function listing(commands: CommandSpec[]): string[] {
  return commands.flatMap((command) => {
    const line = `  ${usageLine(command).slice('callbar '.length)}`;
    return line.length <= 30
      ? [`${line.padEnd(32)}${command.summary}`]
      : [line, `${' '.repeat(32)}${command.summary}`];
  });
}

export function cliHelp(): string {
  return [
    'Usage: callbar COMMAND [ARGUMENTS] [--json]',
    '',
    `Callbar ${packageInfo.version}: click-to-dial for your business phone.`,
    ...commandGroups.flatMap((group) => ['', `${group.title}:`, ...listing(group.commands)]),
    '',
    'Options:',
    '  --json                        Machine-readable output (one JSON object per line)',
    '  -h, --help                    Show this help (`callbar help COMMAND`: one command’s)',
    '  -v, --version                 Print the version',
    '',
    'Environment: CALLBAR_DATA_DIR, CALLBAR_BASE_URL, CALLBAR_PORTAL_URL, CALLBAR_SLUG,',
    'CALLBAR_CLIENT_ID, CALLBAR_CLIENT_SECRET, CALLBAR_RECEIVER_PORT, CALLBAR_REGION (see docs/configuration.md).',
    '',
    'Exit codes: 0 ok, 1 failed, 2 usage, 3 not connected, 4 keychain unavailable,',
    '5 platform unreachable; 130 Ctrl+C, 143 SIGTERM, 129 terminal closed (after the session',
    'being renewed, if any, is stored; Ctrl+C twice quits at once).',
  ].join('\n');
}

/** `callbar contacts`: the commands whose name starts with that word. */
export function groupHelp(noun: string, commands: CommandSpec[]): string {
  return [`Usage: callbar ${noun} COMMAND [ARGUMENTS] [--json]`, '', ...listing(commands)].join(
    '\n',
  );
}

export function commandHelp(command: CommandSpec): string {
  return [
    `Usage: ${usageLine(command)} [--json]`,
    '',
    `${command.summary}.`,
    ...(command.help ? ['', command.help] : []),
  ].join('\n');
}
