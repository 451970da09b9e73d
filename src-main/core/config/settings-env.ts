/**
 * Environment overrides: every setting can be set with `CALLBAR_` + its upper-case name
 * (`CALLBAR_RECEIVER_PORT=40000`), so tests, scripts and the CLI can run a profile without
 * touching its settings file. An empty variable counts as unset; a list is comma-separated (`DE,FR`), `-` being the empty list.
 */
import { CallbarError } from '../errors';
import { said } from '../text/said';
import { describeValue } from './settings-issues';
import { SETTING_NAMES, SETTING_RULES, Settings, type SettingName } from './settings';
import { refusedPortIn, whyPortRefused } from './local-port';

type EnvKind = 'text' | 'integer' | 'boolean' | 'list';

const KINDS: Record<SettingName, EnvKind> = {
  base_url: 'text',
  portal_url: 'text',
  slug: 'text',
  receiver_port: 'integer',
  accept_unauthenticated_events: 'boolean',
  region: 'text',
  client_id: 'text',
  confirm_web_links: 'boolean',
  vanity_numbers: 'boolean',
  start_minimized: 'boolean',
  dial_shortcut: 'text',
  clipboard_shortcut: 'text',
  close_to_tray: 'boolean',
  sync_interval_minutes: 'integer',
  open_at_login: 'boolean',
  handle_links: 'text',
  dial_allowed_classes: 'list',
  dial_allowed_countries: 'list',
  relay_url: 'text',
  crm_links: 'list',
  crm_open_on_connect: 'boolean',
  language: 'text',
};

const TRUE_WORDS = new Set(['true', '1', 'yes']);
const FALSE_WORDS = new Set(['false', '0', 'no']);

/** The environment variable that overrides `name`, e.g. `CALLBAR_BASE_URL`. */
export function settingEnvName(name: SettingName): string {
  return `CALLBAR_${name.toUpperCase()}`;
}

/**
 * The settings overridden by `env`, each converted and validated on its own, so an error names
 * the variable. Booleans accept true/false/1/0/yes/no (any case); numbers are plain digits.
 * @throws CallbarError `settings_invalid` naming the variable, the setting and what it accepts.
 */
export function readEnvOverrides(env: NodeJS.ProcessEnv): Partial<Settings> {
  const overrides: Record<string, unknown> = {};
  for (const name of SETTING_NAMES) {
    const raw = env[settingEnvName(name)]?.trim();
    if (raw === undefined || raw === '') continue;
    const parsed = Settings.shape[name].safeParse(convert(raw, KINDS[name]));
    if (!parsed.success) {
      const refused = refusedPortIn(parsed.error);
      if (refused !== undefined) {
        throw new CallbarError(
          'settings_invalid',
          said('errors:settings.envPortRefused', {
            variable: settingEnvName(name),
            name,
            port: refused,
            why: whyPortRefused(refused),
          }),
          { field: name },
        );
      }
      const rule =
        KINDS[name] === 'boolean' ? said('errors:settings.envBoolean') : SETTING_RULES[name];
      throw new CallbarError(
        'settings_invalid',
        said('errors:settings.envInvalid', {
          variable: settingEnvName(name),
          value: describeValue(raw),
          name,
          rule,
        }),
        { field: name },
      );
    }
    overrides[name] = parsed.data;
  }
  return overrides;
}

/** The typed value of `raw`, or `raw` itself when it does not convert (the schema then says why). */
function convert(raw: string, kind: EnvKind): unknown {
  switch (kind) {
    case 'text':
      return raw;
    case 'integer':
      return /^[0-9]+$/.test(raw) ? Number(raw) : raw;
    case 'list':
      // Comma-separated: CALLBAR_DIAL_ALLOWED_COUNTRIES=DE,FR; "-" is the empty list.
      return raw === '-' ? [] : raw.split(',').map((item) => item.trim());
    case 'boolean': {
      const word = raw.toLowerCase();
      if (TRUE_WORDS.has(word)) return true;
      if (FALSE_WORDS.has(word)) return false;
      return raw;
    }
  }
}
