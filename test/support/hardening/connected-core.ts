/**
 * A real core connected to a simulator the way a person connects it: the window's Connect, the
 * browser on the one-time `/connect/…` link, the portal's Subscribe. Every IPC answer and event
 * is kept (`seen`) for the tests that audit them.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningSimulator } from '../../../simulator/index';
import { startCore, type CallbarCore, type CoreOptions } from '../../../src-main/core/callbar-core';
import type { Logger } from '../../../src-main/core/log/logger';
import { openProfile } from '../../../src-main/core/profile';
import type { Vault } from '../../../src-main/core/vault/vault';
import { freePort } from '../free-port';
import { until } from '../until';
import { completePortalFlow, profileEnv, registerReceiver } from '../sim-harness';

export interface ConnectedCore {
  core: CallbarCore;
  dataDir: string;
  /** The confirmation key the portal link carried. */
  confirmationKey: string;
  /** Every router call ({channel, request, result}) and event, in order. */
  seen: unknown[];
  invoke: (channel: string, request?: unknown) => ReturnType<CallbarCore['router']['invoke']>;
  /** What a call answers; a refusal throws, naming the channel and the sentence. */
  value: <T>(channel: string, request?: unknown) => Promise<T>;
}

export async function connectedCore(
  sim: RunningSimulator,
  options: {
    vault: Vault;
    log: (dataDir: string) => Logger;
    /** The platform's clock, the request timeout and retries (see CoreOptions). */
    core?: Pick<CoreOptions, 'clock' | 'requestTimeoutMs' | 'requestRetry' | 'openCrmUrl'>;
    /** The profile folder (default: a new one), e.g. one the built CLI shares. */
    dataDir?: string;
  },
): Promise<ConnectedCore> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'callbar-hardening-core-'));
  const port = await freePort();
  const opened: string[] = [];
  const seen: unknown[] = [];
  const core = await startCore({
    ...options.core,
    runtime: 'preview',
    profile: openProfile({
      env: profileEnv(sim, dataDir, port),
      vault: options.vault,
      log: options.log(dataDir),
    }),
    openUrl: (url) => {
      opened.push(url);
      return Promise.resolve();
    },
  });
  core.events.subscribe((event) => seen.push(event));
  const invoke = async (channel: string, request: unknown = {}) => {
    const result = await core.router.invoke(channel, request);
    seen.push({ channel, request, result });
    return result;
  };
  await core.profile.account.listen();
  await registerReceiver(sim, await core.profile.account.receiverRegistration());
  const connecting = await invoke('account.connect');
  if (!connecting.ok) throw new Error(`account.connect: ${connecting.error.message}`);
  const browserUrl = await until('the browser', () => Promise.resolve(opened[0]));
  const hop = await fetch(browserUrl, { redirect: 'manual' });
  const portalLink = hop.headers.get('location')!;
  const alice = sim.users[0]!;
  await completePortalFlow(portalLink, {
    username: alice.username,
    password: alice.password,
    action: 'subscribe',
  });
  await until('connected', () =>
    Promise.resolve(core.profile.account.status().state === 'connected' ? true : undefined),
  );
  return {
    core,
    dataDir,
    confirmationKey: new URL(portalLink).searchParams.get('confirmation_key')!,
    seen,
    invoke,
    async value<T>(channel: string, request: unknown = {}): Promise<T> {
      const result = await invoke(channel, request);
      if (!result.ok) throw new Error(`${channel}: ${result.error.message}`);
      return result.value as T;
    },
  };
}
