/**
 * Where the machine's policies live, per platform, in a module light enough for the CLI's start:
 * `callbar help` asks {@link mayHavePolicies} before it loads the policy readers (policies.ts,
 * with the settings schema and the plist parser), so a machine without policies pays nothing.
 */
import { statSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';

/** The macOS bundle id (electron-builder's appId): the managed preferences' domain. */
export const POLICY_DOMAIN = 'com.callbar.desktop';

/** Where policies live by default, per platform (Windows: the registry). */
export const SYSTEM_POLICY_DIRS: Partial<Record<NodeJS.Platform, string>> = {
  linux: '/etc/callbar',
  darwin: '/Library/Managed Preferences',
};

/** The variable that replaces the system location. */
export const POLICY_DIR_VARIABLE = 'CALLBAR_POLICY_DIR';

export interface PolicyLocation {
  /**
   * The environment whose `CALLBAR_POLICY_DIR` replaces the system location: always given (the
   * caller's own, usually `process.env`), so no reader silently ignores the variable.
   */
  env: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
}

/** True where the policies are the live Windows registry's (no `CALLBAR_POLICY_DIR` on Windows). */
export function readsRegistry(location: PolicyLocation): boolean {
  return (location.platform ?? process.platform) === 'win32' && !location.env[POLICY_DIR_VARIABLE];
}

/**
 * The policy folder to read: `CALLBAR_POLICY_DIR`, else the platform's; undefined where the
 * platform keeps them elsewhere (the Windows registry) or nowhere.
 */
export function policyFolder(location: PolicyLocation): string | undefined {
  const platform = location.platform ?? process.platform;
  return location.env[POLICY_DIR_VARIABLE] || SYSTEM_POLICY_DIRS[platform];
}

/**
 * The files (and, on Linux, the folder of drop-ins) a policy folder may hold, weakest first:
 * Linux `policies.json` and `policies.d/`; macOS the user's then the machine's plist; Windows
 * (a folder instead of the registry) `policies.reg`.
 */
export function policyPaths(dir: string, platform: NodeJS.Platform = process.platform): string[] {
  if (platform === 'win32') return [join(dir, 'policies.reg')];
  if (platform === 'darwin') {
    return [
      join(dir, userInfo().username, `${POLICY_DOMAIN}.plist`),
      join(dir, `${POLICY_DOMAIN}.plist`),
    ];
  }
  return [join(dir, 'policies.json'), join(dir, 'policies.d')];
}

/**
 * False only when no policy source exists at all (a few `stat`s, no parsing): then there is
 * nothing to read. The live Windows registry always may hold some.
 */
export function mayHavePolicies(location: PolicyLocation): boolean {
  if (readsRegistry(location)) return true;
  const folder = policyFolder(location);
  if (folder === undefined) return false;
  return policyPaths(folder, location.platform).some((path) => {
    try {
      statSync(path);
      return true;
    } catch (error) {
      // Something there that cannot be looked at is for the readers to report.
      return (error as NodeJS.ErrnoException).code !== 'ENOENT';
    }
  });
}
