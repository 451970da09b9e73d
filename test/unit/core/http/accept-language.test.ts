import { describe, expect, it } from 'vitest';
import { acceptedLanguages } from '../../../../src-main/core/http/accept-language';

describe('a browser’s languages (Accept-Language)', () => {
  it('lists the tags best first, without * and refused ones', () => {
    expect(acceptedLanguages('de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7')).toEqual([
      'de-DE',
      'de',
      'en-US',
      'en',
    ]);
    expect(acceptedLanguages('en;q=0.5, de-AT , fr;q=0, *;q=0.1')).toEqual(['de-AT', 'en']);
    expect(acceptedLanguages(undefined)).toEqual([]);
    expect(acceptedLanguages('<script>,de')).toEqual(['de']);
  });
});
