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
  /** Every field the platform refused, with its sentence (a form shows each next to its input). */
  fields: z.record(z.string(), z.string()).optional(),
  /** What only someone looking into it needs (the request, the HTTP status), behind "Details". */
  details: z.string().optional(),
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

/** The account connected on this computer before the current one, when it was a different one. */
export const AccountSwitch = z.object({
  tenant_id: z.string(),
  user_extension: z.string(),
  /** When that account was connected (ISO 8601). */
  connected_at: z.string(),
  /** The sentence to show ("Callbar is now connected to extension 202 (…), not to 201 as before…"). */
  message: z.string(),
});
export type AccountSwitch = z.infer<typeof AccountSwitch>;

export const AccountStatus = z.object({
  state: AccountState,
  tenant_id: z.string().optional(),
  user_extension: z.string().optional(),
  /** When the current access token expires (ISO 8601); Callbar refreshes it by itself. */
  access_token_expires_at: z.string().optional(),
  /** A sentence for the user when the state needs explaining (offline, keychain locked…). */
  message: z.string().optional(),
  /**
   * While activating: the loopback address that leads to the portal, for the window to show with
   * Copy when no browser opened. Only a link without the confirmation key is ever given here.
   */
  connect_link: z.string().optional(),
  /** The session is for a different account than the one before; until acknowledged. */
  account_switch: AccountSwitch.optional(),
  /**
   * Said while call events are not authenticated: accepted without (the setting
   * accept_unauthenticated_events is on), or refused because Callbar cannot read its webhook
   * secret from the keychain.
   */
  events_warning: z.string().optional(),
  /** Relay mode: the relay's host that activation and call events come through. */
  relay: z.string().optional(),
});
export type AccountStatus = z.infer<typeof AccountStatus>;

/**
 * What to register with the platform's integration: the exact URLs and the extra headers (see
 * core/account/webhook-auth.ts). The Webhook URL holds the profile's secret, so the window asks
 * for this only when the person opens it in Settings.
 */
export const ReceiverRegistration = z.object({
  activation_url: z.string(),
  deactivation_url: z.string(),
  webhook_url: z.string(),
  /** Headers the platform sends with every call (configured with CALLBAR_RECEIVER_HEADERS). */
  headers: z.record(z.string(), z.string()),
  /** How call events are authenticated: by the headers, by the secret in the URL, or not. */
  authentication: z.enum(['headers', 'secret-url', 'none']),
  /** The setting accept_unauthenticated_events is on. */
  accepts_unauthenticated: z.boolean(),
  /** Why the Webhook URL has no secret part (the keychain could not give it). */
  problem: z.string().optional(),
});
export type ReceiverRegistration = z.infer<typeof ReceiverRegistration>;

const NoRequest = z.object({}).strict();

const isoTime = z.string();

/* ---------------------------------------------------------------- directory (core/directory) */

/** A phonebook contact as the local directory holds it (numbers as the platform stores them). */
export const DirectoryContact = z.object({
  id: z.number().int(),
  phonebook: z.number().int(),
  /** The phonebook's description, for showing where a contact comes from. */
  phonebook_name: z.string(),
  display_name: z.string(),
  company: z.string(),
  number: z.string(),
  secondary_number: z.string().nullable(),
  speed_dial: z.number().int().nullable(),
});
export type DirectoryContact = z.infer<typeof DirectoryContact>;

/** A favourite: the person's own star, or one pushed by a policy (read-only). */
export const FavouriteContact = DirectoryContact.extend({
  source: z.enum(['user', 'policy']),
  read_only: z.boolean(),
});
export type FavouriteContact = z.infer<typeof FavouriteContact>;

export const MatchField = z.enum([
  'display_name',
  'company',
  'number',
  'secondary_number',
  'speed_dial',
]);
export type MatchField = z.infer<typeof MatchField>;

/** Characters [start, end) of a field's displayed text that matched the query (for highlighting). */
export const MatchRange = z.object({
  field: MatchField,
  start: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
});
export type MatchRange = z.infer<typeof MatchRange>;

