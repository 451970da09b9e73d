import type { AccountState, Call, DialTarget, SearchHit } from '../../../src-shared/contract';
import type { AppState } from './app-store';

/** One row of the results list: the typed number first, then the directory's hits. */
export type ResultRow = { kind: 'dial'; target: DialTarget } | { kind: 'hit'; hit: SearchHit };

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

export function resultRows(state: Pick<AppState, 'dialRow' | 'hits'>): ResultRow[] {
  const rows: ResultRow[] = state.hits.map((hit) => ({ kind: 'hit', hit }));
  return state.dialRow ? [{ kind: 'dial', target: state.dialRow }, ...rows] : rows;
}

/** The call the call bar shows: the newest that has not ended. */
export function activeCall(state: AppState): Call | undefined {
  return state.calls.current[0];
}
