/**
 * Policies in the Windows registry: `HKLM\Software\Policies\Callbar` and `HKCU\…`, the values of
 * the key locked and those of its `Recommended` subkey recommended (HKLM wins over HKCU, as Group
 * Policy has it). Values are named like the settings (any case): a DWORD for true/false (1/0)
 * and whole numbers, a string for text and choices, and a list as a subkey of the policy's name
 * holding the items as values "1", "2", … (what an ADMX `list` element writes; a REG_MULTI_SZ
 * is read too).
 */
import { isPolicyName, policyKind, POLICY_NAMES } from './policy-schema';
import type { PolicyLayer } from './policy-layer';
import {
  registryKey,
  registrySubkeys,
  type RegistrySnapshot,
  type RegistryValue,
} from './registry-snapshot';

/** Where Callbar's policies live under each hive. */
export const POLICY_KEY = 'Software\\Policies\\Callbar';

/** The hives read, weakest first. */
export const POLICY_HIVES = ['HKEY_CURRENT_USER', 'HKEY_LOCAL_MACHINE'] as const;

const RECOMMENDED = 'Recommended';

/** The policy layers a registry snapshot holds, weakest first. */
export function registryLayers(snapshot: RegistrySnapshot): PolicyLayer[] {
  const layers: PolicyLayer[] = [];
  for (const hive of POLICY_HIVES) {
    for (const level of ['recommended', 'locked'] as const) {
      const path = `${hive}\\${POLICY_KEY}${level === 'recommended' ? `\\${RECOMMENDED}` : ''}`;
      const key = registryKey(snapshot, path);
      if (!key) continue;
      const values: Record<string, unknown> = {};
      for (const value of key.values) {
        if (value.name === '') continue; // the key's (Default) value: nothing sets it
        values[policyNameOf(value.name)] = decode(value, policyNameOf(value.name));
      }
      for (const child of registrySubkeys(snapshot, path)) {
        if (level === 'locked' && child.toLowerCase() === RECOMMENDED.toLowerCase()) continue;
        const items = registryKey(snapshot, `${path}\\${child}`)?.values ?? [];
        values[policyNameOf(child)] = items
          .filter((item) => item.name !== '')
          .sort((a, b) => Number(a.name) - Number(b.name))
          .map((item) => item.data);
      }
      layers.push({ origin: key.path, level, values });
    }
  }
  return layers;
}

/** The policy `name` stands for (registry names are case-insensitive), or `name` itself. */
function policyNameOf(name: string): string {
  return POLICY_NAMES.find((policy) => policy === name.toLowerCase()) ?? name;
}

/** The JSON value of a registry value: a DWORD 0/1 is false/true for a true-or-false policy. */
function decode(value: RegistryValue, name: string): unknown {
  if (
    isPolicyName(name) &&
    policyKind(name).kind === 'boolean' &&
    value.type === 'REG_DWORD' &&
    (value.data === 0 || value.data === 1)
  ) {
    return value.data === 1;
  }
  return value.data;
}
