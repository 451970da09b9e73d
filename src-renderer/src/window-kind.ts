/**
 * Which window this renderer is. The desktop shell opens the first-run setup window at
 * `index.html#setup` (src-main/app/windows.ts); every other load is the main window.
 */
export type WindowKind = 'main' | 'setup';

export function windowKindOf(hash: string): WindowKind {
  return hash.replace(/^#/, '').split('&').includes('setup') ? 'setup' : 'main';
}
