import { expect, it } from 'vitest';
import { refusedReads } from '../../../relay/refused-reads';

/** One GET of `client`, begun and answered with `status`; whether it was allowed. */
const read = (reads: ReturnType<typeof refusedReads>, client: string, status: number) => {
  const request = {};
  if (!reads.begin(client, request)) return false;
  reads.ended(client, request, status);
  return true;
};

it("refuses a client's reads once its refusals are past the rate, until the bucket refills", () => {
  let now = 0;
  const reads = refusedReads({ burst: 3, perSecond: 1 }, () => now);
  for (let index = 0; index < 3; index += 1) expect(read(reads, 'a', 401)).toBe(true);
  expect(read(reads, 'a', 401)).toBe(false);
  // Answered reads take nothing; neither do another client's.
  expect(read(reads, 'b', 200)).toBe(true);
  expect(read(reads, 'b', 200)).toBe(true);
  now += 1000;
  expect(read(reads, 'a', 401)).toBe(true);
});

it('counts the reads under way: many sent at once do not all find the one token left', () => {
  const reads = refusedReads({ burst: 3, perSecond: 0.001 }, () => 0);
  const requests = Array.from({ length: 10 }, () => ({}));
  // Before, each was checked against refusals already answered: all ten began.
  expect(requests.map((request) => reads.begin('a', request))).toEqual([
    ...Array<boolean>(3).fill(true),
    ...Array<boolean>(7).fill(false),
  ]);
  for (const request of requests.slice(0, 3)) reads.ended('a', request, 401);
  expect(reads.begin('a', {})).toBe(false);
});

it('a read answered (a stream whose credential is known) no longer counts, even if it lasts', () => {
  const reads = refusedReads({ burst: 2, perSecond: 0.001 }, () => 0);
  const streams = Array.from({ length: 5 }, () => ({}));
  for (const stream of streams) {
    expect(reads.begin('office', stream)).toBe(true);
    reads.ended('office', stream, 200);
    // Its close ends it again: nothing more.
    reads.ended('office', stream, undefined);
  }
  // A read closed before its answer counts as refused.
  const cut = {};
  expect(reads.begin('b', cut)).toBe(true);
  reads.ended('b', cut, undefined);
  expect(read(reads, 'b', 404)).toBe(true);
  expect(reads.begin('b', {})).toBe(false);
});

it('keeps at most maxClients buckets, forgetting the one unused the longest', () => {
  const reads = refusedReads({ burst: 2, perSecond: 0.001 }, () => 0, 2);
  read(reads, 'a', 404);
  read(reads, 'b', 404);
  read(reads, 'a', 403);
  read(reads, 'c', 401);
  read(reads, 'c', 401);
  expect(reads.size).toBe(2);
  // b was forgotten (it starts full again); a and c are still refused.
  expect(reads.begin('b', {})).toBe(true);
  expect(reads.begin('a', {})).toBe(false);
  expect(reads.begin('c', {})).toBe(false);
});
