/**
 * The contact index built gradually (ContactIndex.buildGradually: slices of work between yields)
 * is the index build() makes: the same contacts in the same order, the same hits for every query,
 * the same callers and speed dials, whatever the slice; and it does yield between slices.
 */
import { describe, expect, it } from 'vitest';
import {
  BUILD_PHASES,
  ContactIndex,
  DEFAULT_SLICE,
  type GradualBuildOptions,
} from '../../../../src-main/core/directory/contact-index';
import { generatedDirectory, typedQueries } from '../../../support/generated-directory';

const priorities = new Map([
  [1, 5],
  [2, 10],
  [3, 100],
]);
const options = { region: 'DE', priorityOf: (phonebook: number) => priorities.get(phonebook) };

/** Runs a gradual build to its end: the index and how often it yielded. */
function runGradually(
  contacts: Parameters<typeof ContactIndex.build>[0],
  gradual: GradualBuildOptions,
): { index: ContactIndex; yields: number } {
  const building = ContactIndex.buildGradually(contacts, gradual);
  for (let yields = 0; ; yields++) {
    const step = building.next();
    if (step.done) return { index: step.value, yields };
  }
}

/** Everything an index answers, for a list of queries. */
function answers(
  index: ContactIndex,
  contacts: ReturnType<typeof generatedDirectory>,
  queries: string[],
) {
  return {
    order: index.contacts.map((contact) => contact.id),
    hits: queries.map((query) => index.search(query, 50)),
    few: queries.map((query) => index.search(query, 5).map((hit) => hit.contact.id)),
    callers: contacts.flatMap((contact) =>
      [contact.number, contact.secondary_number].map((number) =>
        number ? (index.lookupByNumber(number)?.id ?? null) : null,
      ),
    ),
    speedDials: contacts.map((contact) =>
      contact.speed_dial === null ? null : (index.findBySpeedDial(contact.speed_dial)?.id ?? null),
    ),
  };
}

describe('ContactIndex.buildGradually', () => {
  const contacts = generatedDirectory(3_000);
  const queries = typedQueries(contacts, 300);
  const built = answers(ContactIndex.build(contacts, options), contacts, queries);

  it.each([1, 7, 499, DEFAULT_SLICE, Number.POSITIVE_INFINITY])(
    'gives the index build() gives, in slices of %s',
    (slice) => {
      const { index, yields } = runGradually(contacts, { ...options, slice });
      expect(index.size).toBe(contacts.length);
      expect(answers(index, contacts, queries)).toEqual(built);
      expect(yields).toBeGreaterThanOrEqual(BUILD_PHASES.length - 1);
    },
  );

  it('answers queries with hits (the comparison is not between two empty indexes)', () => {
    expect(built.hits.filter((hits) => hits.length > 0).length).toBeGreaterThan(queries.length / 2);
    expect(built.callers.filter((id) => id !== null).length).toBeGreaterThan(contacts.length / 2);
    expect(built.speedDials.some((id) => id !== null)).toBe(true);
  });

  it('yields once a phase with an infinite slice, and after every slice of a finite one', () => {
    expect(runGradually(contacts, { ...options, slice: Infinity }).yields).toBe(
      BUILD_PHASES.length - 1,
    );
    // Every phase reads every contact (or number) at least once: 3,000 / 100 slices each.
    expect(runGradually(contacts, { ...options, slice: 100 }).yields).toBeGreaterThan(
      BUILD_PHASES.length * 30,
    );
  });

  it('reads a slice size that is no whole number as the default or whole contacts', () => {
    const small = contacts.slice(0, 1_500);
    const byDefault = runGradually(small, options).yields;
    for (const slice of [Number.NaN, 0, -5]) {
      expect(runGradually(small, { ...options, slice }).yields).toBe(byDefault);
    }
    const { index, yields } = runGradually(small, { ...options, slice: 2.5 });
    expect(yields).toBe(runGradually(small, { ...options, slice: 2 }).yields);
    expect(index.size).toBe(small.length);
  });

  it('yields many times at 20,000 contacts with the default slice, and works on an empty set', () => {
    const many = generatedDirectory(20_000, 5);
    const { index, yields } = runGradually(many, options);
    expect(yields).toBeGreaterThan((BUILD_PHASES.length * 20_000) / DEFAULT_SLICE);
    expect(index.size).toBe(20_000);
    const empty = runGradually([], options);
    expect(empty.index.size).toBe(0);
    expect(empty.index.search('anne')).toEqual([]);
  });
});
