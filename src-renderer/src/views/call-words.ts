import type { Call, CallParty } from '../../../src-shared/contract';
import { i18n } from '../i18n';

/** Who is on the other side, in the fewest words that identify them. */
export function partyName(party: CallParty): string {
  return party.name ?? party.display;
}

/** The call's state as a person says it (in the window's language). */
export function callStateWords(call: Call): string {
  const t = i18n.t;
  const incoming = call.direction === 'incoming';
  switch (call.state) {
    case 'dialing':
      return t('call.state.dialing');
    case 'calling-you':
      return t('call.state.callingYou');
    case 'ringing':
      return incoming ? t('call.state.incoming') : t('call.state.ringing');
    case 'connected':
      return t('call.state.connected');
    case 'in-progress':
      return t('call.state.inProgress');
    case 'ended':
      return call.reason
        ? t('call.state.endedWhy', { reason: call.reason })
        : t('call.state.ended');
    case 'failed':
      return call.reason
        ? t('call.state.failedWhy', { reason: call.reason })
        : t('call.state.failed');
  }
}

/** The call's state in the call bar's chip: a few words, the rest in `callStateNote`. */
export function callStateChip(call: Call): string {
  const t = i18n.t;
  switch (call.state) {
    case 'dialing':
      return t('call.chip.dialing');
    case 'calling-you':
      return t('call.chip.callingYou');
    case 'ended':
      return t('call.chip.ended');
    case 'failed':
      return t('call.chip.failed');
    case 'ringing':
    case 'connected':
    case 'in-progress':
      return callStateWords(call);
  }
}

/** What the chip leaves out: what to do now, or why the call ended. */
export function callStateNote(call: Call): string | undefined {
  if (call.state === 'ended' || call.state === 'failed') return call.reason;
  // Keys written after the number (a conference's PIN): the person presses them.
  const keys = call.keys ? i18n.t('call.note.keys', { keys: call.keys }) : undefined;
  if (call.state === 'calling-you') {
    return keys ? `${i18n.t('call.note.pickUp')} ${keys}` : i18n.t('call.note.pickUp');
  }
  return keys;
}
