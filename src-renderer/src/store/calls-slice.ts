import type {
  CallsSnapshot,
  CallSource,
  DialOutcome,
  ErrorInfo,
  Result,
} from '../../../src-preload/contract';
import type { SliceCreator } from './slice';

const EMPTY: CallsSnapshot = { current: [], recent: [], pending: null };

/** Current and recent calls, the dial waiting for a yes, and the call actions. */
export interface CallsSlice {
  calls: CallsSnapshot;
  /** The last call action's failure ("That is not a phone number: …"). */
  callError: ErrorInfo | undefined;
  /**
   * Whom the dial sent and not yet answered calls (as shown): the call bar says "Calling …" at
   * once, however slow the platform, and no second dial starts meanwhile.
   */
  dialing: string | undefined;
  loadCalls: () => Promise<void>;
  /**
   * Dials `target` (`label`: whom, as shown; default the target). While a dial is in flight
   * another is ignored (resolves false).
   */
  dial: (target: string, source?: CallSource, label?: string) => Promise<boolean>;
  hangup: (callId?: string) => Promise<void>;
  confirmPending: (accept: boolean, always: boolean) => Promise<void>;
  clearRecent: () => Promise<void>;
  dismissCallError: () => void;
  applyCallsEvent: (calls: CallsSnapshot) => void;
}

export const createCallsSlice: SliceCreator<CallsSlice> = (set, get) => {
  const applySnapshot = (result: Result<CallsSnapshot>) => {
    if (result.ok) set({ calls: result.value, callError: undefined });
    else set({ callError: result.error });
  };
  const applyOutcome = (result: Result<DialOutcome>): boolean => {
    if (!result.ok) {
      set({ callError: result.error });
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
      calls: known ? calls : { ...calls, current: [outcome.call, ...calls.current] },
    });
    return true;
  };
  return {
    calls: EMPTY,
    callError: undefined,
    dialing: undefined,
    loadCalls: async () => applySnapshot(await window.callbar.calls.list()),
    dial: async (target, source = 'ui', label = target) => {
      if (get().dialing !== undefined) return false;
      set({ dialing: label, callError: undefined });
      try {
        return applyOutcome(await window.callbar.calls.dial({ target, source }));
      } finally {
        set({ dialing: undefined });
      }
    },
    hangup: async (callId) =>
      applySnapshot(await window.callbar.calls.hangup(callId ? { call_id: callId } : {})),
    confirmPending: async (accept, always) => {
      const pending = get().calls.pending;
      if (!pending) return;
      applySnapshot(await window.callbar.calls.confirm({ id: pending.id, accept, always }));
    },
    clearRecent: async () => applySnapshot(await window.callbar.calls.clearRecent()),
    dismissCallError: () => set({ callError: undefined }),
    applyCallsEvent: (calls) => set({ calls }),
  };
};
