/** Where Got it on the first-run hint is remembered (this window's storage, like the theme). */
const DISMISSED_KEY = 'callbar.first-run-hint';

/** Whether the person pressed Got it on the first-run hint (then it never loads again). */
export function firstRunHintDismissed(): boolean {
  return globalThis.localStorage?.getItem(DISMISSED_KEY) === 'dismissed';
}

export function dismissFirstRunHint(): void {
  globalThis.localStorage?.setItem(DISMISSED_KEY, 'dismissed');
}
