/**
 * What a dial's destination must pass before it is placed, and the link that waits for the
 * person's yes. A link is read in the region (and with the vanity setting) of the moment it
 * arrives; the person may change their country while its confirmation is open, often because the
 * confirmation showed them the number read in the wrong one. The waiting link is then read again
 * as numbers are read now: a confirmation never dials the old country's number. A reading that
 * dials something else is a new confirmation (a new id: a yes given to the old one dials
 * nothing); one the policy now refuses is dropped.
 */
import { randomUUID } from 'node:crypto';
import type { CountryCode } from 'libphonenumber-js/max';
import type { CallSource, DialTarget, PendingDial } from '../../../src-shared/contract';
import {
  checkDialPolicy,
  linkAskReason,
  refuseServiceCodeLink,
  type DialPolicy,
} from '../numbers/destination-class';

/** The settings a destination is checked against (calls-service.ts CallSettings). */
export interface DialChecks extends DialPolicy {
  region: CountryCode;
  vanity_numbers: boolean;
  confirm_web_links: boolean;
  link_policy?: DialPolicy;
}

/** A link waiting for the person's yes, with what it was read from and how. */
export interface WaitingLink {
  dial: PendingDial;
  at: number;
  /** The link as it arrived (read again when the region changes). */
  input: string;
  region: CountryCode;
  vanity: boolean;
}

/**
 * Checks `target` against the dialling policy (and, for a link, the link policy and the service
 * code rule); for a link that must ask (a reason, or "ask before dialling links"), the dial that
 * waits. `ask`: ask whatever the setting says (a link the person has not yet said yes to).
 * @throws CallbarError `dial_not_allowed` or `link_refused`.
 */
export function checkDial(
  target: DialTarget,
  source: CallSource,
  settings: DialChecks,
  link?: string,
  ask = false,
): PendingDial | undefined {
  checkDialPolicy(target, settings, settings.region);
  if (source !== 'tel-link') return undefined;
  if (settings.link_policy) {
    checkDialPolicy(target, settings.link_policy, settings.region, {
      classes: 'link_allowed_classes',
      countries: 'link_allowed_countries',
    });
  }
  refuseServiceCodeLink(target);
  const reason = linkAskReason(target, settings.region);
  if (reason === undefined && !settings.confirm_web_links && !ask) return undefined;
  return {
    id: randomUUID(),
    target,
    source,
    ...(link ? { link: link.length > 80 ? `${link.slice(0, 79)}…` : link } : {}),
    ...(reason !== undefined ? { reason } : {}),
  };
}

/** A link waiting from now on. */
export function waitingLink(
  dial: PendingDial,
  input: string,
  settings: DialChecks,
  at: number,
): WaitingLink {
  return { dial, at, input, region: settings.region, vanity: settings.vanity_numbers };
}

/**
 * `waiting` as numbers are read now (`read`: the one reader with the settings now): itself when
 * nothing changed how it reads; the same dial when it reads the same; a new one (new id) when it
 * dials something else or asks for another reason; undefined when it is no longer allowed or no
 * number. Never throws.
 */
export function rereadLink(
  waiting: WaitingLink,
  settings: DialChecks,
  read: (input: string) => DialTarget,
): WaitingLink | undefined {
  if (waiting.region === settings.region && waiting.vanity === settings.vanity_numbers) {
    return waiting;
  }
  let dial: PendingDial | undefined;
  try {
    const { source, link } = waiting.dial;
    dial = checkDial(read(waiting.input), source, settings, link, true);
  } catch {
    return undefined;
  }
  if (!dial) return undefined;
  const same = JSON.stringify({ ...dial, id: '' }) === JSON.stringify({ ...waiting.dial, id: '' });
  return waitingLink(same ? waiting.dial : dial, waiting.input, settings, waiting.at);
}
