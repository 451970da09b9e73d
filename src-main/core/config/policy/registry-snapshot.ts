/**
 * A read-only copy of some registry keys and their values, whichever way they were read: live
 * from the Windows registry (windows-registry.ts, through the `winreg` library) or from an exported
 * `.reg` file (reg-file.ts). The policy code (registry-policy.ts) only ever sees this shape, so a
 * `.reg` fixture exercises the same conversion the registry does on Windows.
 */

/** One registry value, decoded. */
export type RegistryValue =
  | { name: string; type: 'REG_SZ' | 'REG_EXPAND_SZ'; data: string }
  | { name: string; type: 'REG_DWORD' | 'REG_QWORD'; data: number }
  | { name: string; type: 'REG_MULTI_SZ'; data: string[] }
  | { name: string; type: 'REG_BINARY'; data: string };

/** One key: its path as written (`HKEY_LOCAL_MACHINE\Software\Policies\Callbar`) and values. */
export interface RegistryKey {
  path: string;
  values: RegistryValue[];
}

/** Keys by their lower-cased full path (registry names are case-insensitive). */
export type RegistrySnapshot = Map<string, RegistryKey>;

/** The long hive names, and the short ones `reg.exe` and people use. */
const HIVES: Record<string, string> = {
  HKLM: 'HKEY_LOCAL_MACHINE',
  HKCU: 'HKEY_CURRENT_USER',
  HKEY_LOCAL_MACHINE: 'HKEY_LOCAL_MACHINE',
  HKEY_CURRENT_USER: 'HKEY_CURRENT_USER',
};

/** `path` with its hive spelled out and no trailing backslash, lower-cased: the snapshot's key. */
export function registryPathKey(path: string): string {
  const [hive = '', ...rest] = path.replace(/\\+$/, '').split('\\');
  return [HIVES[hive.toUpperCase()] ?? hive, ...rest].join('\\').toLowerCase();
}

/** The key at `path`, if the snapshot has it. */
export function registryKey(snapshot: RegistrySnapshot, path: string): RegistryKey | undefined {
  return snapshot.get(registryPathKey(path));
}

/** The direct subkeys of `path` (their last path component as written), in name order. */
export function registrySubkeys(snapshot: RegistrySnapshot, path: string): string[] {
  const prefix = registryPathKey(path) + '\\';
  const names = new Set<string>();
  for (const [lower, key] of snapshot) {
    if (!lower.startsWith(prefix)) continue;
    const child = key.path.replace(/\\+$/, '').split('\\')[prefix.split('\\').length - 1];
    if (child !== undefined) names.add(child);
  }
  return [...names].sort((a, b) => a.localeCompare(b));
}
