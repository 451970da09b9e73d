/**
 * Callbar's non-secret settings. The zod schema is the single source of the type, the defaults
 * and the validation; `SETTING_RULES` says in words (by catalog key) what each field accepts, for error messages.
 * Secrets (client_secret, tokens) are not settings: they live in the vault only.
 */
import { isSupportedCountry } from 'libphonenumber-js/max';
import { z } from 'zod';
import { DestinationClass } from '../../../src-shared/contract/calls';
import { CrmTemplate } from './crm-template-rule';
import { LANGUAGE_CHOICES } from '../../../src-shared/i18n/locales';
import { relayUrls } from './relay-urls';
import { isElectronAccelerator } from './accelerator';
import { said, type Said } from '../text/said';
import { LocalPort } from './local-port';

/**
 * Whether `url` may carry the session: https anywhere, plain http only to this computer (the
 * loopback addresses 127.0.0.0/8 and ::1, and the name localhost). Decided on the URL's text as
 * the WHATWG parser normalises it (so `http://2130706433` is 127.0.0.1), before any request or DNS
 * lookup: a plain-http platform on the network would see tokens travel in clear.
 */
export function isSecureOrLoopback(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const { protocol, hostname, username, password } = new URL(url);
  // A user name or password in the address is a secret in a setting: shown by `status`, in an
  // error and in the log, and never sent anyway (fetch refuses such an address).
  if (username || password) return false;
  if (protocol === 'https:') return true;
  return (
    protocol === 'http:' &&
    (hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname))
  );
}

/** The platform's and the portal's address: https, or http on this computer only. */
const platformUrl = z.url({ protocol: /^https?$/ }).refine(isSecureOrLoopback);
const accelerator = z.string().refine((value) => value === '' || isElectronAccelerator(value));

export const Settings = z.strictObject({
  /** The platform's API root. */
  base_url: platformUrl.default('http://127.0.0.1:8089'),
  /** The platform's web portal, where the user subscribes to the integration. */
  portal_url: platformUrl.default('http://127.0.0.1:8089/portal'),
  /** The integration's slug in portal links (`{portal_url}/integrations/{slug}/activate`). */
  slug: z
    .string()
    .max(100)
    .regex(/^[a-z0-9][a-z0-9_-]*$/)
    .default('callbar'),
  /**
   * The loopback receiver's port. Fixed rather than random: the Activation, Deactivation and
   * Webhook URLs registered with the platform contain it. Never a port browsers refuse: the
   * portal sends the user's browser to it.
   */
  receiver_port: LocalPort.default(37153),
  /**
   * Accept call events that carry neither the webhook secret nor the platform's headers. Off by
   * default: any program on the computer could then show fake calls (`status` and the window
   * say so while it is on).
   */
  accept_unauthenticated_events: z.boolean().default(false),
  /**
   * The user's region (ISO 3166-1 alpha-2): numbers written without +country code are read as
   * its national numbers, and its numbers are shown in national form; only regions libphonenumber
   * knows. Unset (the default): the system's region (config/region-source.ts), which the window
   * asks the person to confirm.
   */
  region: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/)
    .refine((code) => isSupportedCountry(code))
    .optional(),
  /** The integrator's client id (not a secret; the secret comes from CALLBAR_CLIENT_SECRET). */
  client_id: z.string().min(1).optional(),
  /** A tel: link coming from a web page asks before dialing. */
  confirm_web_links: z.boolean().default(true),
  /** Letters in a number are keypad digits (1-800-FLOWERS); off, a number with letters is refused. */
  vanity_numbers: z.boolean().default(false),
  /** Start with the window hidden (tray only). */
  start_minimized: z.boolean().default(false),
  /** Global shortcut that opens the dial window; "" turns it off. */
  dial_shortcut: accelerator.default('CommandOrControl+Shift+D'),
  /**
   * Global shortcut that dials the number on the clipboard; "" (the default) turns it off. Off by
   * default: a global shortcut is taken from every other app, and Ctrl+Shift+V is "paste" in
   * terminals and "paste as plain text" in browsers and editors.
   */
  clipboard_shortcut: accelerator.default(''),
  /** Closing the window keeps Callbar running in the tray. */
  close_to_tray: z.boolean().default(true),
  /** Minutes between directory refreshes (a full sync of every visible phonebook). */
  sync_interval_minutes: z.int().min(1).max(1440).default(15),
  /** Start Callbar (hidden, in the tray) when the user logs in. */
  open_at_login: z.boolean().default(false),
  /** Callbar handles tel: and callto: links: "ask" on first run, then "yes" or "no". */
  handle_links: z.enum(['ask', 'yes', 'no']).default('ask'),
  /**
   * Dialling policy: the destination classes Callbar dials (core/calls/destination-class.ts);
   * others are refused with why. Emergency numbers are always dialled, whatever this says.
   */
  dial_allowed_classes: z.array(DestinationClass).default([...DestinationClass.options]),
  /** Dialling policy: the countries numbers abroad may belong to; empty allows every country. */
  dial_allowed_countries: z
    .array(
      z
        .string()
        .trim()
        .toUpperCase()
        .regex(/^[A-Z]{2}$/)
        .refine((code) => isSupportedCountry(code)),
    )
    .default([]),
  /**
   * Relay mode (docs/relay.md): the organisation's relay, one address or several (tried in turn
   * when one fails) separated by commas; Callbar then connects out to it for activation,
   * deactivation and call events, and listens on nothing. "" (the default): the loopback receiver.
   */
  relay_url: z
    .string()
    .trim()
    .max(2000)
    .refine((value) => relayUrls(value).every((url) => isSecureOrLoopback(url)))
    .default(''),
  /**
   * CRM link-outs (core/crm/crm-template.ts; the rule: crm-template-rule.ts): address templates such as
   * `https://crm.example.com/search?phone={e164}`, offered on contacts, recent calls and the call
   * bar and opened in the system browser; https only, placeholders {e164} {number} {name}
   * {company} {extension}, each URL-encoded.
   */
  crm_links: z.array(CrmTemplate).max(5).default([]),
  /** Open the first CRM link by itself when a call connects (bounded: never a flood of tabs). */
  crm_open_on_connect: z.boolean().default(false),
  /**
   * The language of the window, the tray, notifications and the CLI (src-shared/i18n): "system"
   * (the default) follows the operating system's language (`LANG`/`LC_ALL` for the CLI).
   */
  language: z.enum(LANGUAGE_CHOICES).default('system'),
});

