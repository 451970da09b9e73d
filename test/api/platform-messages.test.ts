/** The platform's framework jargon, translated once; anything else passes through unchanged. */
import { describe, expect, it } from 'vitest';
import { platformMessage } from '../../src-main/core/api/platform-messages';

describe('platformMessage', () => {
  it('names what an unknown reference points at', () => {
    expect(platformMessage('Invalid pk "99" - object does not exist.', 'phonebook')).toBe(
      'There is no phonebook with id 99 (or you may not use it).',
    );
    expect(platformMessage('Invalid pk "7" - object does not exist.', 'contact_ids.2')).toBe(
      'There is no contact with id 7 (or you may not use it).',
    );
  });

  it('says which kind of item was not found, in the user’s words', () => {
    expect(platformMessage('No PhonebookContact matches the given query.')).toMatch(
      /^This contact does not exist/,
    );
    expect(platformMessage('No Phonebook matches the given query.')).toMatch(
      /^This phonebook does not exist/,
    );
  });

  it('explains a page past the end', () => {
    expect(platformMessage('Invalid page.')).toBe(
      'That page is past the end of the list; ask for an earlier page.',
    );
  });

  it('leaves the platform’s own sentences alone', () => {
    const own = 'Speed dial 7341 is already used by Ada Lovelace.';
    expect(platformMessage(own, 'speed_dial')).toBe(own);
  });
});
