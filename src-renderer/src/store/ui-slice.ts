import type { CallbarEvent, ErrorInfo } from '../../../src-shared/contract';
import type { LanguageChoice } from '../../../src-shared/i18n';
import { applyLanguage } from '../i18n';
import { windowKindOf, type WindowKind } from '../window-kind';
import type { SliceCreator } from './slice';

export type Notice = Extract<CallbarEvent, { type: 'app.notice' }>;
export type View = 'main' | 'about' | 'phonebooks' | 'settings';
export type ThemeChoice = 'system' | 'light' | 'dark';

const THEME_KEY = 'callbar.theme';

function storedTheme(): ThemeChoice {
  const value = globalThis.localStorage?.getItem(THEME_KEY);
  return value === 'light' || value === 'dark' ? value : 'system';
}

/** What the window shows: the view, the theme, open dialogs and passing notices. */
export interface UiSlice {
  /** The first-run setup window (connecting only) or the main window. */
  windowKind: WindowKind;
  /** Why the setup window's Open Callbar failed. */
  setupError: ErrorInfo | undefined;
  view: View;
  theme: ThemeChoice;
  /** The `language` setting (a setting of core, so the tray and the CLI follow it too). */
  language: LanguageChoice;
  /** Why the language could not be saved. */
  languageError: ErrorInfo | undefined;
  /** The global dial shortcut as saved in the settings, "" when there is none or it is unknown. */
  dialShortcut: string;
  /**
   * The region numbers are read in, whether someone chose it (else the window asks to confirm
   * the system's), and the countries to choose from; undefined until the settings are read.
   */
  region: { code: string; confirmed: boolean; countries: string[] } | undefined;
  /** Why the region could not be saved. */
  regionError: ErrorInfo | undefined;
  /**
   * What could not be read of the organisation's policies, as core says it: read with the
   * settings, so in the language they brought (Settings shows it).
   */
  policyProblems: string[];
  /**
   * Why a change to the settings file (a hand edit, another program) is not applied, naming the
   * setting, as core says it; undefined while the file is applied.
   */
  settingsProblem: string | undefined;
  /** Counts the reads of the settings (an open Settings view shows each read's values). */
  settingsRead: number;
  /** Saves the region the person confirmed or chose. */
  confirmRegion: (code: string) => Promise<void>;
  confirmingDisconnect: boolean;
  /** Counts requests to put the focus in the search box (the global shortcut opened the window). */
  searchFocusRequests: number;
  notices: Notice[];
  show: (view: View) => void;
  setTheme: (theme: ThemeChoice) => void;
  /** Reads the settings the window follows (the language, spoken at once; the dial shortcut). */
  loadSettings: () => Promise<void>;
  /** Saves the `language` setting and speaks it at once (every view re-renders in it). */
  setLanguage: (language: LanguageChoice) => Promise<void>;
  setConfirmingDisconnect: (open: boolean) => void;
  requestSearchFocus: () => void;
  /** Setup is done: the shell shows the main window (and closes this one), or this page becomes it. */
  openMain: () => Promise<void>;
  addNotice: (notice: Notice) => void;
  dismissNotice: (index: number) => void;
}

export const createUiSlice: SliceCreator<UiSlice> = (set) => ({
  windowKind: windowKindOf(globalThis.location?.hash ?? ''),
  setupError: undefined,
  view: 'main',
  theme: storedTheme(),
  language: 'system',
  languageError: undefined,
  dialShortcut: '',
  region: undefined,
  regionError: undefined,
  policyProblems: [],
  settingsProblem: undefined,
  settingsRead: 0,
  confirmingDisconnect: false,
  searchFocusRequests: 0,
  notices: [],
  show: (view) => set({ view }),
  setTheme: (theme) => {
    if (theme === 'system') globalThis.localStorage?.removeItem(THEME_KEY);
    else globalThis.localStorage?.setItem(THEME_KEY, theme);
    set({ theme });
  },
  loadSettings: async () => {
    const result = await window.callbar.settings.get();
    if (!result.ok) return;
    const { language, dial_shortcut } = result.value.settings;
    applyLanguage(language);
    const { region, region_confirmed, countries, policy_problems, settings_problem } = result.value;
    set((state) => ({
      language,
      dialShortcut: dial_shortcut,
      region: { code: region, confirmed: region_confirmed, countries },
      policyProblems: policy_problems,
      settingsProblem: settings_problem,
      settingsRead: state.settingsRead + 1,
    }));
  },
  confirmRegion: async (code) => {
    const result = await window.callbar.settings.save({ region: code });
    if (!result.ok) return set({ regionError: result.error });
    const { region, region_confirmed, countries } = result.value;
    set({
      region: { code: region, confirmed: region_confirmed, countries },
      regionError: undefined,
    });
  },
  setLanguage: async (language) => {
    const result = await window.callbar.settings.save({ language });
    if (!result.ok) return set({ languageError: result.error });
    applyLanguage(result.value.settings.language);
    set({ language: result.value.settings.language, languageError: undefined });
  },
  setConfirmingDisconnect: (open) => set({ confirmingDisconnect: open }),
  requestSearchFocus: () =>
    set((state) => ({ view: 'main', searchFocusRequests: state.searchFocusRequests + 1 })),
  openMain: async () => {
    const result = await window.callbar.app.showMain();
    if (!result.ok) return set({ setupError: result.error });
    if (result.value.shown) return set({ setupError: undefined });
    // No other window to show (the web preview): this page is the main window from now on.
    history.replaceState(null, '', location.pathname + location.search);
    set({ windowKind: 'main', view: 'main', setupError: undefined });
  },
  addNotice: (notice) => set((state) => ({ notices: [...state.notices.slice(-2), notice] })),
  dismissNotice: (index) =>
    set((state) => ({ notices: state.notices.filter((_, at) => at !== index) })),
});
