/**
 * The account's status report: what the window, the tray and `callbar status` show of the
 * session, computed from the facts the account service keeps (the token manager's session and
 * health, an awaited attempt, the receiver or relay, the webhook secret, the account before).
 */
import type { AccountStatus } from '../../../src-shared/contract';
import type { Outage } from '../http/outage-watch';
import { said, type Said } from '../text/said';
import { inEnglish, spokenSaid } from '../text/translators';
import { accountSwitch, type AccountHistory } from './account-history';
import type { SessionInfo, TokenHealth } from './token-manager';
import { unauthenticatedEventsWarning } from './webhook-auth';

/** Said while an attempt waits after a refused activation call. */
const REFUSAL_HINT_SAID = said('errors:attempt.refusalHint');
/** Its English. */
export const refusalHint = (): string => inEnglish(REFUSAL_HINT_SAID);

/**
 * Relay mode: the relay refused this device's credential (revoked by an administrator): the
 * status's own headline and its sentence.
 */
export const RELAY_REVOKED = {
  title: said('errors:account.relayRevokedTitle'),
  message: said('errors:account.relayRevoked'),
};
/** The session's relay device was issued at `url`, and the settings name `setting` now. */
export const relayElsewhere = (url: string, setting: string) => ({
  title: said('errors:account.relayElsewhereTitle'),
  message: said('errors:account.relayElsewhere', { url, setting }),
});
/** Its sentence in English. */
export const relayRevokedMessage = (): string => inEnglish(RELAY_REVOKED.message);

/** A problem the status says in place of its usual line: a headline and a sentence. */
export interface StatusProblem {
  title: string;
  message: string;
}

/** What the status is computed from. */
export interface AccountFacts {
  session: SessionInfo | undefined;
  health: TokenHealth;
  /** Why the session is not used with the platform the settings name, if it is not. */
  otherPlatform: string | undefined;
  /** An activation attempt is awaited. */
  activating: boolean;
  /** Why the awaited attempt's last activation call was refused. */
  activationRefusal: Said | undefined;
  /** How the last attempt ended without connecting, until the next one starts. */
  endedAttempt: string | undefined;
  /**
   * Relay mode: the relay's host, why events cannot arrive (revoked), and how long its stream
   * has been failing to connect.
   */
  relay:
    | { host: string; problem: StatusProblem | undefined; outage: Outage | undefined }
    | undefined;
  /** Since when the platform has not answered Callbar's requests. */
  platformOutage: Outage | undefined;
  /** Why the loopback receiver is not listening. */
  receiverProblem: string | undefined;
  /** Why the webhook secret could not be read. */
  webhookProblem: string | undefined;
  acceptUnauthenticatedEvents: boolean;
  /** The record of the account connected before. */
  history: AccountHistory | undefined;
  /** The platform the settings name. */
  baseUrl: string;
}

export function accountStatus(facts: AccountFacts): AccountStatus {
  const status = withSwitch(facts, accountState(facts));
  // An attempt that ended unconnected: its link must not be used; said until the next one.
  if (
    facts.endedAttempt &&
    (status.state === 'not-connected' || status.state === 'needs-activation')
  ) {
    const message = status.message
      ? inEnglish(
          said('errors:attempt.twoSentences', {
            first: spokenSaid(status.message),
            second: spokenSaid(facts.endedAttempt),
          }),
        )
      : facts.endedAttempt;
    return { ...status, message };
  }
  // A receiver that cannot listen concerns every state; say so unless something else is said.
  const problem = facts.relay ? facts.relay.problem?.message : facts.receiverProblem;
  const withProblem = problem && !status.message ? { ...status, message: problem } : status;
  const withReceiver = facts.relay ? { ...withProblem, relay: facts.relay.host } : withProblem;
  // A keychain that cannot give the webhook secret: said once, by the vault-unavailable state.
  const eventsWarning = facts.acceptUnauthenticatedEvents
    ? unauthenticatedEventsWarning()
    : status.state === 'vault-unavailable'
      ? undefined
      : facts.webhookProblem;
  const withWarning = eventsWarning
    ? { ...withReceiver, events_warning: eventsWarning }
    : withReceiver;
  return withOutages(facts, withWarning);
}

/**
 * A connected status says what is away meanwhile: the platform (its requests fail), the relay's
 * stream (call events wait there). Offline already says the platform is away in its own words.
 */
function withOutages(facts: AccountFacts, status: AccountStatus): AccountStatus {
  if (status.state !== 'connected' && status.state !== 'offline') return status;
  const platform = status.state === 'connected' ? facts.platformOutage : undefined;
  const relay = facts.relay?.outage;
  return {
    ...status,
    ...(platform
      ? {
          platform_unreachable: {
            since: new Date(platform.since).toISOString(),
            message: inEnglish(
              said('errors:account.platformUnreachable', { reason: platform.reason }),
            ),
          },
        }
      : {}),
    ...(relay && facts.relay
      ? {
          events_delayed: {
            since: new Date(relay.since).toISOString(),
            message: inEnglish(
              said('errors:relay.eventsDelayed', { host: facts.relay.host, reason: relay.reason }),
            ),
          },
        }
      : {}),
  };
}

/** The status, saying so when its account is not the one connected before (unacknowledged). */
function withSwitch(facts: AccountFacts, status: AccountStatus): AccountStatus {
  const { tenant_id, user_extension } = status;
  if (tenant_id === undefined || user_extension === undefined) return status;
  const base_url = facts.session?.base_url ?? facts.baseUrl;
  const change = accountSwitch(facts.history, { tenant_id, user_extension, base_url });
  return change ? { ...status, account_switch: change } : status;
}

function accountState(facts: AccountFacts): AccountStatus {
  const { session, health } = facts;
  const identity = session
    ? {
        tenant_id: session.tenant_id,
        user_extension: session.user_extension,
        access_token_expires_at: new Date(session.expires_at).toISOString(),
      }
    : {};
  if (health.kind === 'vault-unavailable') {
    return { state: 'vault-unavailable', ...identity, message: health.message };
  }
  if (facts.activating) {
    const refusal = facts.activationRefusal;
    return refusal
      ? {
          state: 'activating',
          ...identity,
          message: inEnglish(said('errors:attempt.waiting', { refusal, hint: REFUSAL_HINT_SAID })),
        }
      : { state: 'activating', ...identity };
  }
  if (facts.otherPlatform) {
    return { state: 'needs-activation', ...identity, message: facts.otherPlatform };
  }
  // Revoked at the relay: no call event can arrive until the person connects again.
  if (session && facts.relay?.problem) {
    return { state: 'needs-activation', ...identity, ...facts.relay.problem };
  }
  if (health.kind === 'revoked') {
    return { state: 'needs-activation', ...health.identity, message: health.message };
  }
  if (!session) return { state: 'not-connected' };
  if (health.kind === 'offline') return { state: 'offline', ...identity, message: health.message };
  return { state: 'connected', ...identity };
}
