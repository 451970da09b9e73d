/**
 * Policies as an administrator and a user meet them: `callbar policy` (text and --json) and
 * `callbar status` through the built CLI, and the window's settings channels through a real core,
 * with the machine's policies in a throwaway CALLBAR_POLICY_DIR.
 */
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SettingsView } from '../../../src-shared/contract';
import { openVault } from '../../../src-main/core/vault/keytar-vault';
import { MemoryVault } from '../../../src-main/core/vault/memory-vault';
import { runCallbar, runCallbarInProcess } from '../../support/cli-process';
import { issuedSession, startSim } from '../../support/sim-harness';
import { startTestCore } from '../../support/test-core';

let root: string;
let policyDir: string;
let dataDir: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'callbar-policy-cli-'));
  policyDir = join(root, 'etc-callbar');
  dataDir = join(root, 'profile');
  await cp(join(import.meta.dirname, '../../support/fixtures/policy/linux'), policyDir, {
    recursive: true,
  });
  env = {
    CALLBAR_POLICY_DIR: policyDir,
    CALLBAR_DATA_DIR: dataDir,
    CALLBAR_RECEIVER_PORT: '41999',
  };
  // The user's own choices: one a policy locks, one only recommended.
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await writeFile(
    join(dataDir, 'settings.json'),
    JSON.stringify({ region: 'GB', sync_interval_minutes: 10 }),
  );
});

afterAll(async () => {
  await openVault({ dataDir })
    .clear()
    .catch(() => undefined);
  await rm(root, { recursive: true, force: true });
});

interface PolicyReport {
  values: Record<string, { value: unknown; source: string; origin: string | null }>;
  problems: string[];
}

describe('callbar policy', () => {
  it('--json gives every setting and policy with its value and source', async () => {
    const { code, stdout } = await runCallbar(['policy', '--json'], env);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as PolicyReport;
    expect(report.values.region).toEqual({
      value: 'DE',
      source: 'locked',
      origin: join(policyDir, 'policies.d/10-dialling.json'),
    });
    expect(report.values.base_url).toEqual({
      value: 'https://pbx.example.com',
      source: 'locked',
      origin: join(policyDir, 'policies.json'),
    });
    expect(report.values.sync_interval_minutes).toEqual({
      value: 10,
      source: 'user',
      origin: join(dataDir, 'settings.json'),
    });
    expect(report.values.receiver_port).toEqual({
      value: 41999,
      source: 'environment',
      origin: 'CALLBAR_RECEIVER_PORT',
    });
    expect(report.values.dial_shortcut).toMatchObject({
      value: 'CommandOrControl+Alt+K',
      source: 'recommended',
    });
    expect(report.values.vanity_numbers).toEqual({ value: false, source: 'default', origin: null });
    expect(report.values.favourites).toMatchObject({ value: ['+431234567', '+4930123456'] });
    expect(report.values.relay_url).toEqual({ value: '', source: 'default', origin: null });
    expect(report.problems).toHaveLength(4);
    expect(report.problems.join('\n')).not.toContain('s3cr3t');
  });

  it('prints a table, and the ignored values on stderr naming file and field', async () => {
    const { code, stdout, stderr } = await runCallbarInProcess(['policy'], env);
    expect(code).toBe(0);
    const regionLine = stdout.split('\n').find((line) => line.startsWith('region '));
    expect(regionLine).toMatch(
      new RegExp(`^region +"DE" +locked by ${join(policyDir, 'policies.d/10-dialling.json')}$`),
    );
    expect(stderr).toContain(
      `Policy problem: ${join(policyDir, 'policies.d/20-mistakes.json')}: the locked policy "receiver_port" is 80, but it must be a whole number from 1024 to 65535; Callbar ignores it.`,
    );
  });
});

