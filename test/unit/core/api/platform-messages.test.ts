/** The platform's framework jargon, translated once; anything else passes through unchanged. */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../src-main/core/api/api-errors';
import {
  explainDetail,
  explainPlatformError,
  platformMessage,
} from '../../../../src-main/core/api/platform-messages';
import { CallbarError, describeError } from '../../../../src-main/core/errors';
import { translatorFor } from '../../../../src-main/core/text/translators';

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

  it('says a phonebook name taken by its attr, whatever the detail says, in the user’s language', () => {
    const detail = 'A phonebook with the description "Team" already exists.';
    expect(explainDetail(detail, 'description.unique_description')).toEqual({
      sentence: 'Another phonebook already has this name; choose another.',
      field: 'description',
    });
    expect(
      explainDetail(detail, 'description.unique_description', translatorFor('de', 'errors'))
        .sentence,
    ).toBe('Ein anderes Telefonbuch hat bereits diesen Namen; wählen Sie einen anderen.');
    // An attr code no rule knows (or one on Object's prototype) leaves the detail as it is.
    expect(platformMessage(detail, 'description.constructor')).toBe(detail);
  });

  it('leaves the platform’s own sentences alone', () => {
    const own = 'Speed dial 7341 is already used by Ada Lovelace.';
    expect(platformMessage(own, 'speed_dial')).toBe(own);
  });
});

describe('explainPlatformError', () => {
  it('reads a name every object has as the platform’s word, never as a function', () => {
    // "constructor" and "toString" looked up in the tables' prototypes: the sentence had
    // "function Object() { [native code] }" in it.
    expect(platformMessage('No constructor matches the given query.')).toBe(
      platformMessage('No Gadget matches the given query.'),
    );
    expect(platformMessage('No toString matches the given query.')).not.toMatch(/function|native/);
    const error = new ApiError(
      400,
      {
        type: 'validation_error',
        errors: [
          {
            code: 'unique',
            detail: 'The fields phonebook, constructor must make a unique set.',
            attr: 'non_field_errors',
          },
          { code: 'invalid', detail: 'Not a valid value.', attr: 'toString' },
          { code: 'invalid', detail: 'Too long.', attr: '__proto__' },
        ],
      },
      'POST /v3/phonebook/contact/',
    );
    const described = describeError(explainPlatformError(error));
    expect(JSON.stringify(described)).not.toMatch(/function|native code/);
    expect(described.fields?.['toString']).toBe('Not a valid value.');
    expect(Object.hasOwn(described.fields ?? {}, '__proto__')).toBe(true);
    const sent = JSON.parse(JSON.stringify(described)) as { fields: Record<string, string> };
    expect(Object.getOwnPropertyDescriptor(sent.fields, '__proto__')?.value).toBe('Too long.');
  });

  it('turns every detail into words, naming each field with its own sentence', () => {
    const error = new ApiError(
      400,
      {
        type: 'validation_error',
        errors: [
          {
            code: 'does_not_exist',
            detail: 'Invalid pk "99" - object does not exist.',
            attr: 'phonebook',
          },
          { code: 'unique', detail: 'Speed dial 7341 is already used by Ada.', attr: 'speed_dial' },
        ],
      },
      'POST /v3/phonebook/contact/',
    );
    const explained = explainPlatformError(error);
    expect(explained).toBeInstanceOf(CallbarError);
    expect(describeError(explained)).toEqual({
      code: 'does_not_exist',
      message:
        'There is no phonebook with id 99 (or you may not use it). Speed dial 7341 is already used by Ada.',
      field: 'phonebook',
      fields: {
        phonebook: 'There is no phonebook with id 99 (or you may not use it).',
        speed_dial: 'Speed dial 7341 is already used by Ada.',
      },
    });
  });

  it('puts a unique-together rule’s form-wide error (non_field_errors) on the field it is about', () => {
    const error = new ApiError(
      400,
      {
        type: 'validation_error',
        errors: [
          {
            code: 'unique',
            detail: 'The fields phonebook, number must make a unique set.',
            attr: 'non_field_errors',
          },
        ],
      },
      'POST /v3/phonebook/contact/',
    );
    expect(describeError(explainPlatformError(error))).toEqual({
      code: 'unique',
      message: 'Another contact in this phonebook already has this number.',
      field: 'number',
      fields: { number: 'Another contact in this phonebook already has this number.' },
    });
    // Another field of a unique set is named in its own words; a set of several stays form-wide.
    expect(
      explainDetail(
        'The fields phonebook, secondary_number must make a unique set.',
        'non_field_errors',
      ),
    ).toEqual({
      sentence: 'Another contact in this phonebook already has this second number.',
      field: 'secondary_number',
    });
    expect(
      explainDetail('The fields tenant, a, b must make a unique set.', 'non_field_errors'),
    ).toEqual({ sentence: 'An item with these values already exists.', field: undefined });
  });

  it('leaves an error without details as it is (its message is already a sentence)', () => {
    const forbidden = new ApiError(403, undefined, 'DELETE /v3/phonebook/contact/bulk_delete/');
    expect(explainPlatformError(forbidden)).toBe(forbidden);
  });
});
