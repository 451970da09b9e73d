/**
 * The hostile behaviour of the control API (`/__sim/hostile/events`): forged legs and an event
 * flood POSTed to the user's active Webhook URL with the registration's extra headers, as the
 * platform posts its own events; a user without an active Webhook URL is a 404; bodies are
 * validated strictly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimControlError } from '../../../simulator/control-client';
import { completePortalFlow } from '../../../simulator/portal-driver';
import { startTestSim, type TestSim } from '../../support/sim-harness';
import { startReceiver, type Receiver } from '../../support/integrator-receiver';

describe('hostile call events', () => {
  let t: TestSim;
  let receiver: Receiver;

  beforeAll(async () => {
    t = await startTestSim({ contacts: 5 });
    receiver = await startReceiver();
    await t.control.putIntegration('callbar', {
      activation_url: `${receiver.url}/activate`,
      deactivation_url: `${receiver.url}/deactivate`,
      webhook_url: `${receiver.url}/events`,
      extra_headers: { 'X-Hook-Secret': 's3' },
    });
    const user = t.sim.users[0]!;
    await completePortalFlow(
      `${t.sim.portal_url}/integrations/callbar/activate?confirmation_key=k0&redirect_url=${encodeURIComponent('http://127.0.0.1:9/done')}`,
      { username: user.username, password: user.password, action: 'subscribe' },
    );
  });
  afterAll(async () => {
    await t.sim.close();
    await receiver.close();
  });

  const events = () =>
    receiver.requests
      .filter((request) => request.path === '/events')
      .map((request) => ({
        secret: request.headers['x-hook-secret'],
        body: JSON.parse(request.body) as Record<string, unknown>,
      }));

  it('posts forged {id} legs with the registration’s headers and tallies the answers', async () => {
    receiver.answer.status = 200;
    const started = await t.control.hostileEvents({
      tenant_id: t.sim.tenant_id,
      user_extension: '201',
      kind: 'forged-legs',
      count: 40,
    });
    expect(started).toMatchObject({ kind: 'forged-legs', count: 40 });
    const tally = await t.control.hostileEventsDone();
    expect(tally).toEqual({
      kind: 'forged-legs',
      count: 40,
      sent: 40,
      statuses: { '200': 40 },
      done: true,
    });
    const sent = events();
    expect(sent).toHaveLength(40);
    expect(sent.every((event) => event.secret === 's3')).toBe(true);
    expect(new Set(sent.map((event) => JSON.stringify(event.body))).size).toBe(40);
    expect(sent.map((event) => event.body)).toContainEqual({ id: 'leg_forged_39' });
  });

  it('floods big events over made-up calls', async () => {
    receiver.requests.length = 0;
    receiver.answer.status = 429;
    await t.control.hostileEvents({
      tenant_id: t.sim.tenant_id,
      user_extension: '201',
      kind: 'flood',
      count: 30,
      calls: 3,
      pad_bytes: 1000,
    });
    expect((await t.control.hostileEventsDone()).statuses).toEqual({ '429': 30 });
    const bodies = events().map((event) => event.body);
    expect(new Set(bodies.map((body) => body.call_id)).size).toBe(3);
    expect(bodies.every((body) => (body.pad0 as string).length === 1000 && !('pad1' in body))).toBe(
      true,
    );
  });

  it('refuses a user without an active Webhook URL (404) and unknown fields (400)', async () => {
    const refused = (attack: object) =>
      t.control.hostileEvents(attack as never).then(
        () => 0,
        (error: unknown) => (error instanceof SimControlError ? error.status : -1),
      );
    expect(
      await refused({ tenant_id: t.sim.tenant_id, user_extension: '202', kind: 'flood', count: 1 }),
    ).toBe(404);
    expect(
      await refused({
        tenant_id: t.sim.tenant_id,
        user_extension: '201',
        kind: 'flood',
        count: 1,
        extra: true,
      }),
    ).toBe(400);
  });
});
