/**
 * THE IPC contract between the renderer and the main process.
 *
 * Every channel the renderer may call is declared here, with the zod schema of its request and
 * response; every event main may push is a member of `CallbarEvent`. Main validates every request
 * (and its own responses) against these schemas; the renderer imports types only. Later features
 * add channels here and only here: the preload, the web preview bridge and the router are all
 * built from this table.
 */
import { z } from 'zod';

/** Where a request or event travels between processes. */
export const EVENT_CHANNEL = 'callbar.event';

export const Runtime = z.enum(['electron', 'preview']);
export type Runtime = z.infer<typeof Runtime>;

export const AppInfo = z.object({
  name: z.string(),
  version: z.string(),
  /** `process.platform` of the main process: linux, darwin, win32. */
  platform: z.string(),
  /** Electron when running in the desktop shell; preview when served to a browser by the web preview. */
  runtime: Runtime,
  versions: z.object({
    node: z.string(),
    electron: z.string().optional(),
    chrome: z.string().optional(),
  }),
});
export type AppInfo = z.infer<typeof AppInfo>;

/** What a failed call carries across the boundary: a stable code and a sentence for a person. */
export const ErrorInfo = z.object({
  code: z.string(),
  message: z.string(),
  /** The request field the error concerns, when there is one (for showing it next to the input). */
  field: z.string().optional(),
});
export type ErrorInfo = z.infer<typeof ErrorInfo>;

export type Result<T> = { ok: true; value: T } | { ok: false; error: ErrorInfo };

/** The envelope of every response; `value` is checked against the channel's response schema. */
export const ResultEnvelope = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), error: ErrorInfo }),
]);

/** The user's session with the platform, as the rest of the app sees it (never a token). */
export const AccountState = z.enum([
  'not-connected',
  'activating',
  'connected',
  'needs-activation',
  'offline',
  'vault-unavailable',
]);
export type AccountState = z.infer<typeof AccountState>;

export const AccountStatus = z.object({
  state: AccountState,
  tenant_id: z.string().optional(),
  user_extension: z.string().optional(),
  /** When the current access token expires (ISO 8601); Callbar refreshes it by itself. */
  access_token_expires_at: z.string().optional(),
  /** A sentence for the user when the state needs explaining (offline, keychain locked…). */
  message: z.string().optional(),
});
export type AccountStatus = z.infer<typeof AccountStatus>;

const NoRequest = z.object({}).strict();

interface ChannelSpec {
  request: z.ZodType;
  response: z.ZodType;
}

export const channels = {
  'app.info': { request: NoRequest, response: AppInfo },
  'account.status': { request: NoRequest, response: AccountStatus },
  /** Opens the platform portal in the system browser to connect; progress arrives as events. */
  'account.connect': { request: NoRequest, response: AccountStatus },
  'account.cancelConnect': { request: NoRequest, response: AccountStatus },
  /** Forgets the session on this computer (the portal keeps the integration). */
  'account.forget': { request: NoRequest, response: AccountStatus },
} as const satisfies Record<`${string}.${string}`, ChannelSpec>;

export type ChannelName = keyof typeof channels;
export const channelNames = Object.keys(channels) as ChannelName[];

export function isChannelName(name: unknown): name is ChannelName {
  return typeof name === 'string' && Object.hasOwn(channels, name);
}

/** What a caller passes (before parsing, so defaults may be omitted). */
export type RequestOf<C extends ChannelName> = z.input<(typeof channels)[C]['request']>;
/** What a handler receives (after parsing). */
export type ParsedRequestOf<C extends ChannelName> = z.output<(typeof channels)[C]['request']>;
/** What the renderer receives. */
export type ResponseOf<C extends ChannelName> = z.output<(typeof channels)[C]['response']>;

/** Something a person should know about that is not the answer to a request. */
export const NoticeEvent = z.object({
  type: z.literal('app.notice'),
  level: z.enum(['info', 'warning', 'error']),
  message: z.string(),
});

export const AccountChangedEvent = z.object({
  type: z.literal('account.changed'),
  status: AccountStatus,
});

export const CallbarEvent = z.discriminatedUnion('type', [NoticeEvent, AccountChangedEvent]);
export type CallbarEvent = z.infer<typeof CallbarEvent>;

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
