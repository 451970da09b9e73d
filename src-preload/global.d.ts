import type { CallbarApi } from './contract';

declare global {
  interface Window {
    /** Provided by the preload (Electron) or the web preview bridge; see src-preload/contract.ts. */
    callbar: CallbarApi;
  }
}
