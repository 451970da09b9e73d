/**
 * The language the CLI speaks to people: the effective `language` setting, with the precedence
 * every setting has (docs/administration.md): a **locked** policy, else the user's own choice
 * (`CALLBAR_LANGUAGE`, else the profile's settings file), else a **recommended** policy. When that
 * names a locale, the CLI speaks it; when it is `system` (the default), the POSIX environment
 * (LC_ALL > LC_MESSAGES > LANG, e.g. `de_DE.UTF-8` → German), else English. `--json` output is
 * never translated.
 *
 * Decided before the command is looked up (help and usage errors speak it too), so the setting is
 * read straight from the settings file without loading the settings schema: a file that cannot be
 * read or parsed, or a value that is not a language, counts as no setting here (the command
 * reports it when it opens the profile). The policies are those run-cli.ts read once for the
 * whole run (the profile applies the same).
 */
import { LANGUAGE_CHOICES, type LanguageChoice, type Locale } from '../../src-shared/i18n/locales';
import { resolveLocale } from '../../src-shared/i18n/resolve-locale';
import { resolveDataDir, settingsFilePath } from '../core/config/data-dir';
import { readFileNoFollowSync } from '../core/files/no-follow-file';
import type { Policies } from '../core/config/policy/policies';

import type { Translate } from '../core/text/said';
import { translatorFor } from '../core/text/translators';

/** A settings file is a few hundred bytes (as settings-store reads it). */
const MAX_SETTINGS_BYTES = 1024 * 1024;

/** The machine's policies as far as the language goes (a {@link Policies} will do). */
export type LanguagePolicies = Pick<Policies, 'locked' | 'recommended'>;

function languageChoice(value: unknown): LanguageChoice | undefined {
  const text = typeof value === 'string' ? value.trim() : undefined;
  return LANGUAGE_CHOICES.find((choice) => choice === text);
}

/** The user's own `language`: CALLBAR_LANGUAGE, else the value in the profile's settings file. */
function usersLanguage(env: NodeJS.ProcessEnv): LanguageChoice | undefined {
  const fromEnv = languageChoice(env.CALLBAR_LANGUAGE);
  if (fromEnv) return fromEnv;
  try {
    const text = readFileNoFollowSync(settingsFilePath(resolveDataDir(env)), MAX_SETTINGS_BYTES);
    const settings = text === undefined ? undefined : (JSON.parse(text) as { language?: unknown });
    return languageChoice(settings?.language);
  } catch {
    return undefined;
  }
}

/** The effective `language` setting: locked policy > the user's > recommended policy > system. */
export function languageSetting(
  env: NodeJS.ProcessEnv,
  policies?: LanguagePolicies,
): LanguageChoice {
  return (
    policies?.locked.language ?? usersLanguage(env) ?? policies?.recommended.language ?? 'system'
  );
}

export function cliLocale(env: NodeJS.ProcessEnv, policies?: LanguagePolicies): Locale {
  return resolveLocale({ setting: languageSetting(env, policies), env });
}

/** The CLI's words (`cli` catalog) in the user's language. */
export function cliTranslator(env: NodeJS.ProcessEnv, policies?: LanguagePolicies): Translate {
  return translatorFor(cliLocale(env, policies), 'cli');
}
