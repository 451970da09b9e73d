/**
 * Where the search's "Dial …" row goes (placeDialRow): first for a number typed in digits; after
 * the contacts the query strongly matches for a number read from letters (vanity numbers on),
 * so "030 Hanna" + Enter calls Hanna, not 030 42662.
 */
import { describe, expect, it } from 'vitest';
import type { DialTarget, SearchHit } from '../../../../src-shared/contract';
import { placeDialRow } from '../../../../src-main/core/directory/dial-row';

const numbering = () => ({ lengths: new Set([3]) });

const target = (destination: string): DialTarget => ({
  destination,
  display: destination,
  kind: 'external',
  class: 'national',
  country: 'DE',
  e164: destination,
  description: 'A number in Germany.',
});

/** A hit of the given strength (what placeDialRow reads of it). */
const hit = (match: SearchHit['match']) => ({ match }) as unknown as SearchHit;

describe('the dial row', () => {
  it('comes first for a number typed in digits, whatever the hits', () => {
    expect(placeDialRow(target('+49301234567'), [hit('prefix')], numbering, '030 1234567')).toEqual(
      { dial: target('+49301234567') },
    );
  });

  it('comes after the strong hits for a number read from letters, and first without them', () => {
    const vanity = target('+493042662');
    expect(
      placeDialRow(vanity, [hit('prefix'), hit('exact'), hit('fuzzy')], numbering, '030 Hanna'),
    ).toEqual({ dial: vanity, dial_at: 2 });
    expect(placeDialRow(vanity, [hit('infix')], numbering, '1-800-FLOWERS')).toEqual({
      dial: vanity,
    });
    // A link is no vanity number, whatever letters its scheme has.
    expect(placeDialRow(vanity, [hit('prefix')], numbering, 'tel:+493042662')).toEqual({
      dial: vanity,
    });
  });
});
