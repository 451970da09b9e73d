/**
 * `callbar dial`, `hangup`, `calls` and `open-url`: the same calls service as the app. The CLI
 * hears the platform's call events only while a command that listens runs (`dial --follow`);
 * what the app heard is in the profile's call log, which these commands read.
 */
import { createInterface } from 'node:readline/promises';
import type { Call, CallsSnapshot, DialOutcome, PendingDial } from '../../../src-preload/contract';
import { createPlatformApi } from '../../core/api/platform-api';
import type { CallsService } from '../../core/calls/calls-service';
import { openCalls } from '../../core/calls/open-calls';
import { CallbarError, describeError } from '../../core/errors';
import type { Profile } from '../../core/profile';
import { ExitCode, type CliIo } from '../cli-io';
import { formatTable } from '../table';
import { runPlatformCommand } from './platform-commands';

export const CALLS_HELP = `  dial TARGET [--follow]        Ring your phone, then TARGET: a number ("020 7123 4567" in your
                                CALLBAR_REGION), +country code, extension, speed dial or tel: link.
                                --follow prints the call's progress until it ends (Ctrl+C stops
                                following; the call goes on)
  hangup [CALL_LEG_ID]          End the current call (or that call leg)
  calls                         Current and recent calls
  open-url URL                  Dial a tel:/callto:/sip: link (what the OS runs for one); asks
                                first unless confirm_web_links is false
  The CLI receives the platform's call events only while a command that listens runs (dial
  --follow); otherwise it knows what the running app saw.
`;

export interface CallArgs {
  json: boolean;
  follow?: boolean | undefined;
  args: string[];
}

type CallCommand = (calls: CallsService, io: CliIo, options: CallArgs) => Promise<unknown>;

function usage(message: string): never {
  throw new CallbarError('usage', message);
}

const STATE_WORDS: Record<Call['state'], string> = {
  dialing: 'Dialing',
  'calling-you': 'Your phone is ringing: answer it to place the call',
  ringing: 'Ringing',
  connected: 'Connected',
  'in-progress': 'In progress (the platform sends no details)',
  ended: 'Ended',
  failed: 'Failed',
};

function partyText(call: Call): string {
  const { party } = call;
  return party.name ? `${party.name} (${party.display})` : party.display;
}

function callLine(call: Call): string {
  const reason = call.reason ? `: ${call.reason}` : '';
  return `${STATE_WORDS[call.state]}${reason}`;
}

function callRows(calls: Call[]): string {
  return formatTable(
    ['STARTED', 'DIRECTION', 'PARTY', 'STATE', 'LEGS'],
    calls.map((call) => [
      call.started_at.replace('T', ' ').slice(0, 19),
      call.direction,
      partyText(call),
      call.reason ? `${call.state}: ${call.reason}` : call.state,
      call.leg_ids.join(' '),
    ]),
  );
}

function describeSnapshot(snapshot: CallsSnapshot): string {
  const parts = [
    snapshot.current.length ? `Current:\n${callRows(snapshot.current)}` : 'No call in progress.',
  ];
  if (snapshot.recent.length) parts.push(`Recent:\n${callRows(snapshot.recent)}`);
  return parts.join('\n\n');
}

/** Prints the call's progress until it ends or Ctrl+C; picks up a hangup from another process. */
async function follow(calls: CallsService, io: CliIo, callId: string, json: boolean) {
  if (!json) io.err('Following the call (Ctrl+C stops following; the call goes on).');
  let printed = '';
  await new Promise<void>((done) => {
    const show = () => {
      const record = calls.tracker.records().find((each) => each.call.id === callId);
      if (!record) return finish();
      const { call } = record;
      const line = json
        ? JSON.stringify({ call })
        : `${callLine(call)}  [legs: ${call.leg_ids.join(', ') || 'none yet'}]`;
      if (line !== printed) io.out(line);
      printed = line;
      if (call.state === 'ended' || call.state === 'failed') finish();
    };
    const poll = setInterval(() => calls.tracker.reload(), 1000);
    const unsubscribe = calls.onChange(show);
    const interrupted = () => {
      if (!json) io.err('Stopped following; the call goes on. `callbar hangup` ends it.');
      finish();
    };
    process.once('SIGINT', interrupted);
    process.once('SIGTERM', interrupted);
    function finish() {
      clearInterval(poll);
      unsubscribe();
      process.off('SIGINT', interrupted);
      process.off('SIGTERM', interrupted);
      done();
    }
    show();
  });
}