export const SearchHit = z.object({
  contact: DirectoryContact,
  /** The field that ranked this hit, and how well it matched. */
  field: MatchField,
  match: z.enum(['exact', 'prefix', 'infix', 'fuzzy']),
  ranges: z.array(MatchRange),
});
export type SearchHit = z.infer<typeof SearchHit>;

export const SearchRequest = z
  .object({
    query: z.string().max(200),
    limit: z.number().int().min(1).max(500).default(50),
  })
  .strict();

export const SearchResult = z.object({
  query: z.string(),
  hits: z.array(SearchHit),
});
export type SearchResult = z.infer<typeof SearchResult>;

export const SyncProgress = z.object({
  phonebooks_done: z.number().int().nonnegative(),
  phonebooks_total: z.number().int().nonnegative(),
  contacts: z.number().int().nonnegative(),
  /** Sum of the platform's `count` over the phonebooks started so far, when known. */
  contacts_total: z.number().int().nonnegative().optional(),
});
export type SyncProgress = z.infer<typeof SyncProgress>;

export const DirectoryStatus = z.object({
  /**
   * empty: nothing synced and no cache yet; syncing: a sync runs (the previous index still
   * answers); ready: the index is complete and fresh; stale: complete but older than the refresh
   * interval (offline, or the last sync failed).
   */
  state: z.enum(['empty', 'syncing', 'ready', 'stale']),
  contacts: z.number().int().nonnegative(),
  phonebooks: z.number().int().nonnegative(),
  /** When the index in use was completed (ISO 8601); absent before the first complete sync. */
  synced_at: isoTime.optional(),
  progress: SyncProgress.optional(),
  /** Why the last sync failed or was cancelled, in words for the user. */
  last_error: z.string().optional(),
  /** The request and status behind last_error, for the "Details" disclosure. */
  last_error_details: z.string().optional(),
});
export type DirectoryStatus = z.infer<typeof DirectoryStatus>;

/* -------------------------------------------------------------------- calls (core/calls) */

export const CallSource = z.enum(['ui', 'tray', 'tel-link', 'shortcut', 'cli']);
export type CallSource = z.infer<typeof CallSource>;

/**
 * What a destination is, judged before dialling (core/calls/destination-class.ts): an extension
 * on the phone system, a number in the user's region or another country, a number that costs
 * more (premium-rate, shared-cost) or nothing (toll-free), an emergency number, a `*`/`#` service
 * code, or an outside number whose kind libphonenumber cannot tell (unknown).
 */
export const DestinationClass = z.enum([
  'extension',
  'national',
  'international',
  'premium-rate',
  'shared-cost',
  'toll-free',
  'emergency',
  'service-code',
  'unknown',
]);
export type DestinationClass = z.infer<typeof DestinationClass>;

/** What a typed, pasted or clicked number resolves to. */
export const DialTarget = z.object({
  /** What is sent to the platform: E.164 for external numbers, digits for extensions. */
  destination: z.string(),
  /** How to show it to a person ("+49 30 1234567", "Extension 201"). */
  display: z.string(),
  kind: z.enum(['external', 'extension', 'speed-dial']),
  /** What the destination is (of the number a speed dial stands for, for a speed dial). */
  class: DestinationClass,
  /** The country the number belongs to (ISO 3166-1 alpha-2): outside and emergency numbers. */
  country: z.string().optional(),
  /** The number in international form (E.164), for outside numbers. */
  e164: z.string().optional(),
  /** The class in plain words: "This is a premium-rate number in Germany." */
  description: z.string(),
  /**
   * Something the person must know about what was typed, e.g. that a speed dial with the same
   * digits exists but the emergency number wins.
   */
  note: z.string().optional(),
  /** The directory contact the number belongs to, when known. */
  contact: DirectoryContact.optional(),
});
export type DialTarget = z.infer<typeof DialTarget>;

/** The other side of a call, identified through the directory when possible. */
export const CallParty = z.object({
  number: z.string(),
  display: z.string(),
  name: z.string().optional(),
  company: z.string().optional(),
  contact_id: z.number().int().optional(),
});
export type CallParty = z.infer<typeof CallParty>;

/**
 * dialing: the platform was asked; calling-you: your own phone rings; ringing: the other party's
 * phone rings; connected; in-progress: events arrive but do not say more (the contract guarantees
 * only leg ids); ended; failed: the platform refused the dial.
 */
