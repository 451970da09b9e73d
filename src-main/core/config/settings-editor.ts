/**
 * The window's Settings view in core: the settings a person changes there, read from and saved
 * to the profile's settings file (atomically, validated first: an invalid value is refused with
 * its field named and nothing is written), with what a change means for this running Callbar.
 */
import { getCountries } from 'libphonenumber-js/max';
import { EditableSettings, type SettingsView } from '../../../src-shared/contract';
import type { ProfileConfig } from './profile-config';
import { readEnvOverrides } from './settings-env';
import { mergeSettings, saveSettings, type SettingsPatch } from './settings-store';
import { inEnglish } from '../text/translators';
import type { Settings } from './settings';

/** The settings the window edits (the contract's EditableSettings), in the order it shows them. */
export const EDITABLE_SETTINGS = Object.keys(EditableSettings.shape) as (keyof EditableSettings &
  keyof Settings)[];

/**
 * Settings this running Callbar follows at once (the others apply at the next start). The region
 * is live too, through the profile's region source (config/region-source.ts). The dialling policy
 * and vanity numbers are: how a number is read and whether it may be dialled is the same in the
 * running app as in a `callbar dial` after the change.
 */
export const LIVE_SETTINGS = [
  'region',
  'confirm_web_links',
  'dial_allowed_classes',
  'dial_allowed_countries',
  'vanity_numbers',
  'crm_links',
  'crm_open_on_connect',
  'language',
] as const;

/** The settings as the window edits them: an unset region is the system's (the default). */
function editable(settings: Settings, profile: ProfileConfig): EditableSettings {
  return Object.fromEntries(
    EDITABLE_SETTINGS.map((name) => [
      name,
      name === 'region' ? (settings.region ?? profile.region.system()) : settings[name],
    ]),
  ) as EditableSettings;
}

/**
 * The receiver's addresses the platform's integration must list (they contain the port). The
 * Webhook URL only up to `/events`: without the secret that follows (account.receiverRegistration
 * gives it whole, on request).
 */
export function receiverUrls(port: number): SettingsView['receiver_urls'] {
  const origin = `http://127.0.0.1:${port}`;
  return {
    activation: `${origin}/activate`,
    deactivation: `${origin}/deactivate`,
    webhook: `${origin}/events`,
  };
}

/** Equal setting values (lists compare by their items). */
function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function view(profile: ProfileConfig, saved: Settings): SettingsView {
  const overrides = readEnvOverrides(profile.env);
  const { policies } = profile;
  // A change to the file that is not applied (a hand edit): why, with the setting it names.
  const problem = profile.settingsFile.problem();
  // A variable a locked policy beats does not apply: the window says "locked" alone.
  const overridden = EDITABLE_SETTINGS.filter(
    (name) => name in overrides && policies.origins.locked[name] === undefined,
  );
  return {
    settings: editable(saved, profile),
    // The region numbers are read in now, and whether someone chose it (else the window asks).
    region: profile.region.current(),
    region_confirmed: profile.region.confirmed(),
    countries: getCountries(),
    receiver_urls: receiverUrls(saved.receiver_port),
    // A saved value this process does not run with yet (env-overridden ones never apply).
    restart_needed: EDITABLE_SETTINGS.filter(
      (name) =>
        name !== 'region' &&
        !(name in overrides) &&
        !sameValue(saved[name], profile.settings[name]),
    ),
    overridden: [...overridden],
    // Set by the organisation: read-only in the window, with where the policy comes from.
    locked: Object.fromEntries(
      EDITABLE_SETTINGS.flatMap((name) => {
        const origin = policies.origins.locked[name];
        return origin === undefined ? [] : [[name, origin]];
      }),
    ),
    policy_problems: policies.problems,
    ...(problem === undefined ? {} : { settings_problem: inEnglish(problem) }),
  };
}

/**
 * The saved settings (file, policies and defaults; environment overrides are reported, not
 * shown).
 */
export function readSettingsView(profile: ProfileConfig): SettingsView {
  return view(profile, savedSettings(profile));
}

/**
 * The settings file's values and the policies, without environment overrides (while the file
 * cannot be applied, its last valid values: the problem says why).
 */
function savedSettings(profile: ProfileConfig): Settings {
  return mergeSettings(profile.settingsFile.stored(), {}, profile.policies);
}

/** Saves the changed settings; the whole file is validated before it is replaced. */
export async function saveSettingsView(
  profile: ProfileConfig,
  patch: Partial<Record<(typeof EDITABLE_SETTINGS)[number], unknown>>,
): Promise<SettingsView> {
  await saveSettings(
    { dataDir: profile.dataDir, policies: profile.policies },
    patch as SettingsPatch,
  );
  // What the file now says, the organisation's policies applied (a locked value stays locked):
  // this process runs with its live settings, and every number path reads the new region, from
  // now on (core/profile.ts follows the file).
  profile.settingsFile.refresh();
  return view(profile, savedSettings(profile));
}
