import type { Policies } from './policy/policies';
import type { Settings } from './settings';

/** A profile's configuration: its data folder, the settings it runs with and where they came from. */
export interface ProfileConfig {
  readonly dataDir: string;
  /** The settings this process runs with, the machine's policies applied. */
  readonly settings: Settings;
  /** The machine's policies (locked and recommended values, where from, what was ignored). */
  readonly policies: Policies;
  /** The environment the settings were read with (its CALLBAR_* variables override the file). */
  readonly env: NodeJS.ProcessEnv;
}
