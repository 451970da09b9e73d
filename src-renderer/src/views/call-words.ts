import type { Call, CallParty } from '../../../src-shared/contract';

/** Who is on the other side, in the fewest words that identify them. */
export function partyName(party: CallParty): string {
  return party.name ?? party.display;
}

/** The call's state as a person says it. */
export function callStateWords(call: Call): string {
  const incoming = call.direction === 'incoming';
  switch (call.state) {
    case 'dialing':
      return 'Placing the call…';
    case 'calling-you':
      return 'Your phone is ringing: pick it up to start the call';
    case 'ringing':
      return incoming ? 'Incoming call' : 'Ringing…';
    case 'connected':
      return 'Connected';
    case 'in-progress':
      return 'Call in progress';
    case 'ended':
      return call.reason ? `Call ended: ${call.reason}` : 'Call ended';
    case 'failed':
      return call.reason ? `Call failed: ${call.reason}` : 'Call failed';
  }
}

/** The call's state in the call bar's chip: a few words, the rest in `callStateNote`. */
export function callStateChip(call: Call): string {
  switch (call.state) {
    case 'dialing':
      return 'Calling…';
    case 'calling-you':
      return 'Your phone is ringing';
    case 'ended':
      return 'Ended';
    case 'failed':
      return 'Failed';
    case 'ringing':
    case 'connected':
    case 'in-progress':
      return callStateWords(call);
  }
}

/** What the chip leaves out: what to do now, or why the call ended. */
export function callStateNote(call: Call): string | undefined {
  if (call.state === 'calling-you') return 'Pick it up to start the call.';
  if (call.state === 'ended' || call.state === 'failed') return call.reason;
  return undefined;
}
