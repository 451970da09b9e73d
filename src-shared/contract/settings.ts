/**
 * Settings as the window shows and saves them.
 * Part of the IPC contract (src-shared/contract/index.ts says what it is).
 */
import { z } from 'zod';
import { LANGUAGE_CHOICES } from '../i18n/locales';
import { DestinationClass } from './calls';

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
  /** CRM link-outs: https address templates ({e164} {number} {name} {company} {extension}). */
  crm_links: z.array(z.string()),
  /** Open the first CRM link by itself when a call connects. */
  crm_open_on_connect: z.boolean(),
  /** The language Callbar speaks (issue 33): `system` or a locale of src-shared/i18n. */
  language: z.enum(LANGUAGE_CHOICES),
});
export type EditableSettings = z.infer<typeof EditableSettings>;

export const SettingsView = z.object({
  /** The saved settings; an unset region is given as the system's (the default). */
  settings: EditableSettings,
  /**
   * The region numbers are read and shown in now (a policy or CALLBAR_REGION may set another
   * than the saved one).
   */
  region: z.string(),
  /**
   * Whether a person or the organisation chose the region (settings file, CALLBAR_REGION, a
   * policy); false: it is the system's, and the window asks the person to confirm it.
   */
  region_confirmed: z.boolean(),
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
  /**
   * Why a change to the settings file (a hand edit, another program) is not applied, naming the
   * setting: this running Callbar keeps the settings it had until the file is fixed.
   */
  settings_problem: z.string().optional(),
});
export type SettingsView = z.infer<typeof SettingsView>;
