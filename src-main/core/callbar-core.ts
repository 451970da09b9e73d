import type {
  AccountStatus,
  AppInfo,
  DialTarget,
  PhonebookView,
  Runtime,
} from '../../src-shared/contract';
import { resolveLocale } from '../../src-shared/i18n/resolve-locale';
import { ATTEMPT_ENDED_CODES } from './account/account-service';
import { SESSION_LOCK_NAME } from './account/session-lock';
import { createPlatformApi } from './api/platform-api';
import type { PlatformClientOptions } from './api/platform-client';
import type { Clock } from './clock';
import { partyCalls } from './calls/call-history';
import { openCalls } from './calls/open-calls';
import type { CallsService } from './calls/calls-service';
import { sayAgain, translatorFor } from './text/translators';
import { readSettingsView, saveSettingsView } from './config/settings-editor';
import { openDirectory } from './directory/open-directory';
import { CACHE_FILE_NAME } from './directory/cache-file-read';
import { placeDialRow } from './directory/dial-row';
import { loadShortNumbers } from './numbers/destination-class';
import { numberingOf, type Numbering } from './numbers/numbering';
import { holdsDigit } from './numbers/number-reading';
import type { Directory } from './directory/directory';
import { CallbarError, errorMessage } from './errors';
import { CrmLinks } from './crm/crm-links';
import {
  FAVOURITES_FILE_NAME,
  policyFavourites,
  profileFavourites,
  type Favourites,
} from './favourites/favourites';
import { policyOnlyValues } from './config/policy/policies';
import { EventHub } from './ipc/event-hub';
import { Router, type Handlers } from './ipc/router';
import { warmUpSearch } from './ipc/search-warm-up';
import { packageInfo } from './package-info';
import { PhonebookEditor, phonebookView } from './phonebooks/phonebook-editor';
import type { Profile } from './profile';
import { said } from './text/said';

export interface CoreOptions {
  runtime: Runtime;
  profile: Profile;
  /** Opens an address in the system browser (the portal link); injected by the shell. */
  openUrl: (url: string) => Promise<void>;
  /**
   * Opens a CRM link in the system browser (the shell's opener allows only https addresses at a
   * `crm_links` template's origin); without it CRM links are refused.
   */
  openCrmUrl?: (url: string) => Promise<void>;
  /** Shows the main window, closing the setup window (the desktop shell); false when there is none. */
  showMainWindow?: () => boolean;
  /** Electron and Chrome versions when the shell knows them. */
  shellVersions?: { electron?: string; chrome?: string };
  /** The platform's time for the directory's pacing and waits (default: real time). */
  clock?: Clock;
  /** How long a platform request may take (default: the client's 15 s). */
  requestTimeoutMs?: number;
  /** How reads are retried (default: the client's, PlatformClientOptions.retry). */
  requestRetry?: PlatformClientOptions['retry'];
  /**
   * The operating system's languages, best first (Electron's `app.getPreferredSystemLanguages()`;
   * the web preview's are its browser's, asked each time): with the `language` setting, the
   * language of the errors the window is answered with.
   */
  systemLanguages?: readonly string[] | (() => readonly string[] | undefined);
}

/**
 * Callbar's core, composed once per process: the router every transport calls and the event hub
 * every transport listens to. Electron's ipcMain and the web preview server are thin adapters
 * around this object.
 */
export interface CallbarCore {
  readonly router: Router;
  readonly events: EventHub;
  readonly profile: Profile;
  /** The contact directory: search, caller lookup (lookupByNumber), speed dials. */
  readonly directory: Directory;
  /** Starred contacts (the tray lists them; favourites.changed says when they change). */
  readonly favourites: Favourites;
  close(): Promise<void>;
}

