/** What the calls tests share: a directory contact and a wait for the simulator or a process. */
import type { DirectoryContact } from '../../src-preload/contract';

/** A phonebook contact, as the directory would hand it to calls. */
export const ada: DirectoryContact = {
  id: 77,
  phonebook: 2,
  phonebook_name: 'Customers',
  display_name: 'Ada Lovelace',
  company: 'Analytical Engines',
  number: '+442071234567',
  secondary_number: null,
  speed_dial: 7341,
};

/** Polls `probe` until it gives a value (30 s at most: deliveries on a loaded machine). */
export async function until<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
