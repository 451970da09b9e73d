/**
 * Loading and saving `<dataDir>/settings.json`.
 *
 * - A missing file means "all defaults"; loading never creates it.
 * - A file that is not valid JSON, has a wrong value or an unknown key is an error naming the file
 *   and the setting; it is never replaced by defaults behind the user's back.
 * - Environment overrides (`CALLBAR_*`) apply on load and are never written back.
 * - Policies (policy/policies.ts) apply on load: locked > file and environment > recommended >
 *   default; a locked setting is never saved (the save is refused with who set it).
 * - Saving validates first and then replaces the file atomically (mode 0600); the file holds only
 *   the values someone chose, so a changed default reaches everyone who did not pick their own.
 * - A save reads the file, changes its settings and replaces it holding `settings.json.lock`, the
 *   lock the profile's processes share (the window's, a preview's, a CLI's): a save in another
 *   process at the same moment never writes this one's change away, nor this one the other's.
 */
import { CallbarError, errorMessage } from '../errors';
import { said } from '../text/said';
import { inEnglish } from '../text/translators';
import { writeFileAtomic } from '../files/atomic-write';
import { withFileLock } from '../files/lockfile';
import { settingsFilePath } from './data-dir';
import { readFileNoFollowSync } from '../files/no-follow-file';
import type { Policies } from './policy/policies';
import { describeJsonError } from '../text/json-error';
import { readEnvOverrides } from './settings-env';
import { describeSettingsIssues } from './settings-issues';
import { isSettingName, SETTING_NAMES, Settings, type SettingName } from './settings';

export { SETTINGS_FILE_NAME, settingsFilePath } from './data-dir';

/** A settings file is a few hundred bytes; anything past this is not one. */
const MAX_SETTINGS_BYTES = 1024 * 1024;

/** Changes for {@link saveSettings}; a setting set to `undefined` goes back to its default. */
export type SettingsPatch = { [Name in SettingName]?: Settings[Name] | undefined };

/** The values written in a settings file (validated), without defaults. */
export type StoredSettings = Partial<Settings>;

/**
 * The settings Callbar runs with: defaults, overlaid by recommended policies, by the settings
 * file, by `CALLBAR_*` environment variables (`env` defaults to `process.env`), and by locked
 * policies. Synchronous: it runs once at startup, before anything else can use the settings.
 * @throws CallbarError `settings_invalid` (naming the file or variable and the setting) or
 *   `settings_unreadable`.
 */
export function loadSettings(options: {
  dataDir: string;
  env?: NodeJS.ProcessEnv;
  policies?: Policies;
}): Settings {
  return mergeSettings(readStoredSettings(options.dataDir), options.env, options.policies);
}

/**
 * The settings a file's values (read with {@link readStoredSettings}) make with `env`'s
 * overrides and `policies` (the order of {@link loadSettings}).
 * @throws CallbarError `settings_invalid` naming the variable and the setting.
 */
export function mergeSettings(
  stored: StoredSettings,
  env: NodeJS.ProcessEnv = process.env,
  policies?: Policies,
): Settings {
  const overrides = readEnvOverrides(env);
  const { recommended = {}, locked = {} } = policies ?? {};
  return Settings.parse({
    ...settingsOnly(recommended),
    ...stored,
    ...overrides,
    ...settingsOnly(locked),
  });
}

/** The settings among policy values (policy-only keys have no setting). */
function settingsOnly(values: Record<string, unknown>): StoredSettings {
  return Object.fromEntries(Object.entries(values).filter(([name]) => isSettingName(name)));
}

/**
 * Applies `patch` to the settings file and returns the resulting settings (defaults applied, no
 * environment overrides, no policies). A patch naming a setting that `policies` lock is refused.
 * The merged result is validated before anything is written; an invalid patch, or an invalid
 * file to start from, leaves the file exactly as it was.
 * Saves to the same file run one after another, in this process and across the profile's
 * processes (a lock on the file).
 * @throws CallbarError `setting_locked`, `settings_invalid` or `settings_unreadable`; file-system
 *   errors as they are.
 */