/** Builds the core and restores the session; the receiver starts listening in the background. */
export async function startCore(options: CoreOptions): Promise<CallbarCore> {
  const { profile } = options;
  const { account, log } = profile;
  /** The window's language: the setting as it is now, else the system's. */
  const systemLanguages = () =>
    typeof options.systemLanguages === 'function'
      ? options.systemLanguages()
      : options.systemLanguages;
  const windowWords = () =>
    translatorFor(
      resolveLocale({ setting: profile.settings.language, system: systemLanguages() }),
      'errors',
    );
  // Every event's sentences in the window's language (the tray speaks the same one).
  const events = new EventHub(windowWords);
  const api = createPlatformApi({
    baseUrl: profile.settings.base_url,
    tokens: account.tokens,
    log,
    dataDir: profile.dataDir,
    client: {
      ...(options.requestTimeoutMs ? { timeoutMs: options.requestTimeoutMs } : {}),
      ...(options.requestRetry ? { retry: options.requestRetry } : {}),
    },
  });
  const directory = openDirectory(profile, api.phonebooks, options.clock);
  const appInfo: AppInfo = {
    name: packageInfo.name,
    version: packageInfo.version,
    platform: process.platform,
    runtime: options.runtime,
    versions: { node: process.versions.node, ...options.shellVersions },
  };
  // The address the browser was sent to, for the window's Copy (see withConnectLink).
  let connectLink: string | undefined;
  const withConnectLink = (status: AccountStatus): AccountStatus =>
    status.state === 'activating' && connectLink
      ? { ...status, connect_link: connectLink }
      : status;
  // Calls identify parties and resolve speed dials through the directory; both share one client
  // (one rate-limit gate per scope). Its snapshots say why calls ended in the window's language.
  const calls = openCalls({ profile, api, directory, words: windowWords });
  // The search ranks contacts the user calls often and lately first (among equal matches).
  const rankByCalls = () => directory.setCallHistory(partyCalls(calls.tracker.records()));
  // What is known of the tenant's extensions (the user's own, those seen in calls, the speed
  // dials): a typed number is offered as an extension only when it fits. Known again after a
  // change of the account, the directory or the calls; made only when a typed number reads as an
  // extension (the speed dials are read from the cache's column, no contact is made for them).
  let known: Numbering | undefined;
  const numbering = () =>
    (known ??= numberingOf([
      account.tokens.session?.user_extension,
      ...calls.tracker.records().map((record) => record.call.party.number),
      ...directory.speedDials(),
    ]));
  const editor = new PhonebookEditor(api.phonebooks, directory, () => profile.region.current());
  // The person's stars, after those the machine's policy pushes to every user.
  const favourites = profileFavourites(profile.dataDir, log, directory, [
    policyFavourites(policyOnlyValues(profile.policies).favourites),
  ]);
  // Imports and exports (with the vCard and CSV libraries) load when the window first asks for
  // one, not at start: the first search never needs them.
  const imports = whenUsed(async () => {
    const { WindowImports } = await import('./contacts-io/window-imports');
    return new WindowImports({
      api: api.phonebooks,
      region: () => profile.region.current(),
      publish: (event) => {
        events.publish({ type: 'imports.changed', ...event });
        // Imported contacts reach the search once the directory syncs them in.
        if ('result' in event) directory.sync().catch(() => undefined);
      },
    });
  });
  // CRM link-outs: offered in the window, and opened by themselves when a call connects (if set).
  const crm = new CrmLinks({
    templates: () => profile.settings.crm_links,
    openOnConnect: () => profile.settings.crm_open_on_connect,
    open:
      options.openCrmUrl ??
      (() => Promise.reject(new CallbarError('not_available', said('errors:crm.cannotOpenHere')))),
    log,
  });
  const exports = whenUsed(async () => {
    const { exportSource, WindowExports } = await import('./exports/window-exports');
    return { exportSource, running: new WindowExports() };
  });
  /** Each phonebook with how many contacts the directory holds in it (the window shows it). */
  const withContactCounts = <Page extends { results: PhonebookView[] }>(page: Page): Page => {
    // While the first sync runs, the counts would be short: none rather than wrong.
    if (!['ready', 'stale'].includes(directory.status().state)) return page;
    const counts = new Map<number, number>();
    for (const contact of directory.contacts) {
      counts.set(contact.phonebook, (counts.get(contact.phonebook) ?? 0) + 1);
    }
    return {
      ...page,
      results: page.results.map((book) => ({ ...book, contacts: counts.get(book.id) ?? 0 })),
    };
  };
  const handlers: Handlers = {
    'app.info': () => appInfo,
    'app.showMain': () => ({ shown: options.showMainWindow?.() ?? false }),
    'app.sayAgain': ({ texts }) => {
      const words = windowWords();
      return texts.map((text) => sayAgain(words, text));
    },
    'account.status': async () => {
      // Asking again is the window's "Try again": a keychain that was unavailable is re-checked.
      if (account.status().state === 'vault-unavailable') await account.start();
      return withConnectLink(account.status());
    },
    'account.connect': async () => {
      // Said before the receiver starts (the keychain's webhook secret, a port): a Connect that
      // opens nothing is then told apart from one that never reached core.
      log.info('connect asked');
      const started = await account.startActivation({
        openUrl: async (url) => {
          // Only a link served by Callbar's own receiver (which redirects to the portal) is
          // shown; the portal link itself carries the confirmation key in its query.
          const { origin } = await account.listen();
          connectLink = new URL(url).origin === origin ? url : undefined;
          events.publish({ type: 'account.changed', status: withConnectLink(account.status()) });
          await options.openUrl(url);
        },
      });
      started.completion.catch((error: unknown) => {
        // An attempt that ended unconnected is said by the status itself (its message warns
        // that the link must not be used); anything else is a notice.
        if (error instanceof CallbarError && !ATTEMPT_ENDED_CODES.has(error.code)) {
          events.publish({ type: 'app.notice', level: 'warning', message: error.message });
        }
      });
      return withConnectLink(account.status());
    },
    'account.cancelConnect': () => {
      account.cancelActivation();
      return account.status();
    },
    'account.forget': () => account.deactivateLocal(),
    'account.acknowledgeSwitch': () => account.acknowledgeSwitch(),
    'account.receiverRegistration': () => account.receiverRegistration(),
    'directory.search': ({ query, limit }) => {
      const found = directory.search(query, limit);
      return {
        ...found,
        ...placeDialRow(dialTargetFor(calls, query), found.hits, numbering, query),
      };
    },
    'directory.status': () => directory.status(),
    'directory.sync': () => {
      if (!account.status().tenant_id) {
        throw new CallbarError('not_connected', said('errors:directory.connectFirst'));
      }
      // Progress and the outcome arrive as directory.changed events.
      directory.sync().catch(() => undefined);
      return directory.status();
    },
    'calls.parse': ({ input }) => calls.parse(input),
    'calls.dial': ({ target, source }) => calls.dial(target, source),
    'calls.openUrl': ({ url }) => calls.openUrl(url),
    'calls.confirm': ({ id, accept, always }) => calls.confirm(id, accept, always),
    'calls.hangup': ({ call_id }) => calls.hangup(call_id),
    'calls.list': async () => {
      await calls.reload();
      return calls.snapshot();
    },
    'calls.setNote': ({ call_id, note }) => calls.setNote(call_id, note),
    'crm.links': () => crm.offers(),
    'crm.open': async ({ link, party }) => {
      await crm.open(link, party);
      return {};
    },
    'calls.clearRecent': () => calls.clearRecent(),
    'calls.undoClear': () => calls.undoClear(),
    'calls.cancelDial': () => calls.cancelDial(),
    'phonebooks.list': async (query) => withContactCounts(await editor.listPhonebooks(query)),
    'phonebooks.create': async (fields) => phonebookView(await editor.createPhonebook(fields)),
    'phonebooks.update': async ({ id, ...fields }) =>
      phonebookView(await editor.updatePhonebook(id, fields)),
    'phonebooks.delete': async ({ id }) => {
      await editor.deletePhonebook(id);
      return {};
    },
    'contacts.list': (query) => editor.listContacts(query),
    'contacts.create': async (fields) => {
      const created = editor.view(await editor.createContact(fields));
      // A caller added from the call bar is named there at once.
      calls.tracker.reidentify();
      return created;
    },
    'contacts.update': async ({ id, ...fields }) =>
      editor.view(await editor.updateContact(id, fields)),
    'contacts.delete': async ({ id }) => {
      await editor.deleteContact(id);
      return {};
    },
    'contacts.bulkDelete': async ({ ids }) => ({
      deleted: await editor.bulkDeleteContacts(ids),
    }),
    'exports.start': async (request) => {
      // A phonebook's file is named for it ("Customers.vcf"), not for its id.
      const phonebookName =
        request.what === 'contacts' && request.phonebook !== undefined
          ? await api.phonebooks.getPhonebook(request.phonebook).then(
              (book) => book.description,
              () => undefined,
            )
          : undefined;
      const { exportSource, running } = await exports();
      return running.start(
        exportSource(request, {
          api: api.phonebooks,
          // A file keeps the English (as --json does): it is read by programs too.
          recent: () => calls.snapshot(null).recent,
          phonebookName,
        }),
      );
    },
    'exports.read': async ({ export_id }) => (await exports()).running.read(export_id),
    'imports.upload': async (request) => (await imports()).upload(request),
    'imports.preview': async (request) => (await imports()).preview(request),
    'imports.start': async ({ import_id }) => {
      (await imports()).start(import_id);
      return {};
    },
    'imports.cancel': async ({ import_id }) => {
      (await imports()).cancel(import_id);
      return {};
    },
    'favourites.list': () => favourites.list(),
    'favourites.set': async ({ contact_id, starred }) => {
      const listed = await favourites.set(contact_id, starred);
      events.publish({ type: 'favourites.changed', favourites: listed });
      return listed;
    },
    'settings.get': () => readSettingsView(profile),
    // The save's change is published as any other (unsubscribeSettings, below).
    'settings.save': (patch) => saveSettingsView(profile, patch),
  };
  // The calls shown (window and tray) are the connected account's: another account shows others.
  let callsOwner = JSON.stringify(account.owner() ?? null);
  const unsubscribe = account.onStatus((status) => {
    known = undefined;
    events.publish(() => ({ type: 'account.changed', status: withConnectLink(status) }));
    const owner = JSON.stringify(account.owner() ?? null);
    if (owner !== callsOwner) {
      callsOwner = owner;
      rankByCalls();
      events.publish(() => ({ type: 'calls.changed', calls: calls.snapshot() }));
    }
    directory.accountChanged(status.state === 'connected').catch((error: unknown) => {
      log.warn('the directory could not follow the account change', { error });
    });
  });
  // A contact added (or synced) since a call came names its party now, once the index is
  // ready: at start the call log's numbers are looked up after the first answers, not before
  // them (through the scan, that would read every contact's numbers first).
  let reidentifying = false;
  const reidentifyWhenIndexed = () => {
    if (reidentifying) return;
    reidentifying = true;
    void directory.indexReady().then(() => {
      reidentifying = false;
      calls.tracker.reidentify();
    });
  };
  // Errors and core's sentences in the window's language (windowWords).
  const router = new Router(handlers, log, windowWords);
  let closing = false;
  let warmed = false;
  // The first time the index holds contacts (the cache read at start, else the first sync), once
  // it is built: each kind of search once, so the first keystrokes do not pay for compiling their
  // paths (ipc/search-warm-up.ts).
  const warmUpOnce = () => {
    if (warmed || directory.status().contacts === 0) return;
    warmed = true;
    void directory.indexReady().then(async () => {
      const started = performance.now();
      const searches = await warmUpSearch(router, () => closing);
      log.debug('search warmed up', { searches, ms: Math.round(performance.now() - started) });
    });
  };
  const unsubscribeDirectory = directory.onChange((status) => {
    known = undefined;
    events.publish({ type: 'directory.changed', status });
    reidentifyWhenIndexed();
    warmUpOnce();
  });
  // Settings changed (saved here, by another process of the profile, by hand or by a policy; or
  // a change to the file is not applied): the window reads them again (its language), and what
  // it shows in the region is shown again (the search asks again, the calls and favourites are
  // sent again, worded anew).
  const unsubscribeSettings = profile.settingsFile.onChange(() => {
    known = undefined;
    events.publish({ type: 'settings.changed' });
    events.publish(() => ({ type: 'calls.changed', calls: calls.snapshot() }));
  });
  // The session forgotten (`callbar deactivate-local`), ended, renewed or connected by another
  // process of the profile: this one follows at once, and the window and the tray say so.
  // Each listener answers with its read: a flood of changes waits for it (files/folder-watch.ts).
  const unwatchSession = profile.changes.onFile(SESSION_LOCK_NAME, () =>
    account.followVault().catch((error: unknown) => {
      log.warn('the session changed elsewhere but could not be followed', { error });
    }),
  );
  // The cache another process of the profile wrote (`callbar sync`, `callbar contacts create`):
  // searched here at once (its status, when it was synced, with it).
  const unwatchCache = profile.changes.onFile(CACHE_FILE_NAME, () =>
    directory.followCache().catch((error: unknown) => {
      log.warn('the directory cache changed elsewhere but could not be read', { error });
    }),
  );
  // Stars made by another process of the profile (`callbar favourites add`, a second window) are
  // shown at once in the window and the tray; this process's own are published where made.
  const unwatchFavourites = profile.changes.onFile(FAVOURITES_FILE_NAME, () =>
    favourites.list().then(
      (listed) => events.publish({ type: 'favourites.changed', favourites: listed }),
      (error: unknown) => log.warn('the favourites changed but could not be read', { error }),
    ),
  );
  const unsubscribeCalls = calls.onChange((snapshot) => {
    known = undefined;
    rankByCalls();
    crm.callsChanged(snapshot);
    events.publish(() => ({ type: 'calls.changed', calls: snapshot }));
  });
  // The cache file is read beside the call log and the keychain; whose it is is checked once the
  // account is known (directory.load). The keychain answers on another thread: it is asked first,
  // and the call log is read and the cache file checked while it answers.
  directory.prefetch();
  const accountStarted = account.start();
  // Awaited below; a failure of the call log's read first must not leave it unhandled.
  accountStarted.catch(() => undefined);
  await calls.reload();
  calls.startExpiry();
  await accountStarted;
  // The account's calls are known once its session is: one connected before a restart opens no
  // CRM link again (the call log's records, not a snapshot: nothing is worded for it).
  crm.seed(calls.tracker.records().map((record) => record.call));
  await directory.load();
  rankByCalls();
  directory.startRefresh(() => account.status().state === 'connected');
  // The emergency numbers' data (libphonenumber's, 570 KB of JavaScript) loads once the index is
  // built: ahead of the first number typed, after the first answers.
  void directory.indexReady().then(() => setImmediate(loadShortNumbers));
  warmUpOnce();
  // The receiver also takes call events, so it runs for the whole session.
  account.listen().catch((error: unknown) => {
    const message = errorMessage(error);
    log.warn('the loopback receiver could not start', { error });
    events.publish({ type: 'app.notice', level: 'error', message });
  });
  return {
    router,
    events,
    profile,
    directory,
    favourites,
    close: async () => {
      closing = true;
      // Relay mode: what arrives from now on waits at the relay for the next start.
      account.stopListening();
      unsubscribe();
      unsubscribeSettings();
      unwatchFavourites();
      unwatchSession();
      unwatchCache();
      unsubscribeCalls();
      await calls.close();
      unsubscribeDirectory();
      await directory.close();
      await profile.close();
    },
  };
}

/** What `make` makes, made once, when first asked for. */
function whenUsed<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}

/**
 * What Enter dials for `query` when it reads as a number (the window's "Dial …" row, placed by
 * placeDialRow), answered with the search; a number Callbar cannot read offers no row. Read by
 * the one reader, as `callbar dial`, a link and the tray read it: no pattern of the search's own
 * decides first (one left out a number with an extension, "x12", keys after "p", full-width
 * digits and vanity numbers, which every other path dialled).
 */
function dialTargetFor(calls: CallsService, query: string): DialTarget | undefined {
  // No digit in any script, no number: a name's keystrokes skip the reader (its refusal, thrown,
  // was a fifth of core's CPU for a keystroke at 100,000 contacts).
  if (!holdsDigit(query)) return undefined;
  try {
    return calls.parse(query.trim());
  } catch {
    return undefined;
  }
}