describe('callbar policy in German (LANG=de_DE.UTF-8)', () => {
  it('says each source and each ignored value in German, the level included', async () => {
    const { code, stdout, stderr } = await runCallbarInProcess(['policy'], {
      ...env,
      LANG: 'de_DE.UTF-8',
    });
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    expect(lines[0]).toMatch(/^EINSTELLUNG +WERT +QUELLE$/);
    expect(lines.find((line) => line.startsWith('region '))).toMatch(
      new RegExp(
        `^region +"DE" +festgelegt durch ${join(policyDir, 'policies.d/10-dialling.json')}$`,
      ),
    );
    expect(lines.find((line) => line.startsWith('slug '))).toMatch(/^slug +"callbar" +Standard$/);
    expect(stderr).toContain(
      `${join(policyDir, 'policies.d/20-mistakes.json')}: Die festgelegte Richtlinie „receiver_port“ ist 80, muss aber eine ganze Zahl von 1024 bis 65535 sein; Callbar ignoriert sie.`,
    );
    // No English word of the sources or the levels is left (the file's keys stay in quotes).
    expect(stdout).not.toMatch(/\b(locked|recommended|default|environment|user)\b/);
    expect(stderr).not.toMatch(/\(locked\)|\(recommended\)|locked policy|recommended policy/);
  });
});

describe('callbar status', () => {
  it('shows the policy problems, in text and --json', async () => {
    const text = await runCallbarInProcess(['status'], env);
    expect(text.stdout).toContain(
      `Policy problem: ${join(policyDir, 'policies.d/20-mistakes.json')}: "regoin" is not a Callbar policy`,
    );
    const json = JSON.parse((await runCallbarInProcess(['status', '--json'], env)).stdout) as {
      policy_problems: string[];
    };
    expect(json.policy_problems).toHaveLength(4);
  });

  it('says them with --check too, in text and --json', async () => {
    const text = await runCallbarInProcess(['status', '--check'], env);
    expect(text.stdout).toContain(
      `Policy problem: ${join(policyDir, 'policies.d/20-mistakes.json')}: "regoin" is not a Callbar policy`,
    );
    const json = JSON.parse(
      (await runCallbarInProcess(['status', '--check', '--json'], env)).stdout,
    ) as {
      policy_problems: string[];
    };
    expect(json.policy_problems).toHaveLength(4);
  });
});

describe('the window’s settings channels', () => {
  it('say which settings are locked and by what, and refuse to save one', async () => {
    const core = await startTestCore({ env: { CALLBAR_POLICY_DIR: policyDir } });
    try {
      const got = await core.router.invoke('settings.get', {});
      if (!got.ok) throw new Error(got.error.message);
      const view = got.value as SettingsView;
      // The editable settings the policies lock (dial_allowed_countries is one since the window
      // edits the dial lists).
      expect(view.locked).toEqual({
        region: join(policyDir, 'policies.d/10-dialling.json'),
        dial_allowed_countries: join(policyDir, 'policies.d/10-dialling.json'),
        confirm_web_links: join(policyDir, 'policies.json'),
      });
      expect(view.settings.region).toBe('DE');
      expect(view.settings.dial_shortcut).toBe('CommandOrControl+Alt+K'); // recommended
      expect(view.policy_problems).toHaveLength(4);

      const refused = await core.router.invoke('settings.save', {
        region: 'GB',
        open_at_login: true,
      });
      expect(refused).toEqual({
        ok: false,
        error: {
          code: 'setting_locked',
          field: 'region',
          message: `"region" is set by your organisation (locked in ${join(policyDir, 'policies.d/10-dialling.json')}), so Callbar did not change it; nothing was saved.`,
          // Beside the field, which has its label: without the setting's name.
          fields: {
            region: `Set by your organisation (locked in ${join(policyDir, 'policies.d/10-dialling.json')}): Callbar did not change it; nothing was saved.`,
          },
        },
      });
      await expect(readFile(join(core.profile.dataDir, 'settings.json'))).rejects.toThrow(/ENOENT/);
      // The others are the user's.
      const saved = await core.router.invoke('settings.save', { dial_shortcut: '' });
      // …and saving them leaves the locked ones as the policy says.
      expect(saved).toMatchObject({
        ok: true,
        value: { settings: { dial_shortcut: '', region: 'DE', confirm_web_links: true } },
      });
      expect(core.profile.settings.confirm_web_links).toBe(true);
    } finally {
      await core.close();
    }
  });
});

