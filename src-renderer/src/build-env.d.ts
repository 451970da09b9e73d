/** What Vite's build tells the window's code (electron-vite builds the renderer with Vite). */
interface ImportMetaEnv {
  /** A development build (`electron-vite dev`), not one for people to use. */
  readonly DEV: boolean;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
