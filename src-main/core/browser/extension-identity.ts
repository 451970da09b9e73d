/**
 * Who Callbar's browser extension is, as the browsers know it (browser-extension/identity.json,
 * which the extension's build writes into its manifests): the Chromium build's public `key` fixes
 * its id (the first 128 bits of the key's SHA-256, written with the letters a–p), the Firefox
 * build's gecko id, and the native messaging host's name. The host manifest lets exactly these
 * ids talk to the host.
 */
import identity from '../../../browser-extension/identity.json';

export const NATIVE_HOST_NAME: string = identity.native_host;
export const CHROMIUM_EXTENSION_ID: string = identity.chromium.id;
export const CHROMIUM_EXTENSION_KEY: string = identity.chromium.key;
export const FIREFOX_EXTENSION_ID: string = identity.firefox.id;

/** The origin Chromium-family browsers pass to the host and list in `allowed_origins`. */
export const CHROMIUM_EXTENSION_ORIGIN = `chrome-extension://${CHROMIUM_EXTENSION_ID}/`;
