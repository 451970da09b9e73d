/**
 * The `callbar` CLI in the user's language: the CLI under `LANG=de_DE.UTF-8` (and the
 * `language` setting, and LC_ALL over LANG) against the simulator, with the session in the real
 * keychain of a throwaway profile. People read German (help, usage errors, tables, sentences and
 * core's errors); programs read `--json`, byte for byte the same as under English.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../simulator/index';
import { openVault } from '../../../src-main/core/vault/keytar-vault';
import { runCallbarInProcess } from '../../support/cli-process';
import { issuedSession, startSim } from '../../support/sim-harness';

const GERMAN = { LANG: 'de_DE.UTF-8' };
const ENGLISH = { LANG: 'en_US.UTF-8' };

describe('callbar in German (LANG=de_DE.UTF-8)', () => {
  let sim: RunningSimulator;
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    sim = await startSim({ contacts: 30 });
    dataDir = mkdtempSync(join(tmpdir(), 'callbar-cli-locale-'));
    await openVault({ dataDir }).save(await issuedSession(sim, sim.users[0]!));
    env = { CALLBAR_DATA_DIR: dataDir, CALLBAR_BASE_URL: sim.base_url };
  });
  afterAll(async () => {
    await openVault({ dataDir }).clear();
    rmSync(dataDir, { recursive: true, force: true });
    await sim.close();
  });

  const run = (args: string[], language: NodeJS.ProcessEnv) =>
    runCallbarInProcess(args, { ...env, ...language });

  it('helps in German: usage, groups, summaries, exit codes', async () => {
    const help = await run(['help'], GERMAN);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Aufruf: callbar BEFEHL \[ARGUMENTE\] \[--json\]\n/);
    expect(help.stdout).toContain('\nTelefonbücher:\n');
    expect(help.stdout).toContain('Ein Telefonbuch anlegen');
    expect(help.stdout).toContain('Exit-Codes: 0 OK, 1 fehlgeschlagen');
    const dial = await run(['help', 'dial'], GERMAN);
    expect(dial.stdout).toContain('Erst Ihr Telefon klingeln lassen, dann ZIEL anrufen.');
    // The values a help takes are filled in German too.
    expect(dial.stdout).toContain('Die CLI empfängt die Anrufereignisse der Telefonanlage nur');
    const english = await run(['help'], ENGLISH);
    expect(english.stdout).toMatch(/^Usage: callbar COMMAND \[ARGUMENTS\] \[--json\]\n/);
  });

  it('says a usage error in German (exit 2), with the suggestion', async () => {
    const typo = await run(['phonebooks', 'lsit'], GERMAN);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe(
      'callbar: unbekannter Befehl „phonebooks lsit“. Meinten Sie „callbar phonebooks list“?\n' +
        "Siehe 'callbar help'.\n",
    );
    const notANumber = await run(['contacts', 'show', 'abc'], GERMAN);
    expect(notANumber.code).toBe(2);
    expect(notANumber.stderr).toContain(
      'callbar: Die Kontakt-ID muss eine ganze Zahl sein, nicht „abc“.',
    );
  });

  it('shows the status, tables and counts in German; --json is the same bytes', async () => {
    const status = await run(['status'], GERMAN);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/^Verbunden als Nebenstelle \S+ \(\S+\)\./);
    const books = await run(['phonebooks', 'list'], GERMAN);
    expect(books.code).toBe(0);
    expect(books.stdout.split('\n')[0]).toMatch(
      /^ID\s+BEZEICHNUNG\s+PRIORITÄT\s+GETEILT\s+EIGENTÜMER$/,
    );
    expect(books.stdout).toMatch(/\n\d+ von \d+ Telefonbüch(?:ern|)$|Telefonbuch$/);

    for (const args of [['status'], ['phonebooks', 'list', '--all'], ['contacts', 'list']]) {
      const german = await run([...args, '--json'], GERMAN);
      const english = await run([...args, '--json'], ENGLISH);
      expect(german.code).toBe(english.code);
      expect(german.stdout).toBe(english.stdout);
    }
  }, 60_000);

  it("words core's errors in German; their --json stays English and the same", async () => {
    // The platform's "No PhonebookContact matches the given query.", explained in German.
    const missing = await run(['contacts', 'show', '999999'], GERMAN);
    expect(missing.code).toBe(6);
    expect(missing.stderr).toContain(
      'callbar: Dieser Kontakt existiert nicht (vielleicht wurde er gelöscht), oder Sie dürfen ihn nicht sehen.',
    );
    // A calls-service error by key: nothing to hang up.
    const hangup = await run(['hangup'], GERMAN);
    expect(hangup.code).toBe(1);
    expect(hangup.stderr).toContain(
      'callbar: Es gibt keinen laufenden Anruf, der aufgelegt werden könnte.',
    );
    for (const args of [['contacts', 'show', '999999'], ['hangup']]) {
      const german = await run([...args, '--json'], GERMAN);
      const english = await run([...args, '--json'], ENGLISH);
      expect(german.stdout).toBe(english.stdout);
      expect(german.stdout).not.toMatch(/[äöüß]/);
    }
  }, 60_000);

  it('says what a dialled number is, and how the call goes, in German', async () => {
    const dial = await run(['dial', '+12025550143'], GERMAN);
    expect(dial.code, dial.stderr).toBe(0);
    expect(dial.stdout).toMatch(
      /^Anruf an .+: Zuerst klingelt Ihr Telefon; nehmen Sie ab, dann wählt die Telefonanlage die Nummer\.\nDies ist eine Rufnummer (?:im Ausland )?\(Vereinigte Staaten\)\. Gewählt wird \+12025550143\.$/,
    );
    const hangup = await run(['hangup'], GERMAN);
    expect(hangup).toMatchObject({ code: 0, stdout: 'Aufgelegt.' });
  }, 60_000);

  it('says every word of a call in German: its party, its end, the table and the usage', async () => {
    const missing = await run(['dial'], GERMAN);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('„callbar dial“ braucht ZIEL.');
    const help = await run(['help', 'dial'], GERMAN);
    expect(help.stdout).toContain('callbar dial ZIEL [--follow]');
    expect((await run(['help', 'hangup'], GERMAN)).stdout).toContain('[TEILVERBINDUNG]');
    // The import's --map, as its German error says it ("--map erwartet FELD=SPALTE").
    expect((await run(['help', 'contacts', 'import'], GERMAN)).stdout).toContain(
      '[--map FELD=SPALTE]… [--encoding NAME] [--failures DATEI]',
    );
    // Another user's extension: core names it, in German.
    const extension = sim.users[1]!.extension;
    const dial = await run(['dial', extension], GERMAN);
    expect(dial.code, dial.stderr).toBe(0);
    expect(dial.stdout).toMatch(new RegExp(`^Anruf an Nebenstelle ${extension}: `));
    expect((await run(['hangup'], GERMAN)).code).toBe(0);
    // The call list another process wrote: its end in German, the headers too, no English.
    const calls = await run(['calls'], GERMAN);
    expect(calls.code, calls.stderr).toBe(0);
    expect(calls.stdout).toMatch(
      /BEGINN\s+RICHTUNG\s+GESPRÄCHSPARTNER\s+STATUS\s+TEILVERBINDUNGEN/,
    );
    expect(calls.stdout).toContain('beendet: Sie haben aufgelegt.');
    // (The party's label stored by another process, "Extension 202", is the number model's:
    // issue 41 words numbers where they are shown.)
    expect(calls.stdout).not.toMatch(/You hung up|CALL-LEGS/);
    // --json keeps the English, as every --json does.
    const json = await run(['calls', '--json'], GERMAN);
    expect(json.stdout).toContain('"reason":"You hung up."');
    // How a search matched, in German (in this computer's copy of the directory).
    expect((await run(['sync'], GERMAN)).code).toBe(0);
    const search = await run(['search', 'a'], GERMAN);
    expect(search.stdout).toMatch(/TREFFER/);
    expect(search.stdout).not.toMatch(/\b(prefix|infix|fuzzy|exact) \(/);
    // One hit (a contact's number, digits only): it "passt", not "passen".
    const listed = await run(['contacts', 'list', '--page-size', '1', '--json'], GERMAN);
    const { results } = JSON.parse(listed.stdout) as { results: { number: string }[] };
    const digits = results[0]!.number.replace(/\D/g, '');
    const one = await run(['search', digits], GERMAN);
    expect(one.stdout).toMatch(new RegExp(`\\n\\n1 von \\d+ Kontakten passt zu „${digits}“\\.$`));
  }, 60_000);

  it('follows LC_ALL over LANG, and the language setting over both', async () => {
    const overridden = await run(['help'], { LANG: 'de_DE.UTF-8', LC_ALL: 'en_GB.UTF-8' });
    expect(overridden.stdout).toMatch(/^Usage: /);
    const settings = join(dataDir, 'settings.json');
    writeFileSync(settings, JSON.stringify({ language: 'de' }));
    try {
      const chosen = await run(['status'], ENGLISH);
      expect(chosen.stdout).toMatch(/^Verbunden als Nebenstelle /);
    } finally {
      rmSync(settings, { force: true });
    }
  });
});
