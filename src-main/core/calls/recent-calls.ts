/**
 * The calls as the window, the tray and the CLI show them: each with the user's note, its
 * party's number shown as numbers are shown in the region now (numbers/number-format.ts: a
 * region change shows every call again in it), and a Clear that can be undone for CLEAR_UNDO_MS
 * (recent-clearing.ts: the calls and their notes are kept until then, then dropped).
 */
import type { CountryCode } from 'libphonenumber-js/max';
import type { Call, CallsSnapshot } from '../../../src-shared/contract';
import type { Logger } from '../log/logger';
import type { Translate } from '../text/said';
import { shownNumber } from '../numbers/number-format';
import { partyDisplay } from './call-party';
import type { CallNotes } from './call-notes';
import type { CallTracker } from './call-tracker';

/** How long a clear of the recent calls can be undone (its calls and notes are kept until then). */
export const CLEAR_UNDO_MS = 10_000;

/** A party's number as shown: in words, and alone. */
type ShownParty = Pick<Call['party'], 'display' | 'number_shown'>;

export class RecentCalls {
  readonly #tracker: CallTracker;
  readonly #notes: CallNotes | undefined;
  readonly #region: () => CountryCode;
  readonly #log: Logger;
  #settleTimer: NodeJS.Timeout | undefined;
  /** Party numbers as shown, remembered for one region and language (the list repeats them). */
  #shown: { wording: string; known: Map<string, ShownParty> } = { wording: '', known: new Map() };

  /** `settings().region`: the user's region now (the calls service's live settings). */
  constructor(options: {
    tracker: CallTracker;
    notes?: CallNotes | undefined;
    settings: () => { region: CountryCode };
    log: Logger;
  }) {
    this.#tracker = options.tracker;
    this.#notes = options.notes;
    this.#region = () => options.settings().region;
    this.#log = options.log;
  }

  /**
   * The current and recent calls as shown (why each ended worded by `words`; none: English), and
   * the clear that can still be undone.
   */
  view(words?: Translate): Omit<CallsSnapshot, 'pending'> {
    const { current, recent } = this.#tracker.view(words);
    const cleared = this.#tracker.pendingClear();
    return {
      current: current.map((call) => this.shown(call, words)),
      recent: recent.map((call) => this.shown(call, words)),
      ...(cleared
        ? {
            cleared: {
              count: cleared.count,
              undo_until: new Date(cleared.until_ms).toISOString(),
            },
          }
        : {}),
    };
  }

  /** Clears the recent calls, undoably; a timer drops them (and their notes) afterwards. */
  async clear(): Promise<void> {
    this.#tracker.reload();
    await this.#dropNotes(this.#tracker.clearRecent(CLEAR_UNDO_MS));
    clearTimeout(this.#settleTimer);
    this.#settleTimer = setTimeout(() => void this.settle(), CLEAR_UNDO_MS + 50);
    this.#settleTimer.unref();
  }

  /**
   * Brings back the calls of the last clear.
   * @throws CallbarError `nothing_to_undo` when it can no longer be undone.
   */
  undo(): void {
    this.#tracker.reload();
    this.#tracker.undoClear();
    clearTimeout(this.#settleTimer);
  }

  /** Drops the calls (and notes) of a clear whose undo time is over; never throws. */
  async settle(): Promise<void> {
    try {
      await this.#dropNotes(this.#tracker.settleClearing());
    } catch (error) {
      this.#log.warn('the notes of cleared calls could not be removed', { error });
    }
  }

  close(): void {
    clearTimeout(this.#settleTimer);
  }

  async #dropNotes(callIds: string[]): Promise<void> {
    if (callIds.length > 0) await this.#notes?.remove(callIds);
  }

  /**
   * A call as shown: its note, and its party's number as numbers are shown in the region now (in
   * `words`, `display`, with a written extension; and as the number alone, `number_shown`): the
   * one way a call is shown, in the lists and as a dial's answer.
   */
  shown(call: Call, words: Translate | undefined): Call {
    const note = this.#notes?.note(call.id);
    const { number, extension } = call.party;
    const shown = number
      ? { ...call, party: { ...call.party, ...this.#shownNumber(number, extension, words) } }
      : call;
    return note ? { ...shown, note } : shown;
  }

  #shownNumber(number: string, extension: string | undefined, words?: Translate): ShownParty {
    const region = this.#region();
    const wording = `${region} ${words?.locale ?? 'en'}`;
    if (this.#shown.wording !== wording) this.#shown = { wording, known: new Map() };
    const known = this.#shown.known;
    const key = extension ? `${number} ${extension}` : number;
    let shown = known.get(key);
    if (shown === undefined) {
      if (known.size > 1000) known.clear();
      shown = {
        display: partyDisplay(number, region, extension, words),
        number_shown: shownNumber(number, region),
      };
      known.set(key, shown);
    }
    return shown;
  }
}
