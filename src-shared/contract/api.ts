/**
 * `window.callbar` as a type: one method per channel, grouped by domain, plus the event subscription.
 * Part of the IPC contract (src-shared/contract/index.ts says what it is).
 */
import type { ChannelName, RequestOf, ResponseOf } from './channels';
import type { Result } from './common';
import type { CallbarEvent } from './events';

type DomainOf<C extends string> = C extends `${infer D}.${string}` ? D : never;
type VerbsOf<D extends string> = {
  [C in ChannelName as C extends `${D}.${infer V}` ? V : never]: ChannelMethod<C>;
};

/** A channel as a method: an empty request may be omitted; the promise never rejects. */
export type ChannelMethod<C extends ChannelName> =
  Record<string, never> extends RequestOf<C>
    ? (request?: RequestOf<C>) => Promise<Result<ResponseOf<C>>>
    : (request: RequestOf<C>) => Promise<Result<ResponseOf<C>>>;

/**
 * `window.callbar`: one named method per channel, grouped by domain (`callbar.app.info()`), plus
 * the single event subscription. Never a generic `invoke(channel, …)`.
 */
export type CallbarApi = {
  readonly [D in DomainOf<ChannelName>]: VerbsOf<D>;
} & {
  /** Subscribe to every event main pushes; returns the function that unsubscribes. */
  onEvent(listener: (event: CallbarEvent) => void): () => void;
};
