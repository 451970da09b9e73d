/**
 * THE table of channels: every request the renderer may make, with the zod schema of its request and response. Main validates every request (and its own responses) against it; the preload, the web preview bridge and the router are all built from it.
 * Part of the IPC contract (src-shared/contract/index.ts says what it is).
 */
import { z } from 'zod';
import { AccountStatus, ReceiverRegistration } from './account';
import {
  CALL_NOTE_CHARS,
  CallSource,
  CallsSnapshot,
  DestinationClass,
  DialOutcome,
  DialTarget,
  dialInput,
  SearchAnswer,
} from './calls';
import { AppInfo, NoRequest } from './common';
import { DirectoryStatus, FavouriteContact, SearchRequest } from './directory';
import {
  IMPORT_UPLOAD_CHARS,
  ImportEncoding,
  ImportField,
  ImportPreview,
  importId,
} from './imports';
import { CrmLinkOffer, CrmParty, ExportPiece, ExportRequest, exportId } from './links';
import {
  ContactFields,
  ContactOrdering,
  ContactView,
  ListPage,
  PhonebookFields,
  PhonebookOrdering,
  PhonebookView,
  entityId,
  listPage,
  listSearch,
} from './phonebooks';
import { SettingsView } from './settings';

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
  /**
   * Sentences core said (an error's message, a field's), in the window's language now: a dialog
   * whose error is still shown when the person changes the language says it again. A sentence
   * core did not say comes back as it is.
   */
  'app.sayAgain': {
    request: z.strictObject({ texts: z.array(z.string().max(2000)).max(20) }),
    response: z.array(z.string()),
  },
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
  /** The hits, and what Enter dials when the query reads as a number. */
  'directory.search': { request: SearchRequest, response: SearchAnswer },
  'directory.status': { request: NoRequest, response: DirectoryStatus },
  /** Starts a full sync now (progress arrives as directory.changed events). */
  'directory.sync': { request: NoRequest, response: DirectoryStatus },
  /** What a typed number would dial, without dialing (the "Dial +49 30 …" row). */
  'calls.parse': { request: z.strictObject({ input: dialInput }), response: DialTarget },
  /** Click-to-dial; a tel-link source may answer needs-confirmation instead of dialing. */
  'calls.dial': {
    request: z.strictObject({ target: dialInput, source: CallSource.default('ui') }),
    response: DialOutcome,
  },
  /** A tel:/callto: link handed over by the OS (the shell and the CLI's open-url use the same path). */
  'calls.openUrl': { request: z.strictObject({ url: dialInput }), response: DialOutcome },
  /** The user's answer to a pending dial; `always` turns on "dial links without asking". */
  'calls.confirm': {
    request: z.strictObject({
      id: z.string().max(100),
      accept: z.boolean(),
      always: z.boolean().default(false),
    }),
    response: CallsSnapshot,
  },
  /** Hangs up a current call (default: the newest). */
  'calls.hangup': {
    request: z.strictObject({ call_id: z.string().max(100).optional() }),
    response: CallsSnapshot,
  },
  'calls.list': { request: NoRequest, response: CallsSnapshot },
  /** Clears the recent calls, undoably for a few seconds (the snapshot's `cleared`). */
  'calls.clearRecent': { request: NoRequest, response: CallsSnapshot },
  /** Brings back the calls of the last clear, while it can be undone. */
  'calls.undoClear': { request: NoRequest, response: CallsSnapshot },
  'phonebooks.list': {
    request: z.strictObject({
      search: listSearch,
      ordering: PhonebookOrdering.default('-priority'),
      page: listPage,
    }),
    response: ListPage(PhonebookView),
  },
  'phonebooks.create': { request: PhonebookFields, response: PhonebookView },
  'phonebooks.update': {
    request: PhonebookFields.extend({ id: entityId }).strict(),
    response: PhonebookView,
  },
  /** Refused with phonebook_in_use (naming the devices) while a device uses it. */
  'phonebooks.delete': { request: z.strictObject({ id: entityId }), response: z.object({}) },
  'contacts.list': {
    request: z.strictObject({
      phonebook: entityId,
      search: listSearch,
      ordering: ContactOrdering.default('display_name'),
      page: listPage,
    }),
    response: ListPage(ContactView),
  },
  /** Creates, edits and deletes update the directory's search index at once. */
  'contacts.create': { request: ContactFields, response: ContactView },
  'contacts.update': {
    request: ContactFields.extend({ id: entityId }).strict(),
    response: ContactView,
  },
  'contacts.delete': { request: z.strictObject({ id: entityId }), response: z.object({}) },
  /** All or nothing (the platform's rule). */
  'contacts.bulkDelete': {
    request: z.strictObject({ ids: z.array(entityId).min(1).max(1000) }),
    response: z.object({ deleted: z.number().int().nonnegative() }),
  },
  /**
   * Starts an export (a phonebook's or every phonebook's contacts as CSV or vCard 4.0 with CSV
   * formulas neutralised, or the recent calls with their notes as CSV); `exports.read` takes it
   * piece by piece as the platform's pages arrive.
   */
  'exports.start': {
    request: ExportRequest,
    response: z.object({ export_id: exportId, file_name: z.string() }),
  },
  /** The next piece of an export (at most EXPORT_PIECE_CHARS); the last says done. */
  'exports.read': { request: z.strictObject({ export_id: exportId }), response: ExportPiece },
  /**
   * A piece of a file to import (the first without an id opens the upload): its bytes in base64,
   * as the window sends them (core reads their encoding), or UTF-8 text.
   */
  'imports.upload': {
    request: z
      .strictObject({
        import_id: importId.optional(),
        file_name: z.string().max(255),
        text: z.string().max(IMPORT_UPLOAD_CHARS).optional(),
        base64: z.base64().max(IMPORT_UPLOAD_CHARS).optional(),
      })
      .refine((request) => (request.text === undefined) !== (request.base64 === undefined), {
        message: 'Either text or base64, not both.',
      }),
    response: z.object({ import_id: importId }),
  },
  /** Parses the upload and checks every row against the phonebook; nothing is sent. */
  'imports.preview': {
    request: z.strictObject({
      import_id: importId,
      phonebook: entityId,
      on_duplicate: z.enum(['skip', 'update']).default('skip'),
      mapping: z.partialRecord(ImportField, z.number().int().min(0).max(99).nullable()).optional(),
      /** The file's encoding as the person chose it (absent: Callbar finds it). */
      encoding: ImportEncoding.optional(),
    }),
    response: ImportPreview,
  },
  /** Runs the previewed import; progress and the result arrive as imports.changed events. */
  'imports.start': { request: z.strictObject({ import_id: importId }), response: z.object({}) },
  /** Stops a running import after the row being sent. */
  'imports.cancel': { request: z.strictObject({ import_id: importId }), response: z.object({}) },
  /** The favourites the directory has: policy ones first, then the person's stars. */
  'favourites.list': { request: NoRequest, response: z.array(FavouriteContact) },
  /** Stars or unstars a contact (a policy favourite cannot be unstarred). */
  'favourites.set': {
    request: z.strictObject({ contact_id: entityId, starred: z.boolean() }),
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
        crm_links: z.array(z.string().max(1000)).max(5),
        crm_open_on_connect: z.boolean(),
        language: z.string().max(10),
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
  /* Added by issue 32 (who is calling, CRM link-outs, call notes). */
  /** Sets the note on a call (kept on this computer, per profile); '' removes it. */
  'calls.setNote': {
    request: z.strictObject({
      call_id: z.string().min(1).max(64),
      note: z.string().max(CALL_NOTE_CHARS),
    }),
    response: CallsSnapshot,
  },
  /** The CRM links the settings offer (none when none is set). */
  'crm.links': { request: NoRequest, response: z.array(CrmLinkOffer) },
  /** Opens CRM link `link` for `party` in the system browser (the address is built in main). */
  'crm.open': {
    request: z.strictObject({ link: z.number().int().min(0).max(4), party: CrmParty }),
    response: z.object({}),
  },
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
