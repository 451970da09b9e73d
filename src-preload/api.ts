/**
 * Builds the `window.callbar` object from the contract over any transport: Electron IPC in the
 * preload, HTTP + server-sent events in the web preview. The renderer cannot tell them apart.
 */
import {
  channelNames,
  ResultEnvelope,
  type CallbarApi,
  type CallbarEvent,
  type ChannelName,
  type Result,
} from '../src-shared/contract';

export interface Transport {
  /** Sends one request; resolves with the router's result envelope. */
  invoke(channel: ChannelName, request: unknown): Promise<unknown>;
  /** Delivers every event from main until the returned function is called. */
  subscribe(listener: (event: CallbarEvent) => void): () => void;
}

function transportFailure(cause: unknown): Result<never> {
  const detail = cause instanceof Error ? cause.message : String(cause);
  return {
    ok: false,
    error: { code: 'transport', message: `Callbar's core could not be reached (${detail}).` },
  };
}

export function buildApi(transport: Transport): CallbarApi {
  const api: Record<string, Record<string, unknown>> = {};
  for (const channel of channelNames) {
    const dot = channel.indexOf('.');
    const domain = channel.slice(0, dot);
    const verb = channel.slice(dot + 1);
    const methods = (api[domain] ??= {});
    methods[verb] = async (request: unknown = {}): Promise<Result<unknown>> => {
      try {
        const envelope = ResultEnvelope.safeParse(await transport.invoke(channel, request));
        return envelope.success ? envelope.data : transportFailure('malformed reply');
      } catch (cause) {
        return transportFailure(cause);
      }
    };
  }
  return {
    ...api,
    onEvent: (listener: (event: CallbarEvent) => void) => transport.subscribe(listener),
  } as unknown as CallbarApi;
}
