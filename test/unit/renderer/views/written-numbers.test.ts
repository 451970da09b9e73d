import { describe, expect, it } from 'vitest';
import { numbersIn } from '../../../../src-renderer/src/views/written-numbers';

/** The numbers `numbersIn` finds in `sentence`, after checking its parts join to the sentence. */
function found(sentence: string): string[] {
  const parts = numbersIn(sentence);
  expect(parts.map(({ text }) => text).join('')).toBe(sentence);
  return parts.filter(({ number }) => number).map(({ text }) => text);
}

describe('numbersIn: the phone numbers a sentence core said shows, each kept on one line', () => {
  it('finds a number as core shows it or as it was typed, with its spaces and marks', () => {
    expect(
      found(
        'Callbar ist so eingestellt, dass es Nummern im Ausland wählt, daher hat es +49 30 / 7654322 nicht gewählt.',
      ),
    ).toEqual(['+49 30 / 7654322']);
    expect(found('Dial (202) 555-0147 or +1 202 555 0147?')).toEqual([
      '(202) 555-0147',
      '+1 202 555 0147',
    ]);
  });

  it('ends a number at the sentence’s full stop and its last digit', () => {
    expect(found('It did not dial 030 1234567. 2 rows were left.')).toEqual(['030 1234567']);
    expect(found('(Setting: 030 1234567)')).toEqual(['030 1234567']);
  });

  it('leaves what a line cannot break inside, and counts, dates and times, as text', () => {
    expect(
      found('Speed dial 8104 calls 204; row 12: 3 fields, 1.234 contacts, 01.12.2026 10:30'),
    ).toEqual([]);
  });
});
