/**
 * Polls `probe` until it gives a value (30 s at most: deliveries on a loaded machine). `seen`, when
 * given, says in the timeout's message what there was instead (a failure in CI tells its state).
 */
export async function until<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  seen?: () => unknown,
): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) {
      const instead = seen ? `; instead: ${JSON.stringify(await seen())}` : '';
      throw new Error(`timed out waiting for ${what}${instead}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
