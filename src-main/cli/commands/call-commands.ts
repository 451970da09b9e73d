/**
 * `callbar dial`, `hangup`, `calls` and `open-url`: the same calls service as the app. The CLI
 * hears the platform's call events only while a command that listens runs (`dial --follow`);
 * what the running app heard is in the profile's call log, which these commands read.
 */
import { createInterface } from 'node:readline/promises';
import type {
  Call,
  CallsSnapshot,
  DialOutcome,
  DialTarget,
  PendingDial,
} from '../../../src-shared/contract';
import type { CallsService } from '../../core/calls/calls-service';
import { CallbarError } from '../../core/errors';
import { terminalField } from '../../core/text/terminal-text';
import { openLocalDirectory } from './directory-commands';
import { writeStdout } from './contact-transfer-commands';
import { defineCommand, UsageError, type CommandContext, type CommandGroup } from '../command';
import { show } from '../list-output';
import { formatTable } from '../table';

const EVENTS_NOTE =
  "The CLI receives the platform's call events only while a command that listens runs\n" +
  '(dial --follow, and dial for a few seconds until the first one); otherwise it knows what a\n' +
  'running Callbar app saw (or, in relay mode, what waited at the relay).';

/**
 * How long `dial` (without --follow, loopback mode) stays to hear the platform's first event
 * about the call: an answer to the dial naming no leg (all the contract guarantees) leaves
 * `callbar hangup` nothing to end until an event names one, and once this process exits nothing
 * receives it (in relay mode it waits at the relay for the next command instead).
 */
const FIRST_LEG_WAIT_MS = 5000;

/**
 * Runs `use` with the profile's calls service (loaded when a command runs: command modules stay
 * light), closing it (and flushing the call log) afterwards. Parties and speed dials are looked up
 * in this computer's copy of the directory.
 */
