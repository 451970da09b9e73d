/**
 * Calls for a profile: the call log in its data folder, the platform's call control for its
 * session, its region and link settings, and the call events its receiver takes. The app's core
 * and the CLI both start here.
 */
import { callIdentity, createPlatformApi, type PlatformApi } from '../api/platform-api';
import { policyOnlyValues, type Policies } from '../config/policy/policies';
import { saveSettings } from '../config/settings-store';
import type { Profile } from '../account/account-profile';
import type { Translate } from '../text/said';
import { CallLogFile } from './call-log';
import { profileCallNotes } from './call-notes';
import { identifyParty } from './call-party';
import { CallTracker } from './call-tracker';
import { OTHER_DIAL_WAIT_MS } from './other-dial-wait';
import { CallsService, type CallSettings } from './calls-service';
import type { DialPolicy } from '../numbers/destination-class';
import { profileDialGuard } from './dial-guard';
import { NO_DIRECTORY, type CallDirectory } from './dial-target';

export function openCalls(options: {
  profile: Profile;
  /** Caller lookup and speed dials (the directory); none until it is wired. */
  directory?: CallDirectory;
  api?: PlatformApi;
  /** Starts the receiver (the CLI's `dial --follow`; the app's core listens anyway). */
  listen?: () => Promise<unknown>;
  /** The language of the snapshots it hands out (calls-service.ts); none, English. */
  words?: () => Translate;
}): CallsService {
  const { profile } = options;
  const { log, account } = profile;
  const directory = options.directory ?? NO_DIRECTORY;
  const settings: CallSettings = {
    // Live: the profile's one region source (a change in the window or another process applies).
    get region() {
      return profile.region.current();
    },
    // Live (LIVE_SETTINGS): a policy or a save in the window applies to the next number read.
    get vanity_numbers() {
      return profile.settings.vanity_numbers;
    },
    get dial_allowed_classes() {
      return profile.settings.dial_allowed_classes;
    },
    get dial_allowed_countries() {
      return profile.settings.dial_allowed_countries;
    },
    // The organisation's policy for numbers that arrive as links, as it is now.
    get link_policy() {
      return linkPolicy(profile.policies);
    },
    // Live: the window's Settings view changes it in the profile while Callbar runs.
    get confirm_web_links() {
      return profile.settings.confirm_web_links;
    },
    set confirm_web_links(value) {
      profile.settings.confirm_web_links = value;
    },
  };
  const api =
    options.api ??
    createPlatformApi({ baseUrl: profile.settings.base_url, tokens: account.tokens, log });
  // The app, the CLI and a second instance of one profile: one click is one call across them.
  const dialGuard = profileDialGuard(profile.dataDir, log);
  const tracker = new CallTracker({
    file: new CallLogFile(profile.dataDir, log),
    ownExtension: () => account.tokens.session?.user_extension,
    owner: () => account.owner(),
    identify: (number) => identifyParty(number, { region: settings.region, directory }),
    // A call `callbar dial` placed while this process hears the events is one record, not two.
    dialElsewhere: () => dialGuard.dialElsewhere(OTHER_DIAL_WAIT_MS),
    log,
  });
  return new CallsService({
    callControl: () => {
      callIdentity(account.tokens); // not connected: throws before anything is dialed or noted
      return api.calls;
    },
    tracker,
    settings: () => settings,
    dialLinksWithoutAsking: async () => {
      // Locked by the organisation: this link dials, the next one asks again.
      if (profile.policies.origins.locked.confirm_web_links !== undefined) {
        log.info('"dial links without asking" is locked by policy; not remembered');
        return;
      }
      await saveSettings(
        { dataDir: profile.dataDir, policies: profile.policies },
        { confirm_web_links: false },
      );
      settings.confirm_web_links = false;
    },
    directory,
    callEvents: (listener) => account.onCallEvent(listener),
    eventsLost: (listener) => account.onEventsLost(listener),
    hearsEvents: () => account.hearsCallEvents(),
    ...(options.listen ? { listen: options.listen } : {}),
    ...(options.words ? { words: options.words } : {}),
    beforeDial: () => account.announceDial(),
    log,
    dialGuard,
    notes: profileCallNotes(profile.dataDir, log),
  });
}

/** The link_allowed_* policies as a dialling policy. */
function linkPolicy(policies: Policies): DialPolicy {
  const { link_allowed_classes, link_allowed_countries } = policyOnlyValues(policies);
  return {
    dial_allowed_classes: link_allowed_classes,
    dial_allowed_countries: link_allowed_countries,
  };
}