export const CallState = z.enum([
  'dialing',
  'calling-you',
  'ringing',
  'connected',
  'in-progress',
  'ended',
  'failed',
]);
export type CallState = z.infer<typeof CallState>;

export const Call = z.object({
  /** Callbar's own id for the call (leg ids come and go). */
  id: z.string(),
  direction: z.enum(['outgoing', 'incoming']),
  state: CallState,
  party: CallParty,
  source: CallSource.optional(),
  started_at: isoTime,
  connected_at: isoTime.optional(),
  ended_at: isoTime.optional(),
  /** Call leg ids seen for this call, oldest first. */
  leg_ids: z.array(z.string()),
  /** Why it ended or failed, in words, when known. */
  reason: z.string().optional(),
});
export type Call = z.infer<typeof Call>;

/** A dial that waits for the user's yes (a tel: link, unless links dial without asking). */
export const PendingDial = z.object({
  id: z.string(),
  target: DialTarget,
  source: CallSource,
  /** The link as it arrived, shortened for display. */
  link: z.string().optional(),
  /**
   * Why this link asks even when links dial without asking (an emergency number, a premium-rate
   * number, another country…), in plain words; absent when it asks only because of the setting.
   */
  reason: z.string().optional(),
});
export type PendingDial = z.infer<typeof PendingDial>;

export const CallsSnapshot = z.object({
  /** Calls not yet ended, newest first (usually zero or one). */
  current: z.array(Call),
  /** Ended calls, newest first, capped and persisted in the profile. */
  recent: z.array(Call),
  /** A dial waiting for confirmation, if any. */
  pending: PendingDial.nullable(),
});
export type CallsSnapshot = z.infer<typeof CallsSnapshot>;

export const DialOutcome = z.discriminatedUnion('status', [
  z.object({ status: z.literal('dialing'), call: Call, target: DialTarget }),
  z.object({ status: z.literal('needs-confirmation'), pending: PendingDial }),
]);
export type DialOutcome = z.infer<typeof DialOutcome>;

const dialInput = z.string().min(1).max(512);

/* ------------------------------------------- phonebooks and contacts (core/phonebooks) */

const entityId = z.number().int().positive();
const listSearch = z.string().max(200).optional();
const listPage = z.number().int().positive().max(100_000).default(1);

/** A phonebook as the window shows it (owners as the platform's user ids). */
export const PhonebookView = z.object({
  id: z.number().int(),
  description: z.string(),
  priority: z.number().int(),
  is_shared: z.boolean(),
});
export type PhonebookView = z.infer<typeof PhonebookView>;

/** What the phonebook editor sends (the platform's write shape, owners left as they are). */
export const PhonebookFields = z
  .object({
    description: z.string().max(500),
    /** As typed (text is checked by core, which names the field). */
    priority: z.union([z.number(), z.string().max(20)]),
    is_shared: z.boolean(),
  })
  .strict();
export type PhonebookFields = z.infer<typeof PhonebookFields>;

export const PhonebookOrdering = z.enum([
  'priority',
  '-priority',
  'description',
  '-description',
  'is_shared',
  '-is_shared',
]);
export type PhonebookOrdering = z.infer<typeof PhonebookOrdering>;

/** A phonebook contact as the platform holds it. */
export const ContactView = z.object({
  id: z.number().int(),
  phonebook: z.number().int(),
  display_name: z.string(),
  number: z.string(),
  secondary_number: z.string().nullable(),
  speed_dial: z.number().int().nullable(),
  company: z.string(),
});
export type ContactView = z.infer<typeof ContactView>;

/**
 * What the contact editor sends. Loose on purpose (a number field may still hold text): core
 * checks the platform's rules and answers with the field and a sentence.
 */
export const ContactFields = z
  .object({
    phonebook: entityId,
    display_name: z.string().max(500),
    number: z.string().max(100),
    secondary_number: z.string().max(100).nullable().default(null),
    /** As typed (text is checked by core, which names the field). */
    speed_dial: z.union([z.number(), z.string().max(20)]),
    company: z.string().max(500).default(''),
  })
  .strict();
export type ContactFields = z.infer<typeof ContactFields>;

