/**
 * The connection to Callbar's native host (`callbar native-host`, which `callbar browser install`
 * registers): one port, opened when first needed and again after the host went away; each
 * request gets an id and waits for the answer with that id (35 s at most: a dial waits for the
 * platform).
 */
import type { HostAnswer, HostRequest } from '../../../src-main/core/browser/host-protocol';
import { api } from '../extension-api';

declare const NATIVE_HOST_NAME: string;

const ANSWER_TIMEOUT_MS = 35_000;

/** An answer made here when the host is not there or did not answer. */
function unavailable(id: number, type: 'status' | 'dial'): HostAnswer {
  return {
    id,
    type,
    ok: false,
    code: 'host_unavailable',
    message: api.i18n.getMessage('hostUnavailable'),
  };
}

let port: chrome.runtime.Port | undefined;
let nextId = 1;
const waiting = new Map<number, (answer: HostAnswer) => void>();

function connect(): chrome.runtime.Port {
  const opened = api.runtime.connectNative(NATIVE_HOST_NAME);
  opened.onMessage.addListener((message: HostAnswer) => {
    if (typeof message?.id !== 'number') return;
    waiting.get(message.id)?.(message);
  });
  opened.onDisconnect.addListener(() => {
    if (port === opened) port = undefined;
    for (const [id, settle] of waiting) settle(unavailable(id, 'status'));
  });
  return opened;
}

type Request = HostRequest extends infer R
  ? R extends { id: number }
    ? Omit<R, 'id'>
    : never
  : never;

export function askHost(request: Request): Promise<HostAnswer> {
  const id = nextId++;
  return new Promise((resolve) => {
    const timer = setTimeout(() => settle(unavailable(id, request.type)), ANSWER_TIMEOUT_MS);
    function settle(answer: HostAnswer) {
      clearTimeout(timer);
      waiting.delete(id);
      resolve(answer);
    }
    waiting.set(id, settle);
    try {
      port ??= connect();
      port.postMessage({ ...request, id });
    } catch {
      port = undefined;
      settle(unavailable(id, request.type));
    }
  });
}
