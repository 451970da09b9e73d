/**
 * `callbar browser install|uninstall|status`: writes, removes and checks Callbar's native
 * messaging host for one browser (per user, or per machine for installers and administrators):
 * the launcher, the host manifest, and on Windows the registry value naming the manifest.
 */
import { execFile } from 'node:child_process';
import { chmod, lstat, readFile, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { posix, win32 } from 'node:path';
import { promisify } from 'node:util';
import { writeFileAtomic } from '../files/atomic-write';
import {
  hostLauncher,
  hostLocation,
  hostManifest,
  type BrowserName,
  type RegistrationHost,
  type Scope,
} from './host-registration';

const run = promisify(execFile);

export interface InstallOptions {
  browser: BrowserName;
  scope: Scope;
  dataDir: string;
  /** The Node that runs the CLI, and the CLI's entry (bin/callbar.mjs). */
  node: string;
  cli: string;
  /** Written into the launcher when the profile was chosen with CALLBAR_DATA_DIR. */
  explicitDataDir?: string;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  homeDir?: string;
}

export interface Registration {
  browser: BrowserName;
  scope: Scope;
  manifest: string;
  launcher: string;
  registry_key?: string;
}

function hostOf(
  options: Omit<InstallOptions, 'browser' | 'scope' | 'node' | 'cli'>,
): RegistrationHost {
  return {
    platform: options.platform ?? process.platform,
    homeDir: options.homeDir ?? homedir(),
    env: options.env ?? process.env,
    dataDir: options.dataDir,
  };
}

function launcherFolder(scope: Scope, host: RegistrationHost): string {
  if (host.platform === 'win32') {
    return scope === 'user'
      ? win32.join(host.dataDir, 'native-host')
      : win32.join(host.env.ProgramData ?? 'C:\\ProgramData', 'Callbar', 'native-host');
  }
  return scope === 'user' ? posix.join(host.dataDir, 'native-host') : '/usr/local/lib/callbar';
}

export async function installHost(options: InstallOptions): Promise<Registration> {
  const host = hostOf(options);
  const location = hostLocation(options.browser, options.scope, host);
  const launcher = hostLauncher({
    platform: host.platform,
    folder: launcherFolder(options.scope, host),
    node: options.node,
    cli: options.cli,
    ...(options.explicitDataDir ? { dataDir: options.explicitDataDir } : {}),
  });
  const shared = options.scope === 'machine';
  await writeFileAtomic(launcher.file, launcher.text, {
    mode: shared ? 0o755 : 0o700,
    dirMode: shared ? 0o755 : 0o700,
  });
  await chmod(launcher.file, shared ? 0o755 : 0o700);
  const manifest = hostManifest(options.browser, launcher.file);
  await writeFileAtomic(location.manifestFile, `${JSON.stringify(manifest, null, 2)}\n`, {
    mode: 0o644,
    dirMode: 0o755,
  });
  if (location.registryKey) {
    await run('reg', [
      'add',
      location.registryKey,
      '/ve',
      '/t',
      'REG_SZ',
      '/d',
      location.manifestFile,
      '/f',
    ]);
  }
  return {
    browser: options.browser,
    scope: options.scope,
    manifest: location.manifestFile,
    launcher: launcher.file,
    ...(location.registryKey ? { registry_key: location.registryKey } : {}),
  };
}

/** Removes the manifest (and the registry value); the launcher goes when no browser needs it. */
export async function uninstallHost(
  options: Omit<InstallOptions, 'node' | 'cli'>,
): Promise<{ browser: BrowserName; removed: boolean; manifest: string }> {
  const host = hostOf(options);
  const location = hostLocation(options.browser, options.scope, host);
  const removed = await exists(location.manifestFile);
  await rm(location.manifestFile, { force: true });
  if (location.registryKey) {
    await run('reg', ['delete', location.registryKey, '/f']).catch(() => undefined);
  }
  return { browser: options.browser, removed, manifest: location.manifestFile };
}

export type HostState =
  | { state: 'registered'; launcher: string }
  | { state: 'not-registered' }
  /** A manifest is there but does not start a launcher that exists, or names another extension. */
  | { state: 'broken'; problem: 'unreadable' | 'launcher-missing' | 'other-extension' };

export interface HostStatus {
  browser: BrowserName;
  scope: Scope;
  manifest: string;
  status: HostState;
}

/** Whether `browser` finds a working host manifest of Callbar's for `scope`. */
export async function hostStatus(
  options: Omit<InstallOptions, 'node' | 'cli'>,
): Promise<HostStatus> {
  const host = hostOf(options);
  const location = hostLocation(options.browser, options.scope, host);
  const base = { browser: options.browser, scope: options.scope, manifest: location.manifestFile };
  let text: string;
  try {
    text = await readFile(location.manifestFile, 'utf8');
  } catch {
    return { ...base, status: { state: 'not-registered' } };
  }
  let found: { path?: unknown; allowed_origins?: unknown; allowed_extensions?: unknown };
  try {
    found = JSON.parse(text) as typeof found;
  } catch {
    return { ...base, status: { state: 'broken', problem: 'unreadable' } };
  }
  const expected = hostManifest(options.browser, String(found.path));
  const allowed = JSON.stringify(expected.allowed_origins ?? expected.allowed_extensions);
  if (JSON.stringify(found.allowed_origins ?? found.allowed_extensions) !== allowed) {
    return { ...base, status: { state: 'broken', problem: 'other-extension' } };
  }
  if (typeof found.path !== 'string' || !(await exists(found.path))) {
    return { ...base, status: { state: 'broken', problem: 'launcher-missing' } };
  }
  return { ...base, status: { state: 'registered', launcher: found.path } };
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}
