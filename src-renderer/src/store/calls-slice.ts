import type {
  Call,
  CallsSnapshot,
  CallSource,
  DialOutcome,
  ErrorInfo,
  Result,
} from '../../../src-shared/contract';
import type { SliceCreator } from './slice';

/** A call the platform has been seen to place (its phones ring or talk). */
function isUnderWay(call: Call): boolean {
  return ['calling-you', 'ringing', 'connected', 'in-progress'].includes(call.state);
}

const EMPTY: CallsSnapshot = { current: [], recent: [], pending: null };

/**
 * The call that was shown and has just ended (it left `current` for `recent`): the window keeps
 * it in view a few seconds ("Ended · 0:12", Call again, Add note). A new call replaces it.
 */
function justEnded(
  before: CallsSnapshot,
  after: CallsSnapshot,
  shown: Call | undefined,
): Call | undefined {
  if (after.current.length > 0) return undefined;
  const id = before.current[0]?.id ?? shown?.id;
  // Its latest version (a note added meanwhile); gone from the list (cleared): not shown.
  return id === undefined ? undefined : after.recent.find((call) => call.id === id);
}

/** Current and recent calls, the dial waiting for a yes, and the call actions. */
export interface CallsSlice {
  calls: CallsSnapshot;
  /** The call that has just ended, shown a few seconds after it (see justEnded). */
  ended: Call | undefined;
  /** The ended call is out of view (its few seconds passed, or the person closed it). */
  dismissEnded: () => void;
  /** The last call action's failure ("That is not a phone number: …"). */
  callError: ErrorInfo | undefined;
  /**
   * Whom the dial sent and not yet answered calls (as shown): the call bar says "Calling …" at
   * once, however slow the platform, and no second dial starts meanwhile.
   */
  dialing: string | undefined;
  /** Cancel was pressed for the dial in flight; it ends when the platform's answer is handled. */
  cancelling: boolean;
  loadCalls: () => Promise<void>;
  /**
   * Asks for the calls again after the language changed: core words why each ended in the
   * window's language, so what was said in the old one is said anew (an error shown stays).
   */
  rewordCalls: () => Promise<void>;
  /**
   * Dials `target` (`label`: whom, as shown; default the target). While a dial is in flight
   * another is ignored (resolves false).
   */
  dial: (target: string, source?: CallSource, label?: string) => Promise<boolean>;
  hangup: (callId?: string) => Promise<void>;
  /** Abandons the dial in flight (the call bar's Cancel beside "Calling …"). */
  cancelDial: () => Promise<void>;
  confirmPending: (accept: boolean, always: boolean) => Promise<void>;
  /** Clears the recent calls; core keeps them for a few seconds, while Undo brings them back. */
  clearRecent: () => Promise<void>;
  undoClear: () => Promise<void>;
  dismissCallError: () => void;
  applyCallsEvent: (calls: CallsSnapshot) => void;
}

export const createCallsSlice: SliceCreator<CallsSlice> = (set, get) => {
  /** The calls as they are now, and which one has just ended. */
  const withCalls = (calls: CallsSnapshot) => ({
    calls,
    ended: justEnded(get().calls, calls, get().ended),
  });
  const applySnapshot = (result: Result<CallsSnapshot>) => {
    if (result.ok) set({ ...withCalls(result.value), callError: undefined });
    else set({ callError: result.error });
  };
  const applyOutcome = (result: Result<DialOutcome>): boolean => {
    if (!result.ok) {
      // A dial the user cancelled before it was sent is what they asked for, not a failure.
      set({ callError: result.error.code === 'dial_cancelled' ? undefined : result.error });
      return false;
    }
    const { calls } = get();
    const outcome = result.value;
    if (outcome.status === 'needs-confirmation') {
      set({ callError: undefined, calls: { ...calls, pending: outcome.pending } });
      return true;
    }
    // A calls.changed event may have overtaken this answer: what it said about the call is newer.
    const known = [...calls.current, ...calls.recent].some(({ id }) => id === outcome.call.id);
    set({
      callError: undefined,
      ...(known ? {} : withCalls({ ...calls, current: [outcome.call, ...calls.current] })),
    });
    return true;
  };
  return {
    calls: EMPTY,
    ended: undefined,
    dismissEnded: () => set({ ended: undefined }),
    callError: undefined,
    dialing: undefined,
    cancelling: false,
    loadCalls: async () => applySnapshot(await window.callbar.calls.list()),
    rewordCalls: async () => {
      const result = await window.callbar.calls.list();
      if (result.ok) get().applyCallsEvent(result.value);
    },
    dial: async (target, source = 'ui', label = target) => {
      if (get().dialing !== undefined) return false;
      set({ dialing: label, callError: undefined, ended: undefined });
      try {
        return applyOutcome(await window.callbar.calls.dial({ target, source }));
      } finally {
        set({ dialing: undefined, cancelling: false });
      }
    },
    hangup: async (callId) =>
      applySnapshot(await window.callbar.calls.hangup(callId ? { call_id: callId } : {})),
    cancelDial: async () => {
      if (get().dialing === undefined || get().cancelling) return;
      set({ cancelling: true });
      const result = await window.callbar.calls.cancelDial();
      // The dial ended meanwhile: its own answer says what happened.
      if (!result.ok && result.error.code !== 'no_dial_in_flight') set({ callError: result.error });
    },
    confirmPending: async (accept, always) => {
      const pending = get().calls.pending;
      if (!pending) return;
      const result = await window.callbar.calls.confirm({ id: pending.id, accept, always });
      // Declining a link that is gone already (a second Esc, another window answered) is done.
      if (!result.ok && !accept && result.error.code === 'no_pending_dial') {
        const { calls } = get();
        if (calls.pending?.id === pending.id) set({ calls: { ...calls, pending: null } });
        return;
      }
      applySnapshot(result);
    },
    clearRecent: async () => applySnapshot(await window.callbar.calls.clearRecent()),
    undoClear: async () => applySnapshot(await window.callbar.calls.undoClear()),
    dismissCallError: () => set({ callError: undefined }),
    applyCallsEvent: (calls) =>
      set(({ callError }) => ({
        ...withCalls(calls),
        // "Cannot tell whether the call was placed" is answered once it is seen ringing or talking.
        callError:
          callError?.code === 'dial_uncertain' && calls.current.some(isUnderWay)
            ? undefined
            : callError,
      })),
  };
};
