/**
 * What a CLI command is: the words that name it, its options and arguments, a one-line usage, and
 * what it does; its summary and longer help are in the `cli` catalog under
 * `commands.<name, dashed>` (every locale). Each command group is one module exporting a
 * CommandGroup; `registry.ts` lists the groups. Adding a command is one new module and one line
 * there.
 *
 * Command modules stay light at load time (no core/profile, no platform client at the top): the
 * CLI loads every module to find and describe commands, so anything heavy comes through the
 * context (`ctx.profile()`, `ctx.platform()`) or a dynamic import when the command runs.
 */
import type { parseArgs, ParseArgsConfig } from 'node:util';
import type { PlatformApi } from '../core/api/platform-api';
import type { Profile } from '../core/profile';
import { CallbarError } from '../core/errors';
import type { Said, Translate } from '../core/text/said';
import type { CliIo } from './cli-io';

/** Options as node:util's parseArgs takes them. */
export type ParseArgsOptionsConfig = NonNullable<ParseArgsConfig['options']>;

/** The options every command accepts besides its own. */
export const globalOptions = {
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsOptionsConfig;

type Values<O extends ParseArgsOptionsConfig> = ReturnType<
  typeof parseArgs<{ options: O & typeof globalOptions; allowPositionals: true; strict: true }>
>['values'];

/** What a running command gets besides its own input. */
export interface CommandContext {
  io: CliIo;
  json: boolean;
  /** Words the human output in the user's language (`cli` keys); `--json` is never worded. */
  t: Translate;
  /** The profile (settings, logs, account); opened on first use, closed when the command ends. */
  profile(): Promise<Profile>;
  /** The CLI's own entry script (bin/callbar.mjs), when it runs as one. */
  entry: string | undefined;
  /** The platform API of the connected account (fails with exit 4 without a keychain). */
  platform(): Promise<PlatformApi>;
  /**
   * Ctrl+C / SIGTERM / a closed terminal (or stdout's reader gone): by default the CLI ends the
   * command (exit 130 / 143 / 129 / 141) once the session is stored. A command that stops in its
   * own way registers it here for as long as it applies (the returned function removes it); it
   * then ends as it sees fit: when it fails (throws, or a code other than 0), with that exit code.
   */
  onSignal(cancel: () => void): () => void;
}

export interface CommandInput<O extends ParseArgsOptionsConfig> {
  values: Values<O>;
  /** The positional arguments after the command's name. */
  args: string[];
}

export interface CommandSpec<O extends ParseArgsOptionsConfig = ParseArgsOptionsConfig> {
  /** The words that name it: `status`, `contacts list`. */
  name: string;
  /** Its arguments and options as one usage line, without the name: `ID [--name N]`. */
  usage?: string;
  /**
   * The values its help text takes (`commands.<name>.help` in the catalog, shown by
   * `callbar help NAME` under the usage line and the summary).
   */
  helpValues?: (t: Translate) => Record<string, string>;
  options?: O;
  /** Positional arguments: their name in messages, how many (max defaults to min). */
  args?: { name: string; min: number; max?: number };
  /**
   * Runs it; the exit code (ok when nothing is returned). Throws CallbarErrors for failures, a
   * UsageError for bad input: check the input before `ctx.platform()`, so a typo is exit 2 at
   * once, not a keychain or network error first.
   */
  run(ctx: CommandContext, input: CommandInput<O>): Promise<number | void>;
}

/** Commands shown together under one heading in the help; `callbar NOUN` alone shows them. */
export interface CommandGroup {
  /** Its heading's key under `groups.` in the `cli` catalog. */
  title: string;
  commands: CommandSpec[];
}

/** Declares a command, typing its input from its options. */
export function defineCommand<const O extends ParseArgsOptionsConfig = Record<never, never>>(
  spec: CommandSpec<O>,
): CommandSpec {
  return spec as unknown as CommandSpec;
}

/** A mistake in how the command was typed: printed with a pointer to the command's help, exit 2. */
export class UsageError extends CallbarError {
  constructor(message: string | Said) {
    super('usage', message);
    this.name = 'UsageError';
  }
}

/** A command's keys in the `cli` catalog: `contacts list` → `commands.contacts-list`. */
export function commandKey(command: Pick<CommandSpec, 'name'>): string {
  return `commands.${command.name.replaceAll(' ', '-')}`;
}
