/**
 * The `callbar` command line: the same core as the desktop app, under plain Node. Finds the
 * command in the registry, parses its options, runs it with a context that opens the profile
 * only when needed, and turns every failure into one clear message and a documented exit code.
 */
import { parseArgs } from 'node:util';
import type { Policies } from '../core/config/policy/policies';
import { mayHavePolicies } from '../core/config/policy/policy-location';
import type { Profile } from '../core/profile';
import { CallbarError, describeError } from '../core/errors';
import { packageInfo } from '../core/package-info';
import { handleStopSignals, type StopSignals } from '../core/stop-signals';
import { said, type Translate } from '../core/text/said';
import { cliTranslator } from './cli-locale';
import { ExitCode, processIo, terminalIo, type CliIo } from './cli-io';
import { globalOptions, UsageError, type CommandContext, type CommandSpec } from './command';
import { lookupCommand } from './command-lookup';
import { closestName } from './did-you-mean';
import { reportError } from './error-report';
import { cliHelp, commandHelp, groupHelp } from './help';
import { allCommands } from './registry';
import { watchProcessOutput, type OutputWatch } from './output-loss';
import { translatorFor } from '../core/text/translators';

const leadingFlags = new Set(['--json', '-h', '--help', '-v', '--version']);

/**
 * What the CLI runs in. The bin's own process ({@link processHost}): its streams, environment
 * and entry script, and Ctrl+C / SIGTERM / SIGHUP are the CLI's to handle. A test may run the
 * CLI inside its own process with an environment and outputs of its own and no signals.
 */
export interface CliHost {
  io: CliIo;
  env: NodeJS.ProcessEnv;
  /** The script that runs the CLI (the browser's launcher runs it again). */
  entry: string | undefined;
  /** Whether the process's stop signals end the command (only in a process of its own). */
  signals: boolean;
}

export const processHost: CliHost = {
  io: processIo,
  env: process.env,
  entry: process.argv[1],
  signals: true,
};

/** Runs `callbar ARGV` to its end; the exit code. */
export async function runCli(argv: string[], host: CliHost = processHost): Promise<number> {
  // Everything printed shows control and bidi characters as text, whichever command prints it.
  const io = terminalIo(host.io);
  // The people's language once it is known (a lost output may come before).
  let t: Translate | undefined;
  // A stdout whose reader went away or that cannot take more ends the command, never with a stack.
  const output = host.signals
    ? watchProcessOutput((code) =>
        io.err((t ?? translatorFor('en', 'cli'))('errors.outputFailed', { code })),
      )
    : undefined;
  const code = await runCliWith(argv, { ...host, io }, output, (words) => (t = words));
  return output?.lostWith ?? code;
}

async function runCliWith(
  argv: string[],
  host: CliHost,
  output: OutputWatch | undefined,
  speak: (t: Translate) => Translate,
): Promise<number> {
  const { env, io } = host;
  // Global flags may come before the command; the command's words come next.
  let start = 0;
  while (start < argv.length && leadingFlags.has(argv[start]!)) start++;
  const leading = argv.slice(0, start);
  const afterFlags = argv.slice(start);
  const firstOption = afterFlags.findIndex((word) => word.startsWith('-'));
  const words = firstOption === -1 ? afterFlags : afterFlags.slice(0, firstOption);
  if (leading.includes('-v') || leading.includes('--version')) {
    io.out(packageInfo.version);
    return ExitCode.ok;
  }
  // The machine's policies, read once: they may lock the language, and the profile applies them.
  const policies = await readMachinePolicies(env);
  // People read the language of the `language` setting (a locked policy first), else of
  // LC_ALL / LC_MESSAGES / LANG.
  const t = speak(cliTranslator(env, policies));
  if (words[0] === 'help') return showHelp(io, t, words.slice(1));
  if (words.length === 0) {
    if (argv.length > start) {
      return usageFailure(
        io,
        t,
        new UsageError(said('cli:usage.unknownOption', { option: argv[start]! })),
      );
    }
    io.out(cliHelp(t));
    return ExitCode.ok;
  }

  let command: CommandSpec;
  let wordCount: number;
  try {
    const found = lookupCommand(allCommands, words);
    if (found.kind === 'group') {
      io.out(groupHelp(t, found.noun, found.commands));
      return ExitCode.ok;
    }
    ({ command, wordCount } = found);
  } catch (error) {
    return usageFailure(io, t, error as UsageError);
  }

  const rest = [...leading, ...argv.slice(start + wordCount)];
  let input;
  try {
    input = parseCommandLine(command, rest);
  } catch (error) {
    return usageFailure(io, t, error as UsageError, command);
  }
  if (input.values.help) {
    io.out(commandHelp(t, command));
    return ExitCode.ok;
  }
  return runCommand(command, input, host, t, policies, output);
}

/**
 * The machine's policies, or undefined when it has no policy source at all (then neither help
 * nor a command loads the policy readers). Never throws: what cannot be read is a problem the
 * profile reports.
 */
async function readMachinePolicies(env: NodeJS.ProcessEnv): Promise<Policies | undefined> {
  if (!mayHavePolicies({ env })) return undefined;
  const { readPolicies } = await import('../core/config/policy/policies');
  // On Windows the registry is read without blocking.
  return readPolicies({ env });
}

