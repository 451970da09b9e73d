import { createInterface } from 'node:readline/promises';
import type { AccountState, AccountStatus } from '../../src-shared/contract';
import { CallbarError } from '../core/errors';
import type { Translate } from '../core/text/said';
import { sayAgain } from '../core/text/translators';
import { terminalField, terminalOutput } from '../core/text/terminal-text';

/**
 * Where the CLI writes and whom it asks: stdout for results, stderr for messages, the terminal
 * (when there is one) for progress and questions. The process's own streams for the bin; tests
 * that run the CLI inside their worker capture both outputs and have no terminal.
 */
export interface CliIo {
  /** A result line (a line break added when missing). */
  out(text: string): void;
  /** A message line (a line break added when missing). */
  err(text: string): void;
  /**
   * An export's text to stdout as it is, no line break added (a terminal sees its controls as
   * text); resolves once stdout takes more.
   */
  write(text: string): Promise<void>;
  /** Draws a progress line on stderr (over itself); only where stderr is a terminal. */
  progress?: (text: string) => void;
  /** Asks the person at the terminal, their answer; only where stdin is a terminal. */
  ask?: (question: string) => Promise<string>;
}

export const processIo: CliIo = {
  // Nothing returned: a command's `return ctx.io.out(…)` must not hand write()'s boolean back as
  // its exit code.
  out: (text) => void process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  err: (text) => void process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
  async write(text) {
    // A terminal shows controls as text; a pipe or a file gets the bytes as they are.
    if (!process.stdout.write(process.stdout.isTTY ? terminalOutput(text) : text)) {
      await new Promise<void>((resolve) => process.stdout.once('drain', resolve));
    }
  },
  get progress() {
    return process.stderr.isTTY ? (text: string) => void process.stderr.write(text) : undefined;
  },
  get ask() {
    return process.stdin.isTTY ? askOnTerminal : undefined;
  },
};

async function askOnTerminal(question: string): Promise<string> {
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await prompt.question(question);
  } finally {
    prompt.close();
  }
}

/**
 * `io` as every command writes to it: each text shown as text (controls and bidi characters as
 * their escapes, the CLI's own line breaks kept; JSON stays the same JSON). Fields from outside
 * are made one line where they are put into a table or a sentence (`terminalField`).
 */
export function terminalIo(io: CliIo): CliIo {
  return {
    ...io,
    out: (text) => io.out(terminalOutput(text)),
    err: (text) => io.err(terminalOutput(text)),
  };
}

/** Exit codes, documented in `callbar --help`. */
export const ExitCode = {
  ok: 0,
  failed: 1,
  usage: 2,
  notConnected: 3,
  keychainUnavailable: 4,
  unreachable: 5,
  /** What the command names does not exist (or is not the user's to see): the platform's 404. */
  notFound: 6,
} as const;

export function exitCodeForState(state: AccountState): number {
  switch (state) {
    case 'connected':
    case 'activating':
      return ExitCode.ok;
    case 'offline':
      return ExitCode.unreachable;
    case 'vault-unavailable':
      return ExitCode.keychainUnavailable;
    case 'not-connected':
    case 'needs-activation':
      return ExitCode.notConnected;
  }
}

export function exitCodeForError(error: unknown): number {
  if (!(error instanceof CallbarError)) return ExitCode.failed;
  switch (error.code) {
    case 'not_connected':
    case 'needs_activation':
      return ExitCode.notConnected;
    case 'vault_unavailable':
      return ExitCode.keychainUnavailable;
    case 'offline':
    case 'network':
    case 'timeout':
    case 'portal_not_found':
      return ExitCode.unreachable;
    case 'not_found':
    case 'call_not_found':
      return ExitCode.notFound;
    default:
      return ExitCode.failed;
  }
}

export function describeStatus(status: AccountStatus, t: Translate): string {
  const who =
    status.user_extension && status.tenant_id
      ? t('status.who', {
          extension: terminalField(status.user_extension),
          tenant: terminalField(status.tenant_id),
        })
      : '';
  const headline: Record<AccountState, string> = {
    connected: 'status.connected',
    activating: 'status.activating',
    'not-connected': 'status.notConnected',
    'needs-activation': 'status.needsActivation',
    offline: 'status.offline',
    'vault-unavailable': 'status.vaultUnavailable',
  };
  const lines = [t(headline[status.state], { who })];
  // A session for another account than the one before on this computer: said every time.
  if (status.account_switch) lines.push(sayAgain(t, status.account_switch.message));
  if (status.access_token_expires_at && status.state === 'connected') {
    lines.push(t('status.tokenValid', { until: status.access_token_expires_at }));
  }
  if (status.relay) lines.push(t('status.relay', { relay: terminalField(status.relay) }));
  // Core's sentences, in the user's language when core said them by key.
  if (status.message) lines.push(sayAgain(t, status.message));
  if (status.events_warning) {
    lines.push(t('status.warning', { warning: sayAgain(t, status.events_warning) }));
  }
  // What is away although the session is fine, since when (a connected status only).
  const outages = [
    ['status.platformUnreachable', status.platform_unreachable],
    ['status.eventsDelayed', status.events_delayed],
  ] as const;
  for (const [key, outage] of outages) {
    if (outage) {
      lines.push(t(key, { since: outage.since, message: sayAgain(t, outage.message) }));
    }
  }
  return lines.join('\n');
}
