/**
 * Managed policies: what an administrator sets per machine, each value either *locked* (the user
 * cannot change it) or *recommended* (a default the user may change). One zod schema, derived
 * from the settings schema (every setting is a policy, under its own name) plus the policy-only
 * keys below, validates every source (JSON files, managed preferences, the Windows registry) and
 * generates the administrators' templates (scripts/policy-templates.ts).
 *
 * Secrets are never policies: the client secret comes from CALLBAR_CLIENT_SECRET (or a
 * deployment's own secret store that sets it), tokens live in the system keychain.
 */
import { z } from 'zod';
import { DestinationClass } from '../../../../src-shared/contract/calls';
import { said, type Said } from '../../text/said';
import { SETTING_RULES, Settings } from '../settings';

/** Keys only an administrator sets: no user setting stands behind them. */
export const PolicyOnly = z.strictObject({
  /** Like dial_allowed_classes, for numbers that arrive as tel:/callto: links. */
  link_allowed_classes: z.array(DestinationClass).default([...DestinationClass.options]),
  /** Like dial_allowed_countries, for numbers that arrive as links; empty allows every country. */
  link_allowed_countries: Settings.shape.dial_allowed_countries,
  /** Numbers shown as favourites to every user of the machine (issue 32 reads them). */
  favourites: z.array(z.string().trim().min(1).max(40)).max(100).default([]),
  /** Callbar looks for updates and installs them. */
  updates_enabled: z.boolean().default(true),
  /** The update channel: stable releases, or beta ones too. */
  update_channel: z.enum(['stable', 'beta']).default('stable'),
  /**
   * The generic update feed's address (https, without a user name or password: `callbar policy`
   * and the log show it); unset, the one the build was made with.
   */
  update_url: z
    .url({ protocol: /^https$/ })
    .refine((url) => {
      const { username, password } = new URL(url);
      return !username && !password;
    })
    .optional(),
});

/** Every policy with its default: the settings' own schema and the policy-only keys. */
export const PolicySettings = Settings.extend(PolicyOnly.shape);
export type PolicySettings = z.infer<typeof PolicySettings>;

/** A policy's name. */
export type PolicyName = keyof PolicySettings;

/** Every policy's name: the settings in schema order, then the policy-only keys. */
export const POLICY_NAMES = Object.keys(PolicySettings.shape) as PolicyName[];

/** The policy-only values. */
export type PolicyOnly = z.infer<typeof PolicyOnly>;

/** The values one level of a policy source sets (each validated on its own). */
export const PolicyValues = PolicySettings.partial();
export type PolicyValues = z.infer<typeof PolicyValues>;

/** The JSON form of a policy file: `{"locked": {...}, "recommended": {...}}`. */
export const PolicyDocument = z.strictObject({
  locked: z.record(z.string(), z.unknown()).optional(),
  recommended: z.record(z.string(), z.unknown()).optional(),
});

/** The two levels of a policy. */
export type PolicyLevel = 'locked' | 'recommended';

/** True when `name` is a policy. */
export function isPolicyName(name: string): name is PolicyName {
  return Object.hasOwn(PolicySettings.shape, name);
}

/** What each policy accepts, in words (by catalog key), completing "… must be …". */
export const POLICY_RULES: Record<PolicyName, Said> = {
  ...SETTING_RULES,
  link_allowed_classes: SETTING_RULES.dial_allowed_classes,
  link_allowed_countries: SETTING_RULES.dial_allowed_countries,
  favourites: said('errors:settingRules.favourites', { example: '["+493012345678"]' }),
  updates_enabled: SETTING_RULES.open_at_login,
  update_channel: said('errors:settingRules.updateChannel'),
  update_url: said('errors:settingRules.updateUrl', {
    example: 'https://updates.example.com/callbar',
  }),
};

/** How a policy's value is written in stores without JSON types (registry, templates). */
export type PolicyKind =
  | { kind: 'boolean' }
  | { kind: 'integer'; min: number; max: number }
  | { kind: 'text' }
  | { kind: 'choice'; options: string[] }
  | { kind: 'list'; options?: string[] };

/** The kind of `name`'s value, read from its schema. */
export function policyKind(name: PolicyName): PolicyKind {
  const schema = unwrap(PolicySettings.shape[name]);
  if (schema instanceof z.ZodBoolean) return { kind: 'boolean' };
  if (schema instanceof z.ZodNumber) {
    return { kind: 'integer', min: schema.minValue ?? 0, max: schema.maxValue ?? 2 ** 31 - 1 };
  }
  if (schema instanceof z.ZodEnum) return { kind: 'choice', options: schema.options.map(String) };
  if (schema instanceof z.ZodArray) {
    const item = unwrap(schema.element as z.ZodType);
    return item instanceof z.ZodEnum
      ? { kind: 'list', options: item.options.map(String) }
      : { kind: 'list' };
  }
  return { kind: 'text' };
}

function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  while (current instanceof z.ZodDefault || current instanceof z.ZodOptional) {
    current = current.def.innerType as z.ZodType;
  }
  return current;
}
