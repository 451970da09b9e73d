/**
 * Every setting and policy-only key with the value Callbar runs with and where it comes from, for
 * `callbar policy`: a locked policy, the environment, the user's settings file, a recommended
 * policy, or the built-in default (in that order of precedence).
 */
import { readEnvOverrides, settingEnvName } from '../settings-env';
import { readStoredSettings, settingsFilePath } from '../settings-store';
import { isSettingName } from '../settings';
import type { Policies } from './policies';
import type { Translate } from '../../text/said';
import { POLICY_NAMES, PolicySettings, type PolicyName } from './policy-schema';

/** Where an effective value comes from. */
export type ValueSource =
  | { kind: 'locked' | 'recommended'; origin: string }
  | { kind: 'environment'; origin: string }
  | { kind: 'user'; origin: string }
  | { kind: 'default' };

export interface EffectiveValue {
  name: PolicyName;
  value: unknown;
  source: ValueSource;
}

/**
 * The effective value and source of every policy, for the profile in `dataDir` run with `env`.
 * @throws CallbarError `settings_invalid` or `settings_unreadable` (as loading the settings does).
 */
export function effectiveValues(options: {
  dataDir: string;
  env: NodeJS.ProcessEnv;
  policies: Policies;
}): EffectiveValue[] {
  const { policies } = options;
  const stored: Record<string, unknown> = readStoredSettings(options.dataDir);
  const overrides: Record<string, unknown> = readEnvOverrides(options.env);
  const defaults = PolicySettings.parse({}) as Record<string, unknown>;
  return POLICY_NAMES.map((name): EffectiveValue => {
    const locked = policies.origins.locked[name];
    if (locked !== undefined) {
      return { name, value: policies.locked[name], source: { kind: 'locked', origin: locked } };
    }
    if (isSettingName(name) && name in overrides) {
      const origin = settingEnvName(name);
      return { name, value: overrides[name], source: { kind: 'environment', origin } };
    }
    if (isSettingName(name) && name in stored) {
      const origin = settingsFilePath(options.dataDir);
      return { name, value: stored[name], source: { kind: 'user', origin } };
    }
    const recommended = policies.origins.recommended[name];
    if (recommended !== undefined) {
      const source = { kind: 'recommended', origin: recommended } as const;
      return { name, value: policies.recommended[name], source };
    }
    return { name, value: defaults[name], source: { kind: 'default' } };
  });
}

/**
 * The source in words, in `t`'s language (the `cli` catalog): "locked by
 * /etc/callbar/policies.json", "default".
 */
export function describeSource(t: Translate, source: ValueSource): string {
  return 'origin' in source
    ? t(`policy.sources.${source.kind}`, { origin: source.origin })
    : t(`policy.sources.${source.kind}`);
}
