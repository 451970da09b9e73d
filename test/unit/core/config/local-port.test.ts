/**
 * A port option on a command line (the web preview's --port): a port, 0 for any, or a sentence
 * saying why not, in the reader's language.
 */
import { describe, expect, it } from 'vitest';
import { readPortOption } from '../../../../src-main/core/config/local-port';
import { sayWith } from '../../../../src-main/core/text/said';
import { translatorFor } from '../../../../src-main/core/text/translators';

const inEnglish = (text: ReturnType<typeof readPortOption>) =>
  typeof text === 'number' ? text : sayWith(translatorFor('en', 'errors'), text);
const inGerman = (text: ReturnType<typeof readPortOption>) =>
  typeof text === 'number' ? text : sayWith(translatorFor('de', 'errors'), text);

describe('readPortOption', () => {
  it('takes a port, and 0 where any free port will do', () => {
    expect(readPortOption('8080', '--port', true)).toBe(8080);
    expect(readPortOption('0', '--port', true)).toBe(0);
    expect(inEnglish(readPortOption('0', '--port', false))).toBe(
      '--port takes a port from 1024 to 65535, not "0".',
    );
  });

  it('refuses a port browsers refuse, saying why and which to take, in English and German', () => {
    expect(inEnglish(readPortOption('10080', '--port', true))).toBe(
      "--port 10080: web browsers refuse to connect to port 10080 (it is on the Fetch standard's list of blocked ports), so your browser could not reach Callbar there; choose another port, such as 10081.",
    );
    expect(inGerman(readPortOption('6669', '--port', true))).toBe(
      '--port 6669: Webbrowser verbinden sich nicht mit Port 6669 (er steht auf der Liste gesperrter Ports des Fetch-Standards), daher könnte Ihr Browser Callbar dort nicht erreichen; wählen Sie einen anderen Port, etwa 6670.',
    );
  });

  it('refuses what is not a port', () => {
    for (const text of ['abc', '80', '65536', '-1', '8080.5', '']) {
      expect(inGerman(readPortOption(text, '--port', true))).toBe(
        `--port erwartet einen Port von 1024 bis 65535 oder 0 für einen beliebigen freien Port, nicht „${text}“.`,
      );
    }
  });
});
