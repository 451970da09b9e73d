/**
 * The language the CLI speaks to people: the `language` setting (CALLBAR_LANGUAGE, else the
 * profile's settings file) when it names a locale, else the POSIX environment (LC_ALL > LC_MESSAGES > LANG, e.g. `de_DE.UTF-8` → German),
 * else English. `--json` output is never translated.
 *
 * Decided before the command is looked up (help and usage errors speak it too), so the setting is
 * read straight from the settings file without loading the settings schema: a file that cannot be
 * read or parsed counts as no setting here (the command reports it when it opens the profile).
 */
import type { Locale } from '../../src-shared/i18n/locales';
import { resolveLocale } from '../../src-shared/i18n/resolve-locale';
import { resolveDataDir, settingsFilePath } from '../core/config/data-dir';
import { readFileNoFollowSync } from '../core/config/no-follow-file';

import type { Translate } from '../core/text/said';
import { translatorFor } from '../core/text/translators';

/** A settings file is a few hundred bytes (as settings-store reads it). */
const MAX_SETTINGS_BYTES = 1024 * 1024;

/** The `language` setting: CALLBAR_LANGUAGE, else the value in the profile's settings file. */
function languageSetting(env: NodeJS.ProcessEnv): string | undefined {
  const fromEnv = env.CALLBAR_LANGUAGE?.trim();
  if (fromEnv) return fromEnv;
  try {
    const text = readFileNoFollowSync(settingsFilePath(resolveDataDir(env)), MAX_SETTINGS_BYTES);
    const language = text === undefined ? undefined : (JSON.parse(text) as { language?: unknown });
    return typeof language?.language === 'string' ? language.language : undefined;
  } catch {
    return undefined;
  }
}

export function cliLocale(env: NodeJS.ProcessEnv): Locale {
  return resolveLocale({ setting: languageSetting(env), env });
}

/** The CLI's words (`cli` catalog) in the user's language. */
export function cliTranslator(env: NodeJS.ProcessEnv): Translate {
  return translatorFor(cliLocale(env), 'cli');
}