/** The settings Callbar runs with, every default applied. */
export type Settings = z.infer<typeof Settings>;

/** A setting's name. */
export type SettingName = keyof Settings;

/** Every setting's name, in schema order. */
export const SETTING_NAMES = Object.keys(Settings.shape) as SettingName[];

/** The settings of a fresh install. */
export const DEFAULT_SETTINGS: Settings = Settings.parse({});

/** The https rule in words (tokens never travel in clear over a network), with examples. */
const platformUrlRule = (...examples: [string] | [string, string]) =>
  said('errors:settingRules.platformUrl', {
    examples:
      examples.length === 1
        ? examples[0]
        : said('errors:settingRules.either', { first: examples[0], second: examples[1] }),
  });

const BOOLEAN_RULE = said('errors:settingRules.boolean');

/**
 * What each setting accepts, in words, completing "… must be …" (said by key: worded where the
 * sentence around it is).
 */
export const SETTING_RULES: Record<SettingName, Said> = {
  base_url: platformUrlRule('https://pbx.example.com', 'http://127.0.0.1:8089'),
  portal_url: platformUrlRule('https://pbx.example.com/portal', 'http://127.0.0.1:8089/portal'),
  slug: said('errors:settingRules.slug'),
  receiver_port: said('errors:settingRules.receiverPort'),
  accept_unauthenticated_events: BOOLEAN_RULE,
  region: said('errors:settingRules.region'),
  client_id: said('errors:settingRules.clientId'),
  confirm_web_links: BOOLEAN_RULE,
  vanity_numbers: BOOLEAN_RULE,
  start_minimized: BOOLEAN_RULE,
  dial_shortcut: said('errors:settingRules.shortcut', { example: 'CommandOrControl+Shift+D' }),
  clipboard_shortcut: said('errors:settingRules.shortcut', {
    example: 'CommandOrControl+Shift+V',
  }),
  close_to_tray: BOOLEAN_RULE,
  sync_interval_minutes: said('errors:settingRules.syncInterval'),
  open_at_login: BOOLEAN_RULE,
  handle_links: said('errors:settingRules.handleLinks'),
  dial_allowed_classes: said('errors:settingRules.classes', {
    classes: DestinationClass.options.join(', '),
  }),
  dial_allowed_countries: said('errors:settingRules.countries'),
  crm_links: said('errors:settingRules.crmLinks', {
    example: '["https://crm.example.com/search?phone={e164}"]',
    placeholders: '{e164} {number} {name} {company} {extension}',
  }),
  crm_open_on_connect: BOOLEAN_RULE,
  relay_url: said('errors:settingRules.relayUrl', {
    rule: platformUrlRule('https://relay.example.com'),
  }),
  language: said('errors:settingRules.language', { choices: LANGUAGE_CHOICES.join(', ') }),
};

/** True when `name` is one of the settings. */
export function isSettingName(name: string): name is SettingName {
  return Object.hasOwn(Settings.shape, name);
}