export function saveSettings(
  options: { dataDir: string; policies?: Policies },
  patch: SettingsPatch,
): Promise<Settings> {
  const file = settingsFilePath(options.dataDir);
  for (const name of Object.keys(patch)) {
    const origin = options.policies?.origins.locked[name as SettingName];
    if (origin !== undefined) {
      return Promise.reject(
        // Beside its field, the window says it without the setting's name (it has its label).
        new CallbarError('setting_locked', said('errors:settings.locked', { name, origin }), {
          field: name,
          fields: { [name]: inEnglish(said('errors:settings.fieldLocked', { origin })) },
        }),
      );
    }
  }
  return oneAtATime(file, async () => {
    // An invalid patch is refused before anything (the folder, the lock) is made.
    patched(options.dataDir, patch);
    return withFileLock(file, async () => {
      const { merged, settings } = patched(options.dataDir, patch);
      await writeFileAtomic(file, serialize(merged), { mode: 0o600, dirMode: 0o700 });
      return settings;
    });
  });
}

/** The settings file's values with `patch` applied, validated. */
function patched(
  dataDir: string,
  patch: SettingsPatch,
): { merged: Record<string, unknown>; settings: Settings } {
  // A Map, so that even a "__proto__" key in a patch stays a plain (and rejected) key.
  const values = new Map<string, unknown>(Object.entries(readStoredSettings(dataDir)));
  for (const [name, value] of Object.entries(patch)) {
    if (value === undefined) values.delete(name);
    else values.set(name, value);
  }
  const merged = Object.fromEntries(values);
  const parsed = Settings.safeParse(merged);
  if (!parsed.success) {
    const { problems, field, fields } = describeSettingsIssues(parsed.error, merged);
    throw new CallbarError(
      'settings_invalid',
      said('errors:settings.notSaved', { problems: { joined: problems, by: '; ' } }),
      { field, fields },
    );
  }
  return { merged, settings: parsed.data };
}

/**
 * The validated values of the settings file in `dataDir` (only those it contains), or `{}` when
 * there is no file.
 * @throws CallbarError `settings_invalid` or `settings_unreadable`.
 */
export function readStoredSettings(dataDir: string): StoredSettings {
  const file = settingsFilePath(dataDir);
  let text: string;
  try {
    const read = readFileNoFollowSync(file, MAX_SETTINGS_BYTES);
    if (read === undefined) return {};
    text = read;
  } catch (error) {
    throw new CallbarError(
      'settings_unreadable',
      // A link, a non-file or an oversized file: the refusal's own sentence names it.
      error instanceof CallbarError
        ? error.saying
        : said('errors:settings.unreadable', { file, reason: errorMessage(error) }),
      { cause: error },
    );
  }
  const fix = said('errors:settings.fixFile');
  let raw: unknown;
  try {
    raw = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    const problem = describeJsonError(error, text);
    throw new CallbarError(
      'settings_invalid',
      said('errors:settings.notJson', { file, problem, fix }),
    );
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new CallbarError(
      'settings_invalid',
      said('errors:settings.notObject', { file, example: '{"region": "GB"}', fix }),
    );
  }
  const parsed = Settings.safeParse(raw);
  if (!parsed.success) {
    const { problems, field } = describeSettingsIssues(parsed.error, raw);
    throw new CallbarError(
      'settings_invalid',
      said('errors:settings.invalidFile', { file, problems: { joined: problems, by: '; ' }, fix }),
      { field },
    );
  }
  return raw;
}

/** Pretty JSON with the settings in schema order, so the file reads like the documentation. */
function serialize(values: Record<string, unknown>): string {
  const ordered = Object.fromEntries(
    SETTING_NAMES.filter((name) => name in values).map((name) => [name, values[name]]),
  );
  return JSON.stringify(ordered, null, 2) + '\n';
}

const queues = new Map<string, Promise<unknown>>();

/** Runs `task` after every earlier task queued under `key` has finished. */
function oneAtATime<T>(key: string, task: () => Promise<T>): Promise<T> {
  const run = (queues.get(key) ?? Promise.resolve()).then(task, task);
  const tail = run.catch(() => undefined);
  queues.set(key, tail);
  void tail.then(() => {
    if (queues.get(key) === tail) queues.delete(key);
  });
  return run;
}