/** Asks on a terminal; a link never dials unconfirmed where nobody can answer. */
async function confirmOnTerminal(calls: CallsService, io: CliIo, pending: PendingDial) {
  if (!process.stdin.isTTY) {
    throw new CallbarError(
      'needs_confirmation',
      `Links ask before dialing, and there is nobody to ask here. Open the link with Callbar running, run \`callbar dial "${pending.target.destination}"\`, or set confirm_web_links to false.`,
    );
  }
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = (
      await prompt.question(`Dial ${pending.target.display}? [y]es, [n]o, [a]lways: `)
    )
      .trim()
      .toLowerCase();
    const accept = answer === 'y' || answer === 'yes' || answer === 'a' || answer === 'always';
    await calls.confirm(pending.id, accept, answer.startsWith('a'));
    io.out(accept ? 'Calling: your phone rings first.' : 'Not dialed.');
  } finally {
    prompt.close();
  }
}

function showOutcome(io: CliIo, json: boolean, outcome: DialOutcome) {
  if (json) return io.out(JSON.stringify(outcome));
  if (outcome.status === 'dialing') {
    io.out(
      `Calling ${partyText(outcome.call)}: your phone rings first; answer it and the platform dials the number.`,
    );
  }
}

export const callCommands: Record<string, CallCommand> = {
  dial: async (calls, io, o) => {
    if (o.args.length === 0)
      usage('Give the number to dial, e.g. callbar dial "+44 20 7123 4567".');
    const target = o.args.join(' ');
    if (o.follow) await calls.listenForEvents();
    const outcome = await calls.dial(target, 'cli');
    showOutcome(io, o.json, outcome);
    if (o.follow && outcome.status === 'dialing') {
      await follow(calls, io, outcome.call.id, o.json);
    }
  },
  hangup: async (calls, io, o) => {
    if (o.args.length > 1) usage('Give at most one call leg id.');
    const leg = o.args[0];
    const snapshot = leg === undefined ? await calls.hangup() : await calls.hangupLeg(leg);
    io.out(o.json ? JSON.stringify(snapshot) : 'Hung up.');
  },
  calls: async (calls, io, o) => {
    if (o.args.length > 0) usage(`Unexpected argument "${o.args[0]}".`);
    calls.tracker.reload();
    const snapshot = calls.snapshot();
    io.out(o.json ? JSON.stringify(snapshot) : describeSnapshot(snapshot));
    return Promise.resolve();
  },
  'open-url': async (calls, io, o) => {
    if (o.args.length !== 1) usage('Give exactly one link, e.g. callbar open-url tel:+4930123456.');
    const outcome = await calls.openUrl(o.args[0]!);
    showOutcome(io, o.json, outcome);
    if (outcome.status === 'needs-confirmation')
      await confirmOnTerminal(calls, io, outcome.pending);
  },
};

/** Runs one call command on `profile`, with the platform commands' error reporting. */
export async function runCallCommand(
  command: CallCommand,
  profile: Profile,
  io: CliIo,
  options: CallArgs,
): Promise<number> {
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
  const calls = openCalls({ profile, api, listen: () => profile.account.listen() });
  try {
    return await runPlatformCommand(
      (_api, commandIo) => command(calls, commandIo, options),
      api,
      io,
      { json: options.json, args: options.args },
    );
  } catch (error) {
    io.err(`callbar: ${describeError(error).message}`);
    return ExitCode.failed;
  } finally {
    await calls.close();
  }
}