async function withCalls<T>(
  ctx: CommandContext,
  use: (calls: CallsService) => Promise<T>,
  options: { listen?: boolean } = {},
): Promise<T> {
  const profile = await ctx.profile();
  const api = await ctx.platform();
  const directory = await openLocalDirectory(ctx);
  const { openCalls } = await import('../../core/calls/open-calls');
  const calls = openCalls({
    profile,
    api,
    directory,
    ...(options.listen ? { listen: () => profile.account.listen() } : {}),
  });
  // Relay mode: the events queued at the relay since the last command arrive first (a dial's
  // legs, so that `hangup` after `dial` finds them).
  if (profile.settings.relay_url) await profile.account.listen();
  try {
    return await use(calls);
  } finally {
    profile.account.stopListening();
    await calls.close();
    await directory.close();
  }
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

/** Who the call is with, as one line: the name and number someone else wrote shown as text. */
function partyText(call: Call): string {
  const { party } = call;
  const display = terminalField(party.display);
  return party.name ? `${terminalField(party.name)} (${display})` : display;
}

function callLine(call: Call): string {
  const reason = call.reason ? `: ${terminalField(call.reason)}` : '';
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
async function follow(calls: CallsService, ctx: CommandContext, callId: string) {
  const { io, json } = ctx;
  if (!json) io.err('Following the call (Ctrl+C stops following; the call goes on).');
  let printed = '';
  await new Promise<void>((done) => {
    const report = () => {
      const record = calls.tracker.records().find((each) => each.call.id === callId);
      if (!record) return finish();
      const { call } = record;
      const line = json
        ? JSON.stringify({ call })
        : `${callLine(call)}  [legs: ${terminalField(call.leg_ids.join(', ')) || 'none yet'}]`;
      if (line !== printed) io.out(line);
      printed = line;
      if (call.state === 'ended' || call.state === 'failed') finish();
    };
    const poll = setInterval(() => calls.tracker.reload(), 1000);
    const unsubscribe = calls.onChange(report);
    const interrupted = () => {
      if (!json) io.err('Stopped following; the call goes on. `callbar hangup` ends it.');
      finish();
    };
    const stopListening = ctx.onSignal(interrupted);
    function finish() {
      clearInterval(poll);
      unsubscribe();
      stopListening();
      done();
    }
    report();
  });
}

/** Stays (FIRST_LEG_WAIT_MS at most) until the platform names a leg of the call, saying so. */
async function catchFirstLeg(calls: CallsService, ctx: CommandContext, callId: string) {
  const seconds = FIRST_LEG_WAIT_MS / 1000;
  if (!ctx.json) {
    ctx.io.err(
      `Waiting up to ${seconds} s for the platform's first event about the call, so that \`callbar hangup\` can end it…`,
    );
  }
  const known = await calls.firstLeg(callId, FIRST_LEG_WAIT_MS);
  if (!known && !ctx.json) {
    ctx.io.err(
      `The platform sent no event about the call within ${seconds} s: \`callbar hangup\` may not be able to end it (hang up on your phone, or \`callbar hangup CALL_LEG_ID\`).`,
    );
  }
}

/**
 * What a destination is, as the window's confirmation says it: the class in words, the exact
 * digits dialled, and any note (an emergency number that a speed dial also uses).
 */
function destinationLines(target: DialTarget, reason?: string): string {
  const lines = [
    `${terminalField(reason ?? target.description)} Dials ${terminalField(target.e164 ?? target.destination)}.`,
  ];
  if (target.note) lines.push(`Note: ${terminalField(target.note)}`);
  return lines.join('\n');
}

/** Asks on a terminal; a link never dials unconfirmed where nobody can answer. */
async function confirmOnTerminal(calls: CallsService, ctx: CommandContext, pending: PendingDial) {
  const { io } = ctx;
  if (!process.stdin.isTTY) {
    const setting = pending.reason ? '' : ', or set confirm_web_links to false';
    throw new CallbarError(
      'needs_confirmation',
      `${pending.reason ?? 'Links ask before dialing.'} There is nobody to ask here. Open the link with Callbar running, or run \`callbar dial "${terminalField(pending.target.destination)}"\`${setting}.`,
    );
  }
  io.err(destinationLines(pending.target, pending.reason));
  // A link that asks for a reason keeps asking: "always" would not apply to it.
  const offerAlways = pending.reason === undefined;
  const choices = offerAlways ? '[y]es, [n]o, [a]lways' : '[y]es, [n]o';
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = (
      await prompt.question(`Dial ${terminalField(pending.target.display)}? ${choices}: `)
    )
      .trim()
      .toLowerCase();
    const always = offerAlways && (answer === 'a' || answer === 'always');
    const accept = answer === 'y' || answer === 'yes' || always;
    await calls.confirm(pending.id, accept, always);
    io.out(accept ? 'Calling: your phone rings first.' : 'Not dialed.');
  } finally {
    prompt.close();
  }
}

function showOutcome(ctx: CommandContext, outcome: DialOutcome) {
  show(ctx, outcome, () =>
    outcome.status === 'dialing'
      ? `Calling ${partyText(outcome.call)}: your phone rings first; answer it and the platform dials the number.\n${destinationLines(outcome.target)}`
      : `The link asks before dialing ${terminalField(outcome.pending.target.display)}.`,
  );
}

export const callCommands: CommandGroup = {
  title: 'Calls',
  commands: [
    defineCommand({
      name: 'dial',
      usage: 'TARGET [--follow]',
      summary: 'Ring your phone, then TARGET',
      help:
        'TARGET is a phone number (national ones in CALLBAR_REGION, e.g. "020 7123 4567" with GB),\n' +
        'a +country-code number, an extension, a speed-dial code, or a tel:/callto:/sip: link.\n' +
        'It says what TARGET is (extension, national, international, premium-rate, emergency…);\n' +
        'an emergency number of your region is always dialled as such, never as a speed dial.\n' +
        "With --follow, prints the call's progress as the platform reports it until the call ends\n" +
        '(Ctrl+C stops following; the call goes on).\n' +
        EVENTS_NOTE,
      options: { follow: { type: 'boolean' } },
      args: { name: 'TARGET', min: 1, max: Infinity },
      async run(ctx, { values, args }) {
        const listen = values.follow === true;
        const loopback = !(await ctx.profile()).settings.relay_url;
        await withCalls(
          ctx,
          async (calls) => {
            if (listen) await calls.listenForEvents();
            // Loopback: hear the call's first event if this process can (a running app that
            // holds the receiver port hears it itself and writes it to the call log).
            const catching =
              !listen &&
              loopback &&
              (await calls.listenForEvents().then(
                () => true,
                () => false,
              ));
            const outcome = await calls.dial(args.join(' '), 'cli');
            showOutcome(ctx, outcome);
            if (outcome.status !== 'dialing') return;
            if (listen) await follow(calls, ctx, outcome.call.id);
            else if (catching && outcome.call.leg_ids.length === 0) {
              await catchFirstLeg(calls, ctx, outcome.call.id);
            }
          },
          { listen: true },
        );
      },
    }),
    defineCommand({
      name: 'hangup',
      usage: '[CALL_LEG_ID]',
      summary: 'End the current call (or one call leg)',
      help:
        'Without CALL_LEG_ID, ends the newest current call, trying the call legs Callbar has seen\n' +
        'for it. ' +
        EVENTS_NOTE,
      args: { name: 'CALL_LEG_ID', min: 0, max: 1 },
      async run(ctx, { args }) {
        const leg = args[0];
        const snapshot = await withCalls(ctx, (calls) =>
          leg === undefined ? calls.hangup() : calls.hangupLeg(leg),
        );
        show(ctx, snapshot, () => 'Hung up.');
      },
    }),
    defineCommand({
      name: 'calls',
      summary: 'Current and recent calls',
      help: EVENTS_NOTE,
      async run(ctx) {
        const snapshot = await withCalls(ctx, async (calls) => {
          await calls.reload();
          return calls.snapshot();
        });
        show(ctx, snapshot, () => describeSnapshot(snapshot));
      },
    }),
    defineCommand({
      name: 'calls export',
      usage: '[--output FILE]',
      summary: 'Recent calls with their notes as CSV',
      help:
        'One line per call, newest first: when it started, direction, state, the name and\n' +
        'company the directory knew, the number, talk time in seconds, why it ended, and your\n' +
        'note. Writes to stdout, or to FILE (replaced only once complete; readable by you only).\n' +
        'Cells a spreadsheet would run as a formula are written after an apostrophe.\n' +
        EVENTS_NOTE,
      options: { output: { type: 'string', short: 'o' } },
      async run(ctx, { values }) {
        if (values.output === '') throw new UsageError('--output needs a file name.');
        const recent = await withCalls(ctx, async (calls) => {
          await calls.reload();
          return calls.snapshot().recent;
        });
        const { callHistoryCsv } = await import('../../core/calls/call-history-csv');
        const text = callHistoryCsv(recent);
        if (values.output === undefined) return writeStdout([text]);
        const { writeFileAtomic } = await import('../../core/config/atomic-write');
        await writeFileAtomic(values.output, text, { mode: 0o600, dirMode: 0o700 });
        if (ctx.json) ctx.io.out(JSON.stringify({ file: values.output, calls: recent.length }));
        else ctx.io.err(`Exported ${recent.length} calls to ${terminalField(values.output)}.`);
      },
    }),
    defineCommand({
      name: 'open-url',
      usage: 'URL',
      summary: 'Dial a tel:, callto: or sip: link (what the OS runs for one)',
      help:
        'Asks first (on a terminal) unless confirm_web_links is false; where nobody can answer,\n' +
        'it does not dial.',
      args: { name: 'URL', min: 1 },
      async run(ctx, { args }) {
        await withCalls(ctx, async (calls) => {
          const outcome = await calls.openUrl(args[0]!);
          if (outcome.status === 'needs-confirmation') {
            await confirmOnTerminal(calls, ctx, outcome.pending);
          } else showOutcome(ctx, outcome);
        });
      },
    }),
  ],
};
