/**
 * The `language` setting as an administrator and a user set it, through `callbar`:
 * a locked policy wins over the user's settings file, `CALLBAR_LANGUAGE` and `LANG`; the user's
 * own choice wins over a recommended one; `system` (chosen or locked) leaves it to `LANG`. A
 * broken settings file or policy file never breaks the CLI (it speaks `LANG`), and `--json` is
 * the same bytes in every case. Real profile (session in the keychain) against the simulator;
 * the machine's policies in a throwaway CALLBAR_POLICY_DIR.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../simulator/index';
import { openVault } from '../../../src-main/core/vault/keytar-vault';
import { runCallbarInProcess } from '../../support/cli-process';
import { issuedSession, startSim } from '../../support/sim-harness';

const GERMAN_HELP = /^Aufruf: callbar BEFEHL /;
const ENGLISH_HELP = /^Usage: callbar COMMAND /;

describe('the language policy and the CLI', () => {
  let sim: RunningSimulator;
  let root: string;
  let dataDir: string;
  let policyDir: string;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    sim = await startSim({ contacts: 5 });
    root = mkdtempSync(join(tmpdir(), 'callbar-cli-language-'));
    dataDir = join(root, 'profile');
    policyDir = join(root, 'etc-callbar');
    mkdirSync(dataDir, { mode: 0o700 });
    mkdirSync(policyDir);
    await openVault({ dataDir }).save(await issuedSession(sim, sim.users[0]!));
    env = {
      CALLBAR_DATA_DIR: dataDir,
      CALLBAR_POLICY_DIR: policyDir,
      CALLBAR_BASE_URL: sim.base_url,
      LANG: 'en_US.UTF-8',
    };
  });
  afterEach(() => {
    rmSync(join(policyDir, 'policies.json'), { force: true });
    rmSync(join(dataDir, 'settings.json'), { force: true });
  });
  afterAll(async () => {
    await openVault({ dataDir }).clear();
    rmSync(root, { recursive: true, force: true });
    await sim.close();
  });

  const policy = (document: unknown) =>
    writeFileSync(
      join(policyDir, 'policies.json'),
      typeof document === 'string' ? document : JSON.stringify(document),
    );
  const userSettings = (text: string) => writeFileSync(join(dataDir, 'settings.json'), text);
  const run = (args: string[], extra: NodeJS.ProcessEnv = {}) =>
    runCallbarInProcess(args, { ...env, ...extra });

  it('speaks a locked language in help, usage errors and answers, whatever the user chose', async () => {
    policy({ locked: { language: 'de' } });
    userSettings(JSON.stringify({ language: 'en' }));
    const help = await run(['help'], { CALLBAR_LANGUAGE: 'en' });
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(GERMAN_HELP);
    const typo = await run(['phonebooks', 'lsit']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('callbar: unbekannter Befehl „phonebooks lsit“.');
    const status = await run(['status']);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/^Verbunden als Nebenstelle /);
    // Programs read the same bytes as without the policy.
    const german = await run(['status', '--json']);
    rmSync(join(policyDir, 'policies.json'));
    const english = await run(['status', '--json']);
    expect(german.stdout).toBe(english.stdout);
    expect(german.stdout).not.toMatch(/Verbunden/);
  }, 60_000);

  it('lets a locked "system" leave it to LANG, over the user\'s own choice', async () => {
    policy({ locked: { language: 'system' } });
    userSettings(JSON.stringify({ language: 'de' }));
    expect((await run(['help'])).stdout).toMatch(ENGLISH_HELP);
    expect((await run(['help'], { LANG: 'de_DE.UTF-8' })).stdout).toMatch(GERMAN_HELP);
  });

  it('follows a recommended language until the user chooses one ("system" too)', async () => {
    policy({ recommended: { language: 'de' } });
    expect((await run(['help'])).stdout).toMatch(GERMAN_HELP);
    userSettings(JSON.stringify({ language: 'en' }));
    expect((await run(['help'], { LANG: 'de_DE.UTF-8' })).stdout).toMatch(ENGLISH_HELP);
    userSettings(JSON.stringify({ language: 'system' }));
    expect((await run(['help'])).stdout).toMatch(ENGLISH_HELP);
    userSettings('{}');
    expect((await run(['help'], { CALLBAR_LANGUAGE: 'en' })).stdout).toMatch(ENGLISH_HELP);
  });

  it('speaks LANG when the settings file or the policy file is broken, and still runs', async () => {
    userSettings('{"language": "de"'); // cut short
    const help = await run(['help'], { LANG: 'de_DE.UTF-8' });
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(GERMAN_HELP);
    expect((await run(['help'])).stdout).toMatch(ENGLISH_HELP);
    rmSync(join(dataDir, 'settings.json'));

    policy('{"locked": {"language": "de"'); // cut short
    const broken = await run(['help']);
    expect(broken.code).toBe(0);
    expect(broken.stdout).toMatch(ENGLISH_HELP);
    // A language Callbar does not speak is a policy problem, not a language.
    policy({ locked: { language: 'fr' } });
    const status = await run(['status']);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/^Connected as extension /);
  }, 60_000);
});
