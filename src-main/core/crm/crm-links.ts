/**
 * The CRM links the settings offer (`crm_links`), opened for a call's other party or a contact:
 * the address is built here from the template and the party (crm-template.ts) and handed to the
 * shell's opener, whose allow-list takes only https addresses at a template's origin. With
 * `crm_open_on_connect`, the first link opens by itself when a call connects: once per call, and
 * at most AUTO_OPEN_RATE, so a flood of call events (forged, or a busy line) cannot open a
 * hundred browser tabs.
 */
import type { Call, CallsSnapshot, CrmLinkOffer, CrmParty } from '../../../src-shared/contract';
import { TokenBucket, type Rate } from '../calls/token-bucket';
import { originForLog } from '../http/origin-for-log';
import { CallbarError, errorMessage } from '../errors';
import type { Logger } from '../log/logger';
import { summarizedWarnings, type SummarizedWarnings } from '../log/summarized-warnings';
import { crmAddress, crmLinkLabel, type CrmValues } from './crm-template';
import { said } from '../text/said';

/** Links opened by themselves: two at once, then one a minute. */
export const AUTO_OPEN_RATE: Rate = { burst: 2, perSecond: 1 / 60 };

/** What the placeholders are filled with for `party`. */
export function crmValues(party: CrmParty): CrmValues {
  const { number } = party;
  return {
    number,
    e164: /^\+[1-9]\d{5,14}$/.test(number) ? number : '',
    extension: /^\d{2,6}$/.test(number) ? number : '',
    ...(party.name ? { name: party.name } : {}),
    ...(party.company ? { company: party.company } : {}),
  };
}

export interface CrmLinksOptions {
  /** The templates set now (the setting, read at each use: a change applies at once). */
  templates: () => readonly string[];
  /** Whether the first link opens by itself when a call connects. */
  openOnConnect: () => boolean;
  /** Opens an address in the system browser (the shell's allow-listed opener). */
  open: (url: string) => Promise<void>;
  log: Logger;
  now?: () => number;
  rate?: Rate;
}

export class CrmLinks {
  readonly #options: CrmLinksOptions;
  readonly #autoOpens: TokenBucket;
  readonly #refused: SummarizedWarnings;
  /** Calls seen connected (so each opens once); only those the latest snapshot holds. */
  #connected = new Set<string>();

  constructor(options: CrmLinksOptions) {
    this.#options = options;
    this.#autoOpens = new TokenBucket(options.rate ?? AUTO_OPEN_RATE, options.now ?? Date.now);
    this.#refused = summarizedWarnings(options.log, 'CRM links not opened by themselves (summary)');
  }

  /** The links offered, each under its host. */
  offers(): CrmLinkOffer[] {
    return this.#options.templates().map((template, index) => ({
      index,
      label: crmLinkLabel(template),
    }));
  }

  /**
   * Opens link `index` for `party`.
   * @throws CallbarError `crm_link_unknown` (no such link), `crm_link_unusable` (the address
   * cannot be built: an invalid template, values too long, a value with half a character, or a
   * value "." or ".." that would be a step in the path), or
   * the opener's refusal.
   */
  async open(index: number, party: CrmParty): Promise<void> {
    const template = this.#options.templates()[index];
    if (template === undefined) {
      throw new CallbarError('crm_link_unknown', said('errors:crm.unknownLink'));
    }
    const address = crmAddress(template, crmValues(party));
    if (!('url' in address)) {
      const values = { label: crmLinkLabel(template), party: party.name ? 'contact' : 'number' };
      throw new CallbarError(
        'crm_link_unusable',
        address.problem === 'unencodable'
          ? said('errors:crm.cannotBuild', values)
          : address.problem === 'path-step'
            ? said('errors:crm.pathStep', values)
            : said('errors:crm.unusable', values),
      );
    }
    const { url } = address;
    this.#options.log.info('opening a CRM link', { to: originForLog(url) });
    await this.#options.open(url);
  }

  /**
   * Marks the calls connected at start-up as seen (the account's calls, as the call log holds
   * them): only calls connecting from now on open, not one that was connected before a restart.
   */
  seed(calls: readonly Pick<Call, 'id' | 'state'>[]): void {
    for (const call of calls) {
      if (call.state === 'connected') this.#connected.add(call.id);
    }
  }

  /** Opens the first link for each call that connected since the last snapshot (when set to). */
  callsChanged(snapshot: CallsSnapshot): void {
    const present = new Set(snapshot.current.map((call) => call.id));
    for (const id of this.#connected) if (!present.has(id)) this.#connected.delete(id);
    for (const call of snapshot.current) {
      if (call.state !== 'connected' || this.#connected.has(call.id)) continue;
      this.#connected.add(call.id);
      if (!this.#options.openOnConnect() || this.#options.templates().length === 0) continue;
      if (!call.party.number) continue;
      if (!this.#autoOpens.take()) {
        this.#refused.warn(
          'too_fast',
          'a CRM link was not opened by itself: calls connect too fast',
          {
            per_minute: Math.round((this.#options.rate ?? AUTO_OPEN_RATE).perSecond * 60),
          },
        );
        continue;
      }
      const { number, name, company } = call.party;
      this.open(0, {
        number,
        ...(name ? { name } : {}),
        ...(company ? { company } : {}),
      }).catch((error: unknown) =>
        this.#options.log.warn('the CRM link could not be opened', { error: errorMessage(error) }),
      );
    }
  }
}
