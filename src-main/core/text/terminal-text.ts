/**
 * What the command line prints on a terminal. Two layers, so a command cannot forget either:
 * every cell of a table and every outside value in a sentence is a field (`terminalField`: shown
 * on one line, its controls as escapes, so it cannot start a new line or cell, move the cursor,
 * set the title, write the clipboard, plant a link or turn text around); and everything written
 * at all passes `terminalOutput`, which shows every control and bidi character but the line feeds
 * the CLI itself puts between lines. JSON passes the same way unchanged in meaning: JSON has no
 * raw line feed, and the escape shown is the one JSON reads back as the same character.
 *
 * No bidi control reaches the terminal, so nothing a name holds can reorder the number beside it:
 * numbers print left to right as written.
 */
import { showControls, showControlsKeepingLines } from './visible-controls';

/** One value from outside (a name, a number, a platform's sentence) as one line of plain text. */
export function terminalField(value: string | number | null | undefined): string {
  return value === null || value === undefined ? '' : showControls(String(value));
}

/** A whole output (lines of text, or one JSON document) as the terminal should get it. */
export function terminalOutput(text: string): string {
  return showControlsKeepingLines(text);
}
