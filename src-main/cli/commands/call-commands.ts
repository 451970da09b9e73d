/**
 * `callbar dial`, `hangup`, `calls` and `open-url`: the same calls service as the app. The CLI
 * hears the platform's call events only while a command that listens runs (`dial --follow`);
 * what the running app heard is in the profile's call log, which these commands read.
 */
import type {
  Call,
  CallsSnapshot,
  DialOutcome,
  DialTarget,
  PendingDial,
} from '../../../src-shared/contract';
import { CallEventFields, MAX_LEG_ID_LENGTH } from '../../core/calls/call-event';
import { callInWords } from '../../core/calls/call-reason';
import type { CallsService } from '../../core/calls/calls-service';
import type { DoorAnswer } from '../../core/desktop/link-door-format';
import { CallbarError } from '../../core/errors';
import { said, type Translate } from '../../core/text/said';
import { sayAgain } from '../../core/text/translators';
import { terminalField } from '../../core/text/terminal-text';
import { openLocalDirectory } from './directory-commands';
import { writeStdout } from './contact-transfer-commands';
import { defineCommand, UsageError, type CommandContext, type CommandGroup } from '../command';
import { show } from '../list-output';
import { writeOutputFile } from '../output-file';
import { formatTable } from '../table';

/** The help's note on call events (`{eventsNote}` in the help of dial, hangup and calls). */
const eventsNote = (t: Translate) => ({ eventsNote: t('calls.eventsNote') });

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
export async function withCalls<T>(
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

/**
 * Who the call is with, as one line: the name and number someone else wrote shown as text, and
 * what core says of a number ("Extension 12", "Unknown caller") in `t`'s language.
 */
function partyText(t: Translate, call: Call): string {
  const { party } = call;
  const display = terminalField(sayAgain(t, party.display));
  return party.name ? `${terminalField(party.name)} (${display})` : display;
}

function callLine(t: Translate, call: Call): string {
  const reason = call.reason ? `: ${terminalField(call.reason)}` : '';
  return `${t(`calls.state.${call.state}`)}${reason}`;
}

function callRows(t: Translate, calls: Call[]): string {
  return formatTable(
    t,
    ['STARTED', 'DIRECTION', 'PARTY', 'STATE', 'LEGS'],
    calls.map((call) => {
      const state = t(`calls.stateCode.${call.state}`);
      return [
        call.started_at.replace('T', ' ').slice(0, 19),
        t(`calls.direction.${call.direction}`),
        partyText(t, call),
        call.reason ? `${state}: ${terminalField(call.reason)}` : state,
        call.leg_ids.join(' '),
      ];
    }),
  );
}

function describeSnapshot(t: Translate, snapshot: CallsSnapshot): string {
  const parts = [
    snapshot.current.length
      ? t('calls.current', { table: callRows(t, snapshot.current) })
      : t('calls.noCall'),
  ];
  if (snapshot.recent.length)
    parts.push(t('calls.recent', { table: callRows(t, snapshot.recent) }));
  return parts.join('\n\n');
}

/** Prints the call's progress until it ends or Ctrl+C; picks up a hangup from another process. */
async function follow(calls: CallsService, ctx: CommandContext, callId: string) {
  const { io, json, t } = ctx;
  if (!json) io.err(t('calls.following'));
  let printed = '';
  await new Promise<void>((done) => {
    const report = () => {
      const record = calls.tracker.records().find((each) => each.call.id === callId);
      if (!record) return finish();
      const { call } = record;
      const line = json
        ? JSON.stringify({ call })
        : t('calls.legs', {
            // Why it ended in the terminal's language, however it was stored.
            line: callLine(t, callInWords(record, t)),
            legs: terminalField(call.leg_ids.join(', ')) || t('calls.noLegs'),
          });
      if (line !== printed) io.out(line);
      printed = line;
      if (call.state === 'ended' || call.state === 'failed') finish();
    };
    const poll = setInterval(() => calls.tracker.reload(), 1000);
    const unsubscribe = calls.onChange(report);
    const interrupted = () => {
      if (!json) io.err(t('calls.stoppedFollowing'));
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
    ctx.io.err(ctx.t('calls.firstLeg.waiting', { seconds }));
  }
  const known = await calls.firstLeg(callId, FIRST_LEG_WAIT_MS);
  if (!known && !ctx.json) {
    ctx.io.err(ctx.t('calls.firstLeg.none', { seconds }));
  }
}

/**
 * What a destination is, as the window's confirmation says it: the class in words, the exact
 * digits dialled, and any note (an emergency number that a speed dial also uses).
 */
function destinationLines(t: Translate, target: DialTarget, reason?: string): string {
  const lines = [
    t('calls.dials', {
      description: terminalField(sayAgain(t, reason ?? target.description)),
      digits: terminalField(target.e164 ?? target.destination),
    }),
  ];
  if (target.note) lines.push(t('calls.note', { note: terminalField(sayAgain(t, target.note)) }));
  return lines.join('\n');
}

/** Asks on a terminal; a link never dials unconfirmed where nobody can answer. */
async function confirmOnTerminal(calls: CallsService, ctx: CommandContext, pending: PendingDial) {
  const { io, t } = ctx;
  if (!io.ask) {
    throw new CallbarError(
      'needs_confirmation',
      said('cli:calls.nobodyToAsk', {
        reason: pending.reason ?? said('cli:calls.linksAsk'),
        // The keys a link names after a pause go with the command, as `dial` takes them.
        destination: terminalField(
          [pending.target.destination, pending.target.post_dial].filter(Boolean).join(','),
        ),
        setting: pending.reason ? '' : said('cli:calls.orSetting'),
      }),
    );
  }
  io.err(destinationLines(t, pending.target, pending.reason));
  // A link that asks for a reason keeps asking: "always" would not apply to it.
  const offerAlways = pending.reason === undefined;
  const choices = t(offerAlways ? 'calls.choicesAlways' : 'calls.choices');
  const answer = (
    await io.ask(
      t('calls.ask', { display: terminalField(sayAgain(t, pending.target.display)), choices }),
    )
  )
    .trim()
    .toLowerCase();
  // The answers of the user's language (and, everywhere, the English ones).
  const is = (key: string) => t(key).split('|').includes(answer);
  const always = offerAlways && is('calls.always');
  const accept = is('calls.yes') || always;
  await calls.confirm(pending.id, accept, always);
  io.out(t(accept ? 'calls.calling' : 'calls.notDialed'));
}

function showOutcome(ctx: CommandContext, outcome: DialOutcome) {
  const { t } = ctx;
  show(ctx, outcome, () =>
    outcome.status === 'dialing'
      ? t('calls.callingParty', {
          party: partyText(t, outcome.call),
          lines: destinationLines(t, outcome.target),
        })
      : t('calls.linkAsks', {
          display: terminalField(sayAgain(t, outcome.pending.target.display)),
        }),
  );
}

/** What the running Callbar did with a link handed to it through its link door. */
function showDoorAnswer(ctx: CommandContext, answer: DoorAnswer) {
  if (!answer.ok) throw new CallbarError(answer.error.code, answer.error.message);
  const display = terminalField(answer.display);
  show(ctx, { running: true, ...answer }, () =>
    ctx.t(answer.status === 'dialing' ? 'calls.door.dialing' : 'calls.door.asking', { display }),
  );
}

export const callCommands: CommandGroup = {
  title: 'calls',
  commands: [
    defineCommand({
      name: 'dial',
      usage: 'TARGET [--follow]',
      helpValues: eventsNote,
      options: { follow: { type: 'boolean' } },
      args: { name: 'TARGET', min: 1, max: Infinity },
      async run(ctx, { values, args }) {
        const listen = values.follow === true;
        const profile = await ctx.profile();
        const loopback = !profile.settings.relay_url;
        // A running Callbar of this profile holds the receiver (and follows the call itself):
        // said as that, not as a port in use, before anything is dialed.
        if (listen && loopback) {
          const { linkDoorAnswers } = await import('../../core/desktop/link-door-knock');
          if (await linkDoorAnswers(profile.dataDir)) {
            throw new CallbarError('app_running', said('cli:calls.followAppRunning'));
          }
        }
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
      helpValues: eventsNote,
      args: { name: 'CALL_LEG_ID', min: 0, max: 1 },
      async run(ctx, { args }) {
        const leg = args[0];
        // A leg id is what a call's events name (1 to 128 characters): nothing else is sent.
        if (leg !== undefined && !CallEventFields.shape.id.safeParse(leg).success) {
          throw new UsageError(said('cli:usage.legId', { max: MAX_LEG_ID_LENGTH }));
        }
        const snapshot = await withCalls(ctx, (calls) =>
          leg === undefined ? calls.hangup() : calls.hangupLeg(leg),
        );
        show(ctx, snapshot, () => ctx.t('calls.hungUp'));
      },
    }),
    defineCommand({
      name: 'calls',
      helpValues: eventsNote,
      async run(ctx) {
        // --json in English (as every --json is); the lines in the terminal's language.
        const [snapshot, worded] = await withCalls(ctx, async (calls) => {
          await calls.reload();
          return [calls.snapshot(), calls.snapshot(ctx.t)] as const;
        });
        show(ctx, snapshot, () => describeSnapshot(ctx.t, worded));
      },
    }),
    defineCommand({
      name: 'calls export',
      usage: '[--output FILE]',
      helpValues: eventsNote,
      options: { output: { type: 'string', short: 'o' } },
      async run(ctx, { values }) {
        if (values.output === '') throw new UsageError(ctx.t('calls.export.outputNeedsFile'));
        const recent = await withCalls(ctx, async (calls) => {
          await calls.reload();
          return calls.snapshot().recent;
        });
        const { callHistoryCsv } = await import('../../core/calls/call-history-csv');
        const text = callHistoryCsv(recent, { file: values.output !== undefined });
        if (values.output === undefined) return writeStdout(ctx.io, [text]);
        await writeOutputFile(values.output, [text]);
        if (ctx.json) ctx.io.out(JSON.stringify({ file: values.output, calls: recent.length }));
        else
          ctx.io.err(
            ctx.t('calls.export.done', {
              count: recent.length,
              file: terminalField(values.output),
            }),
          );
      },
    }),
    defineCommand({
      name: 'open-url',
      usage: 'URL',
      args: { name: 'URL', min: 1 },
      async run(ctx, { args }) {
        // A running Callbar of this profile (the app, the preview) takes the link, as from the OS.
        const { knockLinkDoor } = await import('../../core/desktop/link-door-knock');
        const answer = await knockLinkDoor((await ctx.profile()).dataDir, args[0]!);
        if (answer) return showDoorAnswer(ctx, answer);
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
