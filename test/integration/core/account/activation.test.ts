/**
 * The whole activation journey against the simulator over real HTTP: portal login → Subscribe →
 * the platform POSTs tokens to the receiver → vault → redirect page → connected; then Unsubscribe.
 */
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../../simulator/index';
import { endedAttemptWarning } from '../../../../src-main/core/account/account-service';
import { MemoryVault } from '../../../../src-main/core/vault/memory-vault';
import { CallbarError } from '../../../../src-main/core/errors';
import {
  accountRig,
  capturingLogger,
  completePortalFlow,
  connect,
  control,
  describeJourney,
  registerReceiver,
  startSim,
  type AccountRig,
} from '../../../support/sim-harness';

describeJourney('activation through the portal', (profile) => {
  let sim: RunningSimulator;
  const rigs: AccountRig[] = [];
  beforeAll(async () => {
    sim = await startSim({ profile });
  });
  afterEach(async () => {
    for (const rig of rigs.splice(0)) await rig.account.close();
  });
  afterAll(() => sim.close());

  it('login → Subscribe → receiver → vault → redirect page → connected', async () => {
    const vault = new MemoryVault();
    const { log, lines } = capturingLogger();
    const rig = await accountRig(sim, vault, log);
    rigs.push(rig);
    const opened: string[] = [];
    const started = await rig.account.startActivation({ openUrl: (url) => void opened.push(url) });
    // The browser gets a one-time loopback address, which leads to the portal link once.
    expect(opened).toEqual([started.browserUrl]);
    expect(started.browserUrl.startsWith(`${rig.origin}/connect/`)).toBe(true);
    expect(started.browserUrl).not.toContain('confirmation_key');
    const hop = await fetch(started.browserUrl, { redirect: 'manual' });
    expect(hop.status).toBe(303);
    expect(hop.headers.get('location')).toBe(started.portalLink);
    expect(rig.account.status().state).toBe('activating');

    const link = new URL(started.portalLink);
    expect(started.portalLink.startsWith(`${sim.portal_url}/integrations/callbar/activate?`)).toBe(
      true,
    );
    const key = link.searchParams.get('confirmation_key')!;
    expect(Buffer.from(key, 'base64url').length).toBeGreaterThanOrEqual(16); // ≥ 128 bits
    expect(link.searchParams.has('tenant_id')).toBe(false);
    const redirect = link.searchParams.get('redirect_url')!;
    expect(redirect.startsWith(`${rig.origin}/done?attempt=`)).toBe(true);

    const user = sim.users[0]!;
    const portal = await completePortalFlow(started.portalLink, {
      username: user.username,
      password: user.password,
      action: 'subscribe',
    });
    expect(portal.status).toBe(303);
    expect(portal.location).toBe(redirect);
    const status = await started.completion;
    expect(status).toMatchObject({
      state: 'connected',
      tenant_id: sim.tenant_id,
      user_extension: user.extension,
    });

    const stored = (await vault.load())!;
    expect(stored).toMatchObject({
      tenant_id: sim.tenant_id,
      user_extension: user.extension,
      client_id: sim.client_id,
      client_secret: sim.client_secret,
      base_url: sim.base_url,
    });
    // The stored tokens are the platform's own: they open the API.
    const api = await fetch(`${sim.base_url}/v3/phonebook/phonebook/`, {
      headers: { authorization: `Bearer ${await rig.account.tokens.getAccessToken()}` },
    });
    expect(api.status).toBe(200);

    const landing = await fetch(portal.location!);
    expect(landing.status).toBe(200);
    expect(await landing.text()).toContain('Connected — you can close this tab');

    const logged = lines.join('\n');
    for (const secret of [stored.access_token, stored.refresh_token, sim.client_secret, key]) {
      expect(logged).not.toContain(secret);
    }
  });

  it('sends tenant metadata as tenant_{param} and never tenant_id', async () => {
    const rig = await accountRig(sim, new MemoryVault(), capturingLogger().log);
    rigs.push(rig);
    const started = await rig.account.startActivation({
      tenantParams: { id: 'forged', crm: 'acme-crm' },
    });
    started.completion.catch(() => undefined);
    const link = new URL(started.portalLink);
    expect(link.searchParams.get('tenant_crm')).toBe('acme-crm');
    expect(link.searchParams.has('tenant_id')).toBe(false);
  });

  it('Unsubscribe in the portal wipes the tokens and the state becomes not-connected', async () => {
    const vault = new MemoryVault();
    const rig = await accountRig(sim, vault, capturingLogger().log);
    rigs.push(rig);
    const { started, user } = await connect(rig, sim);
    expect(await vault.load()).toBeDefined();

    // The platform calls the Deactivation URL with the key of the original activation.
    const portal = await completePortalFlow(started.portalLink, {
      username: user.username,
      password: user.password,
      action: 'unsubscribe',
    });
    expect(portal.status).toBe(303);
    expect(await vault.load()).toBeUndefined();
    expect(rig.account.status().state).toBe('not-connected');
    await expect(rig.account.tokens.getAccessToken()).rejects.toMatchObject({
      code: 'not_connected',
    });
  });

  it('takes a deactivation whose tokens are null: the user and the key identify it', async () => {
    // The profile's own "empty" tokens are covered above ("" in rich and minimal, left out of
    // the variant's form); here null in JSON, as another platform sends them.
    const before = await control<{ deactivationTokens: string }>(sim, 'GET', 'config');
    await control(sim, 'PATCH', 'config', { deactivationTokens: 'null' });
    try {
      const vault = new MemoryVault();
      const rig = await accountRig(sim, vault, capturingLogger().log);
      rigs.push(rig);
      await rig.register({ encoding: 'json' });
      const { started, user } = await connect(rig, sim);
      const portal = await completePortalFlow(started.portalLink, {
        username: user.username,
        password: user.password,
        action: 'unsubscribe',
      });
      expect(portal.status).toBe(303);
      const { attempts } = await control<{ attempts: { action: string; status: number }[] }>(
        sim,
        'GET',
        'integrations/callbar',
      );
      expect(attempts.at(-1)).toMatchObject({ action: 'deactivate', status: 200 });
      expect(await vault.load()).toBeUndefined();
      expect(rig.account.status().state).toBe('not-connected');
    } finally {
      await control(sim, 'PATCH', 'config', { deactivationTokens: before.deactivationTokens });
    }
  });

  it('a platform that sends the activation call twice (and needs 200 each time) connects once', async () => {
    await control(sim, 'PATCH', 'config', { activationCalls: 2 });
    try {
      const vault = new MemoryVault();
      const rig = await accountRig(sim, vault, capturingLogger().log);
      rigs.push(rig);
      const { portal, status, user } = await connect(rig, sim);
      expect(portal.status).toBe(303);
      expect(status).toMatchObject({ state: 'connected', user_extension: user.extension });
      const { attempts } = await control<{
        attempts: { action: string; user_extension: string; status: number; outcome: string }[];
      }>(sim, 'GET', 'integrations/callbar');
      expect(attempts.slice(-2)).toEqual([
        expect.objectContaining({ action: 'activate', status: 200, outcome: 'accepted' }),
        expect.objectContaining({ action: 'activate', status: 200, outcome: 'accepted' }),
      ]);
      // The platform kept the tokens it delivered (a refused repeat would have revoked them).
      const stored = (await vault.load())!;
      const phonebooks = await fetch(`${sim.base_url}/v3/phonebook/phonebook/`, {
        headers: { authorization: `Bearer ${stored.access_token}` },
      });
      expect(phonebooks.status).toBe(200);
    } finally {
      await control(sim, 'PATCH', 'config', { activationCalls: 1 });
    }
  });

  it('a receiver that refuses leaves nothing active; a retry after fixing it connects', async () => {
    const vault = new MemoryVault();
    const rig = await accountRig(sim, vault, capturingLogger().log, {
      receiverHeaders: { 'X-Callbar-Secret': 'shared-1' },
    });
    rigs.push(rig);
    // The platform was set up without the header Callbar requires.
    await registerReceiver(sim, rig.origin);
    const user = sim.users[1]!;
    const started = await rig.account.startActivation();
    const refused = await completePortalFlow(started.portalLink, {
      username: user.username,
      password: user.password,
      action: 'subscribe',
    });
    expect(refused.status).not.toBe(303);
    expect(await vault.load()).toBeUndefined();
    expect(rig.account.status().state).toBe('activating');

    await rig.register({ encoding: 'form' });
    const accepted = await completePortalFlow(started.portalLink, {
      username: user.username,
      password: user.password,
      action: 'subscribe',
    });
    expect(accepted.status).toBe(303);
    await expect(started.completion).resolves.toMatchObject({
      state: 'connected',
      user_extension: user.extension,
    });
  });

  it('a keychain that fails during activation keeps nothing and says why', async () => {
    const vault = new MemoryVault({ unavailable: 'the keyring is locked' });
    const rig = await accountRig(sim, vault, capturingLogger().log);
    rigs.push(rig);
    const user = sim.users[2]!;
    const started = await rig.account.startActivation();
    started.completion.catch(() => undefined);
    const portal = await completePortalFlow(started.portalLink, {
      username: user.username,
      password: user.password,
      action: 'subscribe',
    });
    expect(portal.status).not.toBe(303);
    const status = rig.account.status();
    expect(status.state).toBe('vault-unavailable');
    expect(status.message).toContain('the keyring is locked');
    vault.unavailable = false;
    expect(await vault.load()).toBeUndefined();
    const record = await control<{ activations?: { user_extension: string; state: string }[] }>(
      sim,
      'GET',
      'integrations/callbar',
    );
    const mine = (record.activations ?? []).filter((a) => a.user_extension === user.extension);
    expect(mine.filter((a) => a.state === 'active')).toEqual([]);
  });

  it('a keychain that was unavailable at start stops being reported once it works again', async () => {
    const vault = new MemoryVault({ unavailable: 'the keyring is locked' });
    const rig = await accountRig(sim, vault, capturingLogger().log);
    rigs.push(rig);
    expect(rig.account.status()).toMatchObject({
      state: 'vault-unavailable',
      message: expect.stringContaining('the keyring is locked') as unknown,
    });
    vault.unavailable = false;
    await expect(rig.account.deactivateLocal()).resolves.toEqual({ state: 'not-connected' });
    expect(rig.account.status()).toEqual({ state: 'not-connected' });
  });

  it('gives up after the timeout with a clear error', async () => {
    const rig = await accountRig(sim, new MemoryVault(), capturingLogger().log);
    rigs.push(rig);
    const started = await rig.account.startActivation({ timeoutMs: 50 });
    const error = (await started.completion.catch((e: unknown) => e)) as CallbarError;
    expect(error).toBeInstanceOf(CallbarError);
    expect(error.code).toBe('activation_timeout');
    expect(error.message).toContain(endedAttemptWarning());
    // The status says it too (the window shows it), until the next attempt starts.
    expect(rig.account.status()).toEqual({
      state: 'not-connected',
      message: `No confirmation arrived from the portal in time. ${endedAttemptWarning()}`,
    });
    const next = await rig.account.startActivation();
    next.completion.catch(() => undefined);
    expect(rig.account.status().message).toBeUndefined();
    rig.account.cancelActivation();
  });

  it('a cancel (Ctrl+C, quit, timeout) while the arrived tokens are being stored completes connected', async () => {
    // A MemoryVault whose save waits for the test: the moment between the platform's POST and
    // the keychain write (the vault is not what is tested).
    const inner = new MemoryVault();
    let release = () => undefined as void;
    let saving = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const saveStarted = new Promise<void>((resolve) => (saving = resolve));
    const vault = {
      load: () => inner.load(),
      clear: () => inner.clear(),
      webhookSecret: () => inner.webhookSecret(),
      readRetiredDevices: () => inner.readRetiredDevices(),
      writeRetiredDevices: (text: string | undefined) => inner.writeRetiredDevices(text),
      save: async (account: Parameters<MemoryVault['save']>[0]) => {
        saving();
        await held;
        await inner.save(account);
      },
    };
    const rig = await accountRig(sim, vault, capturingLogger().log);
    rigs.push(rig);
    const started = await rig.account.startActivation();
    const user = sim.users[0]!;
    const portal = completePortalFlow(started.portalLink, {
      username: user.username,
      password: user.password,
      action: 'subscribe',
    });
    await saveStarted;
    rig.account.cancelActivation();
    // A new attempt now would throw the arriving connection away: it is refused, saying why.
    await expect(rig.account.startActivation()).rejects.toMatchObject({
      code: 'activation_finishing',
    });
    release();
    await expect(started.completion).resolves.toMatchObject({
      state: 'connected',
      user_extension: user.extension,
    });
    expect((await portal).status).toBe(303);
    expect(rig.account.status().message).toBeUndefined();
    expect((await inner.load())?.user_extension).toBe(user.extension);
  });

  it('refuses to start without the integrator credentials', async () => {
    const rig = await accountRig(sim, new MemoryVault(), capturingLogger().log, {
      clientSecret: undefined,
    });
    rigs.push(rig);
    await expect(rig.account.startActivation()).rejects.toMatchObject({
      code: 'client_credentials_missing',
    });
  });
});
