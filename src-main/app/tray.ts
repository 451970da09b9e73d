import {
  Menu,
  nativeImage,
  Tray,
  type MenuItemConstructorOptions,
  type NativeImage,
} from 'electron';
import { readFileSync } from 'node:fs';
import connected2x from '../../resources/tray/connected@2x.png?asset';
import connected from '../../resources/tray/connected.png?asset';
import inCall2x from '../../resources/tray/in-call@2x.png?asset';
import inCall from '../../resources/tray/in-call.png?asset';
import notConnected2x from '../../resources/tray/not-connected@2x.png?asset';
import notConnected from '../../resources/tray/not-connected.png?asset';
import {
  trayIcon,
  trayMenu,
  trayTooltip,
  type TrayAction,
  type TrayIcon,
  type TrayMenuItem,
  type TrayState,
} from '../core/desktop/tray-model';
import type { Translate } from '../core/text/said';

const FILES: Record<TrayIcon, [string, string]> = {
  'not-connected': [notConnected, notConnected2x],
  connected: [connected, connected2x],
  'in-call': [inCall, inCall2x],
};

function image(icon: TrayIcon): NativeImage {
  const [normal, retina] = FILES[icon];
  const result = nativeImage.createFromPath(normal);
  result.addRepresentation({ scaleFactor: 2, buffer: readFileSync(retina) });
  return result;
}

function toElectron(items: TrayMenuItem[], run: (action: TrayAction) => void) {
  return items.map((item): MenuItemConstructorOptions => {
    if (item.type === 'separator') return { type: 'separator' };
    if (item.type === 'submenu') {
      return { label: item.label, enabled: item.enabled, submenu: toElectron(item.submenu, run) };
    }
    const { action } = item;
    return {
      label: item.label,
      enabled: item.enabled,
      ...(action ? { click: () => run(action) } : {}),
    };
  });
}

/** The tray icon and menu, rebuilt from the model whenever the state changes. */
export class CallbarTray {
  readonly #tray: Tray;
  readonly #images = new Map<TrayIcon, NativeImage>();
  #shown: TrayIcon | undefined;

  constructor(
    state: TrayState,
    private readonly run: (action: TrayAction) => void,
    /** The `shell` words in the user's language as it is now. */
    private readonly words: () => Translate,
  ) {
    this.#tray = new Tray(this.#image(trayIcon(state)));
    // A click opens the window on Windows and Linux; macOS shows the menu instead.
    this.#tray.on('click', () => run({ kind: 'open' }));
    this.update(state);
  }

  update(state: TrayState): void {
    const icon = trayIcon(state);
    if (icon !== this.#shown) {
      this.#tray.setImage(this.#image(icon));
      this.#shown = icon;
    }
    const t = this.words();
    this.#tray.setToolTip(trayTooltip(state, t));
    this.#tray.setContextMenu(Menu.buildFromTemplate(toElectron(trayMenu(state, t), this.run)));
  }

  destroy(): void {
    this.#tray.destroy();
  }

  #image(icon: TrayIcon): NativeImage {
    let cached = this.#images.get(icon);
    if (!cached) this.#images.set(icon, (cached = image(icon)));
    return cached;
  }
}
