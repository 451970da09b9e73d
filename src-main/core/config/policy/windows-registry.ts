/**
 * Reads Callbar's policy keys from the live Windows registry with `winreg` (which runs the
 * system's `reg.exe QUERY`), into the same {@link RegistrySnapshot} a `.reg` export gives, so
 * registry-policy.ts converts both the same way. Windows only; a missing key is no policy.
 */
import Winreg from 'winreg';
import { POLICY_HIVES, POLICY_KEY } from './registry-policy';
import { registryPathKey, type RegistrySnapshot, type RegistryValue } from './registry-snapshot';

/** Nested keys read below the policy key (Recommended\list_policy is the deepest). */
const MAX_DEPTH = 2;

const HIVE_NAMES: Record<(typeof POLICY_HIVES)[number], string> = {
  HKEY_CURRENT_USER: Winreg.HKCU,
  HKEY_LOCAL_MACHINE: Winreg.HKLM,
};

/** A snapshot of `HKLM` and `HKCU\Software\Policies\Callbar` and their subkeys. */
export async function readWindowsPolicyRegistry(): Promise<RegistrySnapshot> {
  const snapshot: RegistrySnapshot = new Map();
  for (const hive of POLICY_HIVES) {
    await readKey(
      snapshot,
      hive,
      new Winreg({ hive: HIVE_NAMES[hive], key: `\\${POLICY_KEY}` }),
      0,
    );
  }
  return snapshot;
}

async function readKey(
  snapshot: RegistrySnapshot,
  hive: string,
  key: Winreg.Registry,
  depth: number,
): Promise<void> {
  const items = await new Promise<Winreg.RegistryItem[] | undefined>((resolve) =>
    // reg.exe fails for a key that does not exist: no policy there.
    key.values((error, result) => resolve(error ? undefined : result)),
  );
  if (!items) return;
  const path = `${hive}${key.key}`;
  snapshot.set(registryPathKey(path), { path, values: items.map(decodeItem) });
  if (depth >= MAX_DEPTH) return;
  const children = await new Promise<Winreg.Registry[]>((resolve) =>
    key.keys((error, result) => resolve(error ? [] : result)),
  );
  for (const child of children) await readKey(snapshot, hive, child, depth + 1);
}

/** `reg.exe QUERY`'s text rendering of a value, decoded. */
function decodeItem(item: Winreg.RegistryItem): RegistryValue {
  const name = item.name === Winreg.DEFAULT_VALUE ? '' : item.name;
  switch (item.type) {
    case 'REG_DWORD':
    case 'REG_QWORD':
      return { name, type: item.type, data: Number(item.value) };
    case 'REG_MULTI_SZ':
      return { name, type: 'REG_MULTI_SZ', data: item.value.split('\\0').filter(Boolean) };
    case 'REG_EXPAND_SZ':
      return { name, type: 'REG_EXPAND_SZ', data: item.value };
    case 'REG_SZ':
      return { name, type: 'REG_SZ', data: item.value };
    default:
      return { name, type: 'REG_BINARY', data: item.value };
  }
}