describe('"dial links without asking" locked off', () => {
  it('an "always" answer dials that link but is not remembered: the next link asks again', async () => {
    const lockDir = join(root, 'lock-confirm');
    await mkdir(lockDir);
    await writeFile(
      join(lockDir, 'policies.json'),
      JSON.stringify({ locked: { confirm_web_links: true } }),
    );
    const sim = await startSim();
    const vault = new MemoryVault();
    await vault.save(await issuedSession(sim, sim.users[0]!));
    const core = await startTestCore({
      env: { CALLBAR_BASE_URL: sim.base_url, CALLBAR_POLICY_DIR: lockDir },
      vault,
    });
    try {
      const link = { url: 'tel:+1-202-555-0177' };
      const asked = await core.router.invoke('calls.openUrl', link);
      expect(asked).toMatchObject({ ok: true, value: { status: 'needs-confirmation' } });
      const id = (asked as { value: { pending: { id: string } } }).value.pending.id;
      const confirmed = await core.router.invoke('calls.confirm', {
        id,
        accept: true,
        always: true,
      });
      expect(confirmed).toMatchObject({ ok: true });
      expect((confirmed as { value: { current: unknown[] } }).value.current).toHaveLength(1);
      await core.router.invoke('calls.hangup', {});
      await expect(readFile(join(core.profile.dataDir, 'settings.json'))).rejects.toThrow(/ENOENT/);
      expect(core.profile.settings.confirm_web_links).toBe(true);
      expect(await core.router.invoke('calls.openUrl', link)).toMatchObject({
        ok: true,
        value: { status: 'needs-confirmation' },
      });
    } finally {
      await core.close();
      await sim.close();
    }
  });
});

describe('what links may dial (link_allowed_classes)', () => {
  it('refuses a link the policy does not allow, naming the policy; typed numbers are not concerned', async () => {
    const lockDir = join(root, 'link-policy');
    await mkdir(lockDir);
    await writeFile(
      join(lockDir, 'policies.json'),
      JSON.stringify({ locked: { link_allowed_classes: ['extension', 'national'] } }),
    );
    const sim = await startSim();
    const vault = new MemoryVault();
    await vault.save(await issuedSession(sim, sim.users[0]!));
    const core = await startTestCore({
      env: { CALLBAR_BASE_URL: sim.base_url, CALLBAR_POLICY_DIR: lockDir },
      vault,
    });
    try {
      const refused = await core.router.invoke('calls.openUrl', { url: 'tel:+44-20-7946-0958' });
      expect(refused).toMatchObject({ ok: false, error: { code: 'dial_not_allowed' } });
      expect((refused as { error: { message: string } }).error.message).toBe(
        'Callbar is set not to dial numbers in other countries, so it did not dial +44 20 7946 0958. This is a number in the United Kingdom, not in your country. (Setting link_allowed_classes: extension, national.)',
      );
      // A national link still asks as before.
      expect(
        await core.router.invoke('calls.openUrl', { url: 'tel:+1-202-555-0177' }),
      ).toMatchObject({ ok: true, value: { status: 'needs-confirmation' } });
      // Typed by the user, the same number dials (the dialling policy allows every class).
      const typed = await core.router.invoke('calls.dial', { target: '+44 20 7946 0958' });
      expect(typed).toMatchObject({ ok: true, value: { status: 'dialing' } });
      await core.router.invoke('calls.hangup', {});
    } finally {
      await core.close();
      await sim.close();
    }
  });
});
