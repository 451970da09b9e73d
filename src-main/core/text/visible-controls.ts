/**
 * Characters that act instead of showing, and their visible form. A terminal acts on C0 (ESC, CR,
 * LF, TAB, BEL…), DEL and C1 (U+009B is a one-byte CSI); every display reorders text around the
 * bidi controls (U+202E turns what follows around), and U+2028/U+2029 break lines. Text someone
 * else wrote (a coworker's contact, a platform's answer, a call event) shows each of them as its
 * `\uXXXX` escape: readable, one form for all, and in JSON the same escape means the same
 * character, so a JSON document stays exactly what it was.
 */

/** C0 controls, DEL, C1 controls. */
const CONTROLS = '\\u0000-\\u001f\\u007f-\\u009f';
/** Bidi embeddings, overrides, isolates and marks (LRE…RLO, LRI…PDI, LRM, RLM, ALM). */
const BIDI_CONTROLS = '\\u202a-\\u202e\\u2066-\\u2069\\u200e\\u200f\\u061c';
/** The Unicode line and paragraph separators. */
const LINE_SEPARATORS = '\\u2028\\u2029';

/** Every character that acts instead of showing. */
const ACTING_CHARACTERS = new RegExp(`[${CONTROLS}${BIDI_CONTROLS}${LINE_SEPARATORS}]`, 'g');

/** `\u001b` for ESC: the escape JSON and JavaScript write for it. */
export function escapeOf(character: string): string {
  return `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** One piece of text as one line: every acting character, line breaks too, shown as its escape. */
export function showControls(text: string): string {
  return text.replace(ACTING_CHARACTERS, escapeOf);
}

/** A block of lines: the same, but its line feeds stay line breaks. */
export function showControlsKeepingLines(text: string): string {
  return text.replace(ACTING_CHARACTERS, (character) =>
    character === '\n' ? character : escapeOf(character),
  );
}
