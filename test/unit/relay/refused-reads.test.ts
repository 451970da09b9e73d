import { expect, it } from 'vitest';
import { refusedReads } from '../../../relay/refused-reads';

it("refuses a client's reads once its refusals are past the rate, until the bucket refills", () => {
  let now = 0;
  const reads = refusedReads({ burst: 3, perSecond: 1 }, () => now);
  for (let index = 0; index < 3; index += 1) {
    expect(reads.allowed('a')).toBe(true);
    reads.ended('a', 401);
  }
  expect(reads.allowed('a')).toBe(false);
  // Answered reads take nothing; neither do another client's.
  reads.ended('b', 200);
  expect(reads.allowed('b')).toBe(true);
  now += 1000;
  expect(reads.allowed('a')).toBe(true);
});

it('keeps at most maxClients buckets, forgetting the one unused the longest', () => {
  const reads = refusedReads({ burst: 1, perSecond: 0.001 }, () => 0, 2);
  reads.ended('a', 404);
  reads.ended('b', 404);
  reads.ended('a', 403);
  reads.ended('c', 401);
  expect(reads.size).toBe(2);
  // b was forgotten (it starts full again); a and c are still refused.
  expect(reads.allowed('b')).toBe(true);
  expect(reads.allowed('a')).toBe(false);
  expect(reads.allowed('c')).toBe(false);
});
