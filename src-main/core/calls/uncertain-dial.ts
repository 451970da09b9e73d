/**
 * Whether a dial that failed may still have been placed: no answer in time, or an error the
 * platform's side gave after it may have done the work (a gateway's 502 or 504 for an answer it
 * lost, a 500). Such a dial is followed as one whose outcome is unknown (the platform's events
 * attach to it if it rang), not recorded as failed: the call it placed was a second record beside
 * the failed one, with `{id}`-only events an "Unknown caller" calling the user. A 503 and every
 * 4xx say the request was not taken: failed.
 */
import { ApiError, TimeoutError } from '../api/api-errors';
import { CallbarError } from '../errors';
import { said } from '../text/said';

/** 5xx answers after which the platform may have placed the call. */
const MAYBE_DONE = new Set([500, 502, 504]);

/** The `dial_uncertain` error a dial that failed with `error` ends in; undefined: it failed. */
export function uncertainDial(error: unknown): CallbarError | undefined {
  const sentence =
    error instanceof TimeoutError
      ? said('errors:calls.dialUncertain')
      : error instanceof ApiError && MAYBE_DONE.has(error.status)
        ? said('errors:calls.dialUncertainError', { status: error.status })
        : undefined;
  if (!sentence) return undefined;
  const { details } = error as CallbarError;
  return new CallbarError('dial_uncertain', sentence, {
    cause: error,
    ...(details ? { details } : {}),
  });
}
