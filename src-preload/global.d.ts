import type { CallbarApi } from '../src-shared/contract';

declare global {
  interface Window {
    /** Provided by the preload (Electron) or the web preview bridge; see src-shared/contract. */
    callbar: CallbarApi;
  }
}
