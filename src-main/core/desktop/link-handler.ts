/**
 * Callbar as the OS's handler for tel: and callto: links (setting `handle_links`: ask on first
 * run, then yes or no).
 *
 * The registration always puts `--` before the link, so the OS starts `callbar -- tel:…` and a
 * crafted link can never become a Chromium or Electron switch (the class of CVE-2018-1000006);
 * `linkFromArgv` reads only what follows the last `--`.
 */
import { LINK_SCHEMES } from './launch-link';

export type HandleLinks = 'ask' | 'yes' | 'no';

/**
 * The arguments for `app.setAsDefaultProtocolClient(scheme, path, args)`. A packaged app is
 * started as `<exe> -- <link>`; a development run (`electron .`, `process.defaultApp`) also
 * needs the app's folder before the `--`, or Electron would open the link as an app.
 */
export function protocolClientArgs(options: {
  defaultApp: boolean;
  execPath: string;
  appPath: string;
}): { path: string; args: string[] } {
  return options.defaultApp
    ? { path: options.execPath, args: [options.appPath, '--'] }
    : { path: options.execPath, args: ['--'] };
}

export type LinkHandlerStep =
  | { kind: 'ask' }
  | { kind: 'register'; schemes: readonly string[] }
  | { kind: 'unregister'; schemes: readonly string[] }
  | { kind: 'nothing' };

/**
 * What to do at start-up, given the setting and the schemes Callbar already handles: ask once,
 * (re)claim the schemes when the user said yes (another app may have taken one), or release
 * them when the user said no.
 */
export function linkHandlerStep(
  setting: HandleLinks,
  isDefaultFor: (scheme: string) => boolean,
): LinkHandlerStep {
  if (setting === 'ask') return { kind: 'ask' };
  if (setting === 'yes') {
    const missing = LINK_SCHEMES.filter((scheme) => !isDefaultFor(scheme));
    return missing.length > 0 ? { kind: 'register', schemes: missing } : { kind: 'nothing' };
  }
  const held = LINK_SCHEMES.filter((scheme) => isDefaultFor(scheme));
  return held.length > 0 ? { kind: 'unregister', schemes: held } : { kind: 'nothing' };
}
