/**
 * `callbar native-host`, the browser extension's native messaging host, spoken to as a browser
 * does (length-prefixed JSON on its standard input and output): the real bin, the real keychain
 * of a signed-in throwaway profile, the simulator. With no Callbar running, a number that needs a
 * yes is refused with its reason; the host answers only status and dial, and is bounded in
 * message size and rate. (Through a running Callbar: test/e2e/browser-extension.spec.ts.)
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SimControl } from '../../../simulator/control-client';
import { advanceClock } from '../../support/sim-harness';
import { frame, startNativeHost } from '../../support/native-host-client';
import { signedInCli } from '../../support/signed-in-cli';
import { until } from '../../support/until';

vi.setConfig({ testTimeout: 60_000 });

let rig: Awaited<ReturnType<typeof signedInCli>>;

beforeAll(async () => {
  rig = await signedInCli({ profile: 'minimal' });
});
afterAll(() => rig.close());

describe('status', () => {
  it('tells the extension the region and its words, in the user’s language, and nothing else', async () => {
    const host = startNativeHost({ ...rig.env, CALLBAR_REGION: 'DE' });
    host.send({ id: 1, type: 'status' });
    expect(await host.next()).toEqual({
      id: 1,
      type: 'status',
      ok: true,
      region: 'DE',
      language: 'en',
      labels: { call: 'Call {number}', menu: 'Call with Callbar' },
    });
    expect(await host.close()).toBe(0);

    const german = startNativeHost({ ...rig.env, CALLBAR_LANGUAGE: 'de' });
    german.send({ id: 2, type: 'status' });
    expect(await german.next()).toMatchObject({
      language: 'de',
      labels: { call: '{number} anrufen', menu: 'Mit Callbar anrufen' },
    });
    await german.close();
  });
});

describe('dial with no Callbar running', () => {
  it('a premium-rate number is refused with the reason, nothing dialled', async () => {
    const host = startNativeHost({ ...rig.env, CALLBAR_CONFIRM_WEB_LINKS: 'false' });
    host.send({ id: 7, type: 'dial', link: 'tel:+1-900-555-0100' });
    const answer = await host.next();
    expect(answer).toMatchObject({ id: 7, type: 'dial', ok: false, code: 'needs_confirmation' });
    expect(answer.message).toMatch(/premium-rate.*Callbar is not running, so nobody can confirm/);
    await host.close();
    expect(await new SimControl(rig.sim.base_url).calls()).toEqual([]);
  });

  it('an ordinary number asks by default: refused, saying links ask', async () => {
    const host = startNativeHost(rig.env);
    host.send({ id: 8, type: 'dial', link: 'tel:+1-212-555-0123' });
    expect(await host.next()).toMatchObject({
      ok: false,
      code: 'needs_confirmation',
      message:
        'Numbers from web pages ask before dialing. Callbar is not running, so nobody can confirm the call: open Callbar, then click the number again.',
    });
    await host.close();
  });

  it('with "dial links without asking" on, an ordinary number is dialled at the platform', async () => {
    await advanceClock(rig.sim, 61);
    const host = startNativeHost({ ...rig.env, CALLBAR_CONFIRM_WEB_LINKS: 'false' });
    host.send({ id: 9, type: 'dial', link: 'tel:+1-212-555-0123' });
    expect(await host.next()).toMatchObject({ id: 9, type: 'dial', ok: true, status: 'dialing' });
    await host.close();
    const control = new SimControl(rig.sim.base_url);
    await until('the call', async () =>
      (await control.calls()).find((call) => call.to === '+12125550123'),
    );
  });
});

describe('bounds', () => {
  it('answers anything but status and dial with a refusal, and goes on', async () => {
    const host = startNativeHost(rig.env);
    host.send({ id: 3, type: 'contacts' });
    expect(await host.next()).toMatchObject({
      id: 3,
      type: 'error',
      ok: false,
      code: 'unknown_request',
    });
    host.send({ id: 4, type: 'dial', link: 'tel:+1', extra: 'field' });
    expect(await host.next()).toMatchObject({ id: 4, ok: false, code: 'unknown_request' });
    host.write(frame(Buffer.from('not json')));
    expect(await host.next()).toMatchObject({ id: null, ok: false, code: 'unknown_request' });
    host.send({ id: 5, type: 'status' });
    expect(await host.next()).toMatchObject({ id: 5, ok: true });
    await host.close();
  });

  it('a message over 4 KiB ends the host (without reading it)', async () => {
    const host = startNativeHost(rig.env);
    const header = Buffer.alloc(4);
    header.writeUInt32LE(64 * 1024 * 1024);
    host.write(header);
    expect(await host.next()).toMatchObject({ ok: false, code: 'too_large' });
    expect(await host.exited).toBe(0);
  });

  it('a flood of requests: 30 answered, the rest "busy" at once', async () => {
    const host = startNativeHost(rig.env);
    for (let id = 0; id < 32; id++) host.send({ id, type: 'status' });
    const answers = [];
    for (let i = 0; i < 32; i++) answers.push(await host.next());
    expect(answers.filter((each) => each.ok === true).length).toBeGreaterThanOrEqual(30);
    expect(answers.filter((each) => each.code === 'busy').length).toBeGreaterThan(0);
    await host.close();
  });

  it('dials: five at once, then one every 2 s; the rest "busy" at once, nothing more dialled', async () => {
    const host = startNativeHost({ ...rig.env, CALLBAR_CONFIRM_WEB_LINKS: 'false' });
    // Premium-rate numbers: each dial that gets through is refused (nobody can confirm), so the
    // host's own bound is all that tells a dial through from one held back.
    for (let id = 0; id < 12; id++) {
      host.send({ id, type: 'dial', link: `tel:+1-900-555-01${String(id).padStart(2, '0')}` });
    }
    const answers = [];
    for (let i = 0; i < 12; i++) answers.push(await host.next());
    const byId = answers.sort((a, b) => Number(a.id) - Number(b.id));
    expect(byId.slice(0, 5).map((each) => each.code)).toEqual(Array(5).fill('needs_confirmation'));
    // One more place comes every 2 s: however slowly this machine answered, most are held back.
    const busy = byId.filter((each) => each.code === 'busy').length;
    expect(busy).toBeGreaterThanOrEqual(4);
    expect(byId.filter((each) => each.code !== 'busy').length + busy).toBe(12);
    await host.close();
    const calls = await new SimControl(rig.sim.base_url).calls();
    expect(calls.filter((call) => call.to.startsWith('+1900'))).toEqual([]);
  });
});
