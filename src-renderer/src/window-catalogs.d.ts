/**
 * `virtual:window-catalog/<locale>`: one locale's `window` catalog compiled at build time
 * (scripts/window-catalogs.ts).
 */
declare module 'virtual:window-catalog/*' {
  import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';

  /** A message: its text when plain, else formatjs's AST. */
  export type CompiledMessage = string | MessageFormatElement[];
  export interface CompiledCatalog {
    [key: string]: CompiledMessage | CompiledCatalog;
  }
  const catalog: CompiledCatalog;
  export default catalog;
}
