import type { AccountState, Call } from '../../../src-shared/contract';
import type { AppState } from './app-store';

/** Account states in which the main view (search, calls) is shown. */
const MAIN_VIEW_STATES: ReadonlySet<AccountState> = new Set([
  'connected',
  'offline',
  'needs-activation',
]);

export function showsMainView(state: AppState): boolean {
  const account = state.account?.state;
  return account !== undefined && MAIN_VIEW_STATES.has(account);
}

/** True when this computer holds a session that Disconnect would forget. */
export function hasSession(state: AppState): boolean {
  const account = state.account;
  return account !== undefined && account.tenant_id !== undefined;
}

export { resultRows, type ResultRow } from './result-rows';

/** The call the call bar shows: the newest that has not ended. */
export function activeCall(state: AppState): Call | undefined {
  return state.calls.current[0];
}
