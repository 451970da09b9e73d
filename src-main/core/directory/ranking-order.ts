/**
 * The order the contact index numbers its contacts in, which is the order ties are broken in:
 * higher phonebook priority first, then the name word by word, then id. Stable counting sorts,
 * last key first, so ordering 100,000 contacts takes a few passes over arrays instead of string
 * comparisons.
 */
import type { DirectoryContact } from '../../../src-shared/contract';

/** A phonebook's priority: higher ranks first. Unknown phonebooks rank last. */
export type PriorityOf = (phonebook: number) => number | undefined;

/** Positions (below 2^20) packed under a 32-bit id in one double. */
const PACK = 2 ** 20;

/** Contact positions by id: one numeric sort of (id, position) packed in a number, when ids fit. */
function orderById(contacts: readonly DirectoryContact[]): Int32Array {
  // Contacts often come in id order already (the platform pages them so): nothing to sort.
  let sorted = true;
  for (let i = 1; i < contacts.length && sorted; i++)
    sorted = contacts[i - 1]!.id <= contacts[i]!.id;
  if (sorted) {
    const order = new Int32Array(contacts.length);
    for (let i = 0; i < order.length; i++) order[i] = i;
    return order;
  }
  const keys = new Float64Array(contacts.length);
  for (let i = 0; i < contacts.length; i++) {
    const id = contacts[i]!.id;
    if (!Number.isInteger(id) || id < 0 || id >= 2 ** 32 || contacts.length > PACK) {
      return Int32Array.from(contacts.keys()).sort((a, b) => contacts[a]!.id - contacts[b]!.id);
    }
    keys[i] = id * PACK + i;
  }
  keys.sort();
  const order = new Int32Array(keys.length);
  for (let i = 0; i < keys.length; i++) order[i] = keys[i]! % PACK;
  return order;
}

/** Contacts in ranking order, and where each phonebook priority starts in it. */
export interface RankingOrder {
  /** order[index]: the position in the contacts given of contact `index`. */
  order: Int32Array;
  /** The first index of each priority, best first, then the contact count. */
  groupStart: Int32Array;
}

/**
 * The contacts' positions in ranking order: by priority, then their first three name words (as
 * word ranks: `nameWords(k, into)` puts every contact's k-th, 0 for none; `words` bounds them),
 * then id. Yields
 * between its passes when `sliced`.
 */
export function* rankingOrder(
  contacts: readonly DirectoryContact[],
  priorityOf: PriorityOf | undefined,
  nameWords: (k: number, into: Int32Array) => void,
  words: number,
  sliced: boolean,
): Generator<void, RankingOrder> {
  const size = contacts.length;
  let order = orderById(contacts);
  const sortBy = (keys: Int32Array, buckets: number) => {
    const counts = new Int32Array(buckets + 1);
    for (let i = 0; i < size; i++) counts[keys[order[i]!]! + 1]!++;
    for (let b = 0; b < buckets; b++) counts[b + 1]! += counts[b]!;
    const sorted = new Int32Array(size);
    for (let i = 0; i < size; i++) {
      const contact = order[i]!;
      sorted[counts[keys[contact]!]!++] = contact;
    }
    order = sorted;
  };
  const keys = new Int32Array(size);
  for (let k = 2; k >= 0; k--) {
    if (sliced) yield;
    nameWords(k, keys);
    sortBy(keys, words);
  }
  if (sliced) yield;
  const priorities = new Float64Array(size);
  const rankOf = new Map<number, number>();
  for (let contact = 0; contact < size; contact++) {
    const priority = priorityOf?.(contacts[contact]!.phonebook) ?? -Infinity;
    priorities[contact] = priority;
    rankOf.set(priority, 0);
  }
  if (sliced) yield;
  const distinct = [...rankOf.keys()].sort((a, b) => b - a);
  distinct.forEach((priority, rank) => rankOf.set(priority, rank));
  for (let contact = 0; contact < size; contact++)
    keys[contact] = rankOf.get(priorities[contact]!)!;
  if (sliced) yield;
  sortBy(keys, distinct.length);
  const groupStart = new Int32Array(distinct.length + 1);
  for (let i = 0; i < size; i++) groupStart[keys[order[i]!]! + 1]!++;
  for (let g = 0; g < distinct.length; g++) groupStart[g + 1]! += groupStart[g]!;
  return { order, groupStart };
}