export const ContactOrdering = z.enum([
  'display_name',
  '-display_name',
  'number',
  '-number',
  'company',
  '-company',
  'speed_dial',
  '-speed_dial',
]);
export type ContactOrdering = z.infer<typeof ContactOrdering>;

/** One page of a platform list, as the window pages through it. */
export function ListPage<T extends z.ZodType>(item: T) {
  return z.object({
    count: z.number().int().nonnegative(),
    page: z.number().int().positive(),
    page_size: z.number().int().positive(),
    has_more: z.boolean(),
    results: z.array(item),
  });
}

/* ----------------------------------------------------------------- settings (core/config) */

/** The settings a person changes in the window (the rest are for administrators and env). */
export const EditableSettings = z.object({
  region: z.string(),
  receiver_port: z.number().int(),
  handle_links: z.enum(['ask', 'yes', 'no']),
  confirm_web_links: z.boolean(),
  open_at_login: z.boolean(),
  dial_shortcut: z.string(),
  sync_interval_minutes: z.number().int(),
  start_minimized: z.boolean(),
  /** The dialling policy (issue 25): the kinds of numbers and the countries Callbar dials. */
  dial_allowed_classes: z.array(DestinationClass),
  dial_allowed_countries: z.array(z.string()),
  /** Relay mode (docs/relay.md): the relay's address(es); "" for the loopback receiver. */
  relay_url: z.string(),
});
export type EditableSettings = z.infer<typeof EditableSettings>;

export const SettingsView = z.object({
  settings: EditableSettings,
  /** The countries (ISO 3166-1 alpha-2) Callbar reads numbers for: the region and policy choices. */
  countries: z.array(z.string()),
  /** The receiver's addresses to register on the platform (they contain the port). */
  receiver_urls: z.object({
    activation: z.string(),
    deactivation: z.string(),
    /** Up to `/events` only: the secret that follows comes from account.receiverRegistration. */
    webhook: z.string(),
  }),
  /** Settings whose saved value differs from the one this running Callbar uses (a restart applies them). */
  restart_needed: z.array(z.string()),
  /** Settings a CALLBAR_* environment variable overrides in this process. */
  overridden: z.array(z.string()),
  /** Settings the organisation locked (read-only), each with the policy file or key setting it. */
  locked: z.record(z.string(), z.string()),
  /** Policy files, keys or values that were ignored, one sentence each. */
  policy_problems: z.array(z.string()),
});
export type SettingsView = z.infer<typeof SettingsView>;

/* -------------------------------------------------------------------- contacts import */

/** The contact fields a file's columns map to (core/contacts-io). */
export const ImportField = z.enum([
  'display_name',
  'number',
  'secondary_number',
  'speed_dial',
  'company',
]);
export type ImportField = z.infer<typeof ImportField>;

/** Characters of the file's text one `imports.upload` carries (the web preview's bodies are ≤ 1 MB). */
export const IMPORT_UPLOAD_CHARS = 128 * 1024;

const importId = z.string().min(1).max(64);

export const ImportCounts = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  skipped: z.number().int(),
  failed: z.number().int(),
  not_sent: z.number().int(),
});

export const ImportPreview = z.object({
  import_id: importId,
  format: z.enum(['csv', 'vcard']),
  headers: z.array(z.string()),
  mapping: z.partialRecord(ImportField, z.number().int()),
  /** What the import would do with every row. */
  counts: ImportCounts,
  /** The first rows, each with what would happen to it and why. */
  rows: z.array(
    z.object({
      row: z.number().int(),
      outcome: z.enum(['created', 'updated', 'skipped', 'failed', 'not_sent']),
      cells: z.record(ImportField, z.string()),
      reason: z.string().optional(),
    }),
  ),
});
export type ImportPreview = z.infer<typeof ImportPreview>;

export const ImportsChangedEvent = z.object({
  type: z.literal('imports.changed'),
  import_id: importId,
  progress: ImportCounts.extend({
    done: z.number().int(),
    total: z.number().int(),
    waiting_ms: z.number().optional(),
  }).optional(),
  result: z
    .object({
      counts: ImportCounts,
      cancelled: z.boolean(),
      stopped: z.string().optional(),
      requests: z.number().int(),
      /** The rows not imported, as a CSV to save ('' when every row went in). */
      failures_csv: z.string(),
    })
    .optional(),
});
export type ImportsChangedEvent = z.infer<typeof ImportsChangedEvent>;

