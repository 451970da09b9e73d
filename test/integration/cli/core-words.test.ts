/**
 * Core's own refusals in the CLI's language: the CLI under `LANG=de_DE.UTF-8` (once the real bin)
 * prints a dial the dialling policy refuses and a settings file it cannot use in German; `--json`
 * keeps them English and byte for byte what English prints. A throwaway profile; no platform
 * needed (both are refused before anything is sent).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCallbar, runCallbarInProcess } from '../../support/cli-process';

const GERMAN = { LANG: 'de_DE.UTF-8' };
const ENGLISH = { LANG: 'en_US.UTF-8' };

describe("core's refusals in German (LANG=de_DE.UTF-8)", () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'callbar-cli-core-words-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('says a dial the policy refuses in German; --json is English and the same', async () => {
    const env = {
      CALLBAR_DATA_DIR: dataDir,
      CALLBAR_DIAL_ALLOWED_CLASSES: 'extension',
      CALLBAR_REGION: 'US',
    };
    const german = await runCallbar(['dial', '+49 30 1234567'], { ...env, ...GERMAN });
    expect(german.code).toBe(1);
    expect(german.stderr).toContain(
      'callbar: Callbar ist so eingestellt, dass es keine Nummern in anderen Ländern wählt, daher hat es +49 30 1234567 nicht gewählt.',
    );
    expect(german.stderr).toContain('(Einstellung dial_allowed_classes: extension.)');
    const english = await runCallbarInProcess(['dial', '+49 30 1234567'], { ...env, ...ENGLISH });
    expect(english.stderr).toContain(
      'callbar: Callbar is set not to dial numbers in other countries, so it did not dial +49 30 1234567.',
    );
    const json = await runCallbarInProcess(['dial', '+49 30 1234567', '--json'], {
      ...env,
      ...GERMAN,
    });
    const englishJson = await runCallbarInProcess(['dial', '+49 30 1234567', '--json'], {
      ...env,
      ...ENGLISH,
    });
    expect(json.stdout).toBe(englishJson.stdout);
    expect(json.stdout).toContain('Callbar is set not to dial numbers in other countries');
  }, 60_000);

  it('says a receiver port browsers refuse, why, and which to take, in German and English', async () => {
    // From the environment: the variable, the setting, why and another port.
    const fromEnv = { CALLBAR_DATA_DIR: dataDir, CALLBAR_RECEIVER_PORT: '10080' };
    const german = await runCallbarInProcess(['status'], { ...fromEnv, ...GERMAN });
    expect(german.code).not.toBe(0);
    expect(german.stderr).toContain(
      'Die Umgebungsvariable CALLBAR_RECEIVER_PORT setzt „receiver_port“ auf 10080, aber Webbrowser verbinden sich nicht mit Port 10080 (er steht auf der Liste gesperrter Ports des Fetch-Standards), daher könnte Ihr Browser Callbar dort nicht erreichen; wählen Sie einen anderen Port, etwa 10081.',
    );
    const english = await runCallbarInProcess(['status'], { ...fromEnv, ...ENGLISH });
    expect(english.stderr).toContain(
      'The environment variable CALLBAR_RECEIVER_PORT sets "receiver_port" to 10080, but web browsers refuse to connect to port 10080 (it is on the Fetch standard\'s list of blocked ports), so your browser could not reach Callbar there; choose another port, such as 10081.',
    );
    // From the settings file.
    writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ receiver_port: 6666 }));
    try {
      const file = await runCallbarInProcess(['status'], { CALLBAR_DATA_DIR: dataDir, ...GERMAN });
      expect(file.code).not.toBe(0);
      expect(file.stderr).toContain(
        '„receiver_port“ ist 6666, aber Webbrowser verbinden sich nicht mit Port 6666',
      );
      expect(file.stderr).toContain('wählen Sie einen anderen Port, etwa 6670.');
    } finally {
      rmSync(join(dataDir, 'settings.json'), { force: true });
    }
  }, 60_000);

  it('says a settings file it cannot use in German', async () => {
    writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ receiver_port: 80 }));
    try {
      const german = await runCallbarInProcess(['status'], {
        CALLBAR_DATA_DIR: dataDir,
        ...GERMAN,
      });
      expect(german.code).not.toBe(0);
      expect(german.stderr).toContain(
        '„receiver_port“ ist 80, muss aber eine ganze Zahl von 1024 bis 65535 sein. Korrigieren Sie die Datei',
      );
      const json = await runCallbarInProcess(['status', '--json'], {
        CALLBAR_DATA_DIR: dataDir,
        ...GERMAN,
      });
      const englishJson = await runCallbarInProcess(['status', '--json'], {
        CALLBAR_DATA_DIR: dataDir,
        ...ENGLISH,
      });
      expect(json.stdout).toBe(englishJson.stdout);
      expect(`${json.stdout}${json.stderr}`).not.toMatch(/[äöüß„]/);
    } finally {
      rmSync(join(dataDir, 'settings.json'), { force: true });
    }
  }, 60_000);
});
