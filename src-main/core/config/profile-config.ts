import type { FolderWatch } from '../files/folder-watch';
import type { Policies } from './policy/policies';
import type { RegionSource } from './region-source';
import type { SettingsFileSource } from './settings-file-source';
import type { Settings } from './settings';

/** A profile's configuration: its data folder, the settings it runs with and where they came from. */
export interface ProfileConfig {
  readonly dataDir: string;
  /** The settings this process runs with, the machine's policies applied. */
  readonly settings: Settings;
  /**
   * The user's region, live (the one source every number path asks: a change saved here or by
   * another process of the profile applies at once). `settings.region` is only what was set at
   * start.
   */
  readonly region: RegionSource;
  /**
   * The settings file, followed: what this process, another one or a hand edit wrote there, and
   * why an edit is not applied (settings-file-source.ts).
   */
  readonly settingsFile: SettingsFileSource;
  /**
   * The profile folder's one watch: what another process of the profile (the CLI, a second
   * window) changes there, file by file (files/folder-watch.ts; nobody is told in the CLI).
   */
  readonly changes: FolderWatch;
  /** The machine's policies (locked and recommended values, where from, what was ignored). */
  readonly policies: Policies;
  /** The environment the settings were read with (its CALLBAR_* variables override the file). */
  readonly env: NodeJS.ProcessEnv;
}