function parseCommandLine(command: CommandSpec, args: string[]) {
  const options = { ...command.options, ...globalOptions };
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options,
      allowPositionals: true,
      allowNegative: true,
      strict: true,
    });
  } catch (error) {
    throw usageOfParseError(error, Object.keys(options));
  }
  const values = parsed.values as Record<string, unknown> & { json?: boolean; help?: boolean };
  if (values.help) return { values, args: parsed.positionals };
  const { min = 0, max = min, name = '' } = command.args ?? {};
  if (parsed.positionals.length < min) {
    throw new UsageError(
      said('cli:usage.needsArguments', {
        command: command.name,
        // The placeholder in the reader's language, as the usage line shows it (TARGET: ZIEL).
        name: said(`cli:placeholders.${name}`),
      }),
    );
  }
  if (parsed.positionals.length > max) {
    const extra = parsed.positionals[max]!;
    throw new UsageError(said('cli:usage.unexpectedArgument', { extra, command: command.name }));
  }
  return { values, args: parsed.positionals };
}

/** node:util's parse errors, shortened to what the user typed wrong. */
function usageOfParseError(error: unknown, known: string[]): UsageError {
  const message = (error as Error).message;
  const code = (error as { code?: string }).code;
  // The option as the help names it: node writes one with a short form as '-o, --output <value>'.
  const option = /'(?:-[^-' ], )?(-[^' ]+)/.exec(message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) {
    const suggestion = closestName(option.replace(/^-+/, ''), known);
    return new UsageError(
      suggestion
        ? said('cli:usage.unknownOptionSuggest', { option, suggestion })
        : said('cli:usage.unknownOption', { option }),
    );
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option) {
    if (message.includes('does not take an argument')) {
      return new UsageError(said('cli:usage.takesNoValue', { option }));
    }
    if (message.includes('ambiguous')) {
      return new UsageError(said('cli:usage.needsDashValue', { option }));
    }
    return new UsageError(said('cli:usage.needsValue', { option }));
  }
  return new UsageError(message.split('\n')[0]!);
}

function showHelp(io: CliIo, t: Translate, words: string[]): number {
  if (words.length === 0) {
    io.out(cliHelp(t));
    return ExitCode.ok;
  }
  try {
    const found = lookupCommand(allCommands, words);
    io.out(
      found.kind === 'group'
        ? groupHelp(t, found.noun, found.commands)
        : commandHelp(t, found.command),
    );
    return ExitCode.ok;
  } catch (error) {
    return usageFailure(io, t, error as UsageError);
  }
}

/** One line saying what is wrong, one saying where to read more; exit 2. */
function usageFailure(io: CliIo, t: Translate, error: UsageError, command?: CommandSpec): number {
  io.err(t('errors.line', { message: describeError(error, t).message }));
  io.err(command ? t('usage.seeCommandHelp', { command: command.name }) : t('usage.seeHelp'));
  return ExitCode.usage;
}

async function runCommand(
  command: CommandSpec,
  input: ReturnType<typeof parseCommandLine>,
  { io, env, entry, signals: ownsSignals }: CliHost,
  t: Translate,
  policies: Policies | undefined,
  output: OutputWatch | undefined,
): Promise<number> {
  let profile: Profile | undefined;
  // One opening, however many callers ask at once (a second profile would never be closed).
  let opening: Promise<Profile> | undefined;
  // One closing, at the end or on a signal: it waits for a session write in flight.
  let closing: Promise<void> | undefined;
  const close = () => (closing ??= profile?.close() ?? Promise.resolve());
  const signals: StopSignals = ownsSignals
    ? handleStopSignals({
        stop: close,
        saving: () => profile?.account.tokens.saving ?? false,
        say: (line) => io.err(line),
      })
    : { onSignal: () => () => undefined, stopFor: () => undefined, dispose: () => undefined };
  // The exit code of what stopped the command (a signal, a lost output), when it did: a command
  // that then fails (a sync or an activation cancelled, an import stopped) ends with it.
  let stoppedWith: number | undefined;
  output?.endWith((exitCode) => {
    stoppedWith ??= exitCode;
    signals.stopFor(exitCode);
  });
  const ctx: CommandContext = {
    io,
    json: input.values.json === true,
    t,
    entry,
    profile() {
      opening ??= (async () => {
        const { openProfile } = await import('../core/profile');
        // The policies read at the start (none: the profile finds none either).
        return (profile = openProfile({ env, ...(policies ? { policies } : {}) }));
      })();
      return opening;
    },
    async platform() {
      const { account, settings, log, dataDir } = await ctx.profile();
      const status = await account.start();
      if (status.state === 'vault-unavailable') {
        throw new CallbarError(
          'vault_unavailable',
          status.message ?? said('cli:status.vaultUnavailable'),
        );
      }
      const { createPlatformApi } = await import('../core/api/platform-api');
      return createPlatformApi({
        baseUrl: settings.base_url,
        tokens: account.tokens,
        log,
        dataDir,
      });
    },
    onSignal: (cancel) =>
      signals.onSignal((exitCode) => {
        stoppedWith ??= exitCode;
        cancel();
      }),
  };
  try {
    const code = (await command.run(ctx, input as never)) ?? ExitCode.ok;
    return code === ExitCode.ok ? code : (stoppedWith ?? code);
  } catch (error) {
    if (error instanceof UsageError) return usageFailure(io, t, error, command);
    // --json's failure says the account's state: read from the keychain (no request) when the
    // command failed before it did, never the placeholder of a session not read.
    const account = profile?.account;
    if (ctx.json && account && !account.started) await account.start();
    const failed = reportError(ctx, error, account?.status().state);
    return stoppedWith ?? failed;
  } finally {
    await close();
    signals.dispose();
    // Nothing is open any more: an output lost from now on ends the process at once.
    output?.endWith((exitCode) => process.exit(exitCode));
  }
}
