/**
 * Where ↑/↓ and Home/End move the focus in a menu of `count` items from item `at` (wrapping
 * around), or undefined for any other key: the one rule the window's menu and a row's "⋯" menu
 * share (WAI-ARIA menu keys).
 */
export function rovingTarget(key: string, at: number, count: number): number | undefined {
  switch (key) {
    case 'ArrowDown':
      return (at + 1) % count;
    case 'ArrowUp':
      return (at - 1 + count) % count;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return undefined;
  }
}