/* ------------------------------------------------------------------------------- channels */

interface ChannelSpec {
  request: z.ZodType;
  response: z.ZodType;
}

export const channels = {
  'app.info': { request: NoRequest, response: AppInfo },
  /**
   * The first-run setup window's "Open Callbar": the desktop shell shows the main window and
   * closes the setup window; `shown: false` where there is no other window (the web preview).
   */
  'app.showMain': { request: NoRequest, response: z.object({ shown: z.boolean() }) },
  'account.status': { request: NoRequest, response: AccountStatus },
  /** Opens the platform portal in the system browser to connect; progress arrives as events. */
  'account.connect': { request: NoRequest, response: AccountStatus },
  'account.cancelConnect': { request: NoRequest, response: AccountStatus },
  /** Forgets the session on this computer (the portal keeps the integration). */
  'account.forget': { request: NoRequest, response: AccountStatus },
  /** The user saw that Callbar is connected to a different account than before. */
  'account.acknowledgeSwitch': { request: NoRequest, response: AccountStatus },
  /** The exact URLs and headers to register with the platform (Settings, on request only). */
  'account.receiverRegistration': { request: NoRequest, response: ReceiverRegistration },
  /** Ranked search of the local contact index (never a platform round trip). */
  'directory.search': { request: SearchRequest, response: SearchResult },
  'directory.status': { request: NoRequest, response: DirectoryStatus },
  /** Starts a full sync now (progress arrives as directory.changed events). */
  'directory.sync': { request: NoRequest, response: DirectoryStatus },
  /** What a typed number would dial, without dialing (the "Dial +49 30 …" row). */
  'calls.parse': { request: z.object({ input: dialInput }).strict(), response: DialTarget },
  /** Click-to-dial; a tel-link source may answer needs-confirmation instead of dialing. */
  'calls.dial': {
    request: z.object({ target: dialInput, source: CallSource.default('ui') }).strict(),
    response: DialOutcome,
  },
  /** A tel:/callto: link handed over by the OS (the shell and the CLI's open-url use the same path). */
  'calls.openUrl': { request: z.object({ url: dialInput }).strict(), response: DialOutcome },
  /** The user's answer to a pending dial; `always` turns on "dial links without asking". */
  'calls.confirm': {
    request: z
      .object({ id: z.string().max(100), accept: z.boolean(), always: z.boolean().default(false) })
      .strict(),
    response: CallsSnapshot,
  },
  /** Hangs up a current call (default: the newest). */
  'calls.hangup': {
    request: z.object({ call_id: z.string().max(100).optional() }).strict(),
    response: CallsSnapshot,
  },
  'calls.list': { request: NoRequest, response: CallsSnapshot },
  'calls.clearRecent': { request: NoRequest, response: CallsSnapshot },
  'phonebooks.list': {
    request: z
      .object({
        search: listSearch,
        ordering: PhonebookOrdering.default('-priority'),
        page: listPage,
      })
      .strict(),
    response: ListPage(PhonebookView),
  },
  'phonebooks.create': { request: PhonebookFields, response: PhonebookView },
  'phonebooks.update': {
    request: PhonebookFields.extend({ id: entityId }).strict(),
    response: PhonebookView,
  },
  /** Refused with phonebook_in_use (naming the devices) while a device uses it. */
  'phonebooks.delete': { request: z.object({ id: entityId }).strict(), response: z.object({}) },
  'contacts.list': {
    request: z
      .object({
        phonebook: entityId,
        search: listSearch,
        ordering: ContactOrdering.default('display_name'),
        page: listPage,
      })
      .strict(),
    response: ListPage(ContactView),
  },
  /** Creates, edits and deletes update the directory's search index at once. */
  'contacts.create': { request: ContactFields, response: ContactView },
  'contacts.update': {
    request: ContactFields.extend({ id: entityId }).strict(),
    response: ContactView,
  },
  'contacts.delete': { request: z.object({ id: entityId }).strict(), response: z.object({}) },
  /** All or nothing (the platform's rule). */
  'contacts.bulkDelete': {
    request: z.object({ ids: z.array(entityId).min(1).max(1000) }).strict(),
    response: z.object({ deleted: z.number().int().nonnegative() }),
  },
  /** A phonebook's contacts as a CSV or vCard 4.0 file's text (CSV formulas neutralised). */
  'contacts.export': {
    request: z.object({ phonebook: entityId, format: z.enum(['csv', 'vcard']) }).strict(),
    response: z.object({ file_name: z.string(), text: z.string(), contacts: z.number().int() }),
  },
  /** A piece of a file to import (the first without an id opens the upload). */
  'imports.upload': {
    request: z
      .object({
        import_id: importId.optional(),
        file_name: z.string().max(255),
        text: z.string().max(IMPORT_UPLOAD_CHARS),
      })
      .strict(),
    response: z.object({ import_id: importId }),
  },
  /** Parses the upload and checks every row against the phonebook; nothing is sent. */
  'imports.preview': {
    request: z
      .object({
        import_id: importId,
        phonebook: entityId,
        on_duplicate: z.enum(['skip', 'update']).default('skip'),
        mapping: z
          .partialRecord(ImportField, z.number().int().min(0).max(99).nullable())
          .optional(),
      })
      .strict(),
    response: ImportPreview,
  },
  /** Runs the previewed import; progress and the result arrive as imports.changed events. */
  'imports.start': { request: z.object({ import_id: importId }).strict(), response: z.object({}) },
  /** Stops a running import after the row being sent. */
  'imports.cancel': { request: z.object({ import_id: importId }).strict(), response: z.object({}) },
  /** The favourites the directory has: policy ones first, then the person's stars. */
  'favourites.list': { request: NoRequest, response: z.array(FavouriteContact) },
  /** Stars or unstars a contact (a policy favourite cannot be unstarred). */
  'favourites.set': {
    request: z.object({ contact_id: entityId, starred: z.boolean() }).strict(),
    response: z.array(FavouriteContact),
  },
  'settings.get': { request: NoRequest, response: SettingsView },
  /** Saves atomically; an invalid value is refused with its field and nothing is written. */
  'settings.save': {
    request: z
      .object({
        region: z.string().max(10),
        receiver_port: z.number(),
        handle_links: z.string().max(10),
        confirm_web_links: z.boolean(),
        open_at_login: z.boolean(),
        dial_shortcut: z.string().max(100),
        sync_interval_minutes: z.number(),
        start_minimized: z.boolean(),
        dial_allowed_classes: z.array(z.string().max(20)).max(DestinationClass.options.length),
        dial_allowed_countries: z.array(z.string().max(10)).max(300),
        relay_url: z.string().max(2000),
      })
      .partial()
      .strict(),
    response: SettingsView,
  },
  /* Added by issue 27 (the call bar's Cancel). */
  /**
   * Abandons the dial on its way to the platform: not sent yet, it never is; already sent, the
   * call is hung up once the platform answers. Refused with no_dial_in_flight when none is.
   */
  'calls.cancelDial': { request: NoRequest, response: CallsSnapshot },
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

export const DirectoryChangedEvent = z.object({
  type: z.literal('directory.changed'),
  status: DirectoryStatus,
});

export const CallsChangedEvent = z.object({
  type: z.literal('calls.changed'),
  calls: CallsSnapshot,
});

/** The global shortcut opened the window: focus the search box, prefilled with `query`. */
export const FocusSearchEvent = z.object({
  type: z.literal('app.focusSearch'),
  query: z.string().max(512),
});
export type FocusSearchEvent = z.infer<typeof FocusSearchEvent>;

/** The favourites changed (starred here, or the account changed). */
export const FavouritesChangedEvent = z.object({
  type: z.literal('favourites.changed'),
  favourites: z.array(FavouriteContact),
});

export const CallbarEvent = z.discriminatedUnion('type', [
  NoticeEvent,
  FocusSearchEvent,
  AccountChangedEvent,
  DirectoryChangedEvent,
  CallsChangedEvent,
  FavouritesChangedEvent,
  ImportsChangedEvent,
]);
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
