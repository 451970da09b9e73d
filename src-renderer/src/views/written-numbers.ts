/**
 * Where the window's text holds a phone number as it was written or shown (core formats numbers;
 * the window only keeps what reads as one on one line): digits and the marks numbers are written
 * with. Never read, matched or dialled here: that is core's (numbers/).
 */

/** The marks besides digits and spaces ("+49 30 / 7654322", "(202) 555-0147", "030.1234"). */
const MARKS = String.raw`+()./\-`;

/** A text that reads as a phone number as a whole (a file's cell). */
export const NUMBER_LIKE = new RegExp(String.raw`^[\d\s${MARKS}]{1,24}$`);

/** A run of digits and marks with single spaces between, from a digit (or "+", "("). */
const RUN = new RegExp(String.raw`[+(]?\d(?:[\d${MARKS}]|[ \u00a0](?=[\d${MARKS}]))*`, 'g');

/** Fewer digits, or no space inside: nothing a line could break (a speed dial, "204"). */
const NUMBER_DIGITS = 5;

/**
 * `sentence` in parts, each a number (`number: true`: one that reads as a phone number with a
 * space inside, which a line could break) or the text between; joined, they are the sentence.
 */
export function numbersIn(sentence: string): { text: string; number: boolean }[] {
  const parts: { text: string; number: boolean }[] = [];
  let done = 0;
  for (const run of sentence.matchAll(RUN)) {
    // A sentence's full stop ends the run ("… 030 1234567. 2 rows …"), so does its last digit,
    // and a time's hour is not its last group ("01.12.2026 10:30").
    const ended = run[0].search(/\.[ \u00a0]/);
    let text = ended < 0 ? run[0] : run[0].slice(0, ended);
    if (sentence.startsWith(':', run.index + text.length)) text = text.replace(/\s\S*$/, '');
    text = text.replace(/\D+$/, '');
    const digits = text.replace(/\D/g, '').length;
    if (!/\s/.test(text) || digits < NUMBER_DIGITS || !NUMBER_LIKE.test(text)) continue;
    if (run.index > done) parts.push({ text: sentence.slice(done, run.index), number: false });
    parts.push({ text, number: true });
    done = run.index + text.length;
  }
  if (done < sentence.length) parts.push({ text: sentence.slice(done), number: false });
  return parts;
}
