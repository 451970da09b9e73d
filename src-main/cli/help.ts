/** The help texts: the whole CLI, one group (`callbar contacts`), one command; in `t`'s language. */
import { packageInfo } from '../core/package-info';
import type { Translate } from '../core/text/said';
import { commandKey, type CommandSpec } from './command';
import { commandGroups } from './registry';

/** A usage's placeholders (TARGET, FILE…) in `t`'s language (the catalog's `placeholders`). */
export function placeholdersIn(t: Translate, usage: string): string {
  return usage.replace(/\b[A-Z][A-Z_]*\b/g, (name) =>
    t.has(`placeholders.${name}`) ? t(`placeholders.${name}`) : name,
  );
}

const usageLine = (t: Translate, command: CommandSpec) =>
  `callbar ${command.name}${command.usage ? ` ${placeholdersIn(t, command.usage)}` : ''}`;

const summary = (t: Translate, command: CommandSpec) => t(`${commandKey(command)}.summary`);

function listing(t: Translate, commands: CommandSpec[]): string[] {
  return commands.flatMap((command) => {
    const line = `  ${usageLine(t, command).slice('callbar '.length)}`;
    return line.length <= 30
      ? [`${line.padEnd(32)}${summary(t, command)}`]
      : [line, `${' '.repeat(32)}${summary(t, command)}`];
  });
}

export function cliHelp(t: Translate): string {
  return [
    t('help.usage'),
    '',
    t('help.tagline', { version: packageInfo.version }),
    ...commandGroups.flatMap((group) => [
      '',
      `${t(`groups.${group.title}`)}:`,
      ...listing(t, group.commands),
    ]),
    '',
    t('help.options'),
    `  --json                        ${t('help.json')}`,
    `  -h, --help                    ${t('help.help')}`,
    `  -v, --version                 ${t('help.version')}`,
    '',
    t('help.environment'),
    '',
    t('help.exitCodes'),
  ].join('\n');
}

/** `callbar contacts`: the commands whose name starts with that word. */
export function groupHelp(t: Translate, noun: string, commands: CommandSpec[]): string {
  return [t('help.groupUsage', { noun }), '', ...listing(t, commands)].join('\n');
}

export function commandHelp(t: Translate, command: CommandSpec): string {
  const help = `${commandKey(command)}.help`;
  return [
    t('help.commandUsage', { usage: usageLine(t, command) }),
    '',
    `${summary(t, command)}.`,
    ...(t.has(help) ? ['', t(help, command.helpValues?.(t))] : []),
  ].join('\n');
}
