// The demo's own profile folder (.callbar-demo/) between runs without --state: "Nothing is kept
// after this run". Each run's session lives in a private keyring that goes with the run, but the
// account's data stayed in the folder: the local copy of the directory, the recent calls, the
// stars. The next run's account is the same one by its tenant, extension and address whenever the
// simulator ran on the same port (--sim-port), so Callbar took that copy for its own: contacts
// the new simulator does not have, dialled from the search, until its first sync 15 minutes on.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** What a run leaves for the next one: the person's settings, the log, the code cache. */
const KEPT = new Set(['settings.json', 'logs', 'compile-cache']);

/**
 * Removes the last run's account data from the demo profile `dataDir` (everything but KEPT),
 * unless a Callbar still runs on it (its link door names a live process): true when removed.
 */
export function forgetLastRun(dataDir) {
  let entries;
  try {
    entries = readdirSync(dataDir);
  } catch {
    return true; // No folder yet: nothing to forget.
  }
  if (runningOn(dataDir)) return false;
  for (const name of entries) {
    if (!KEPT.has(name)) rmSync(join(dataDir, name), { recursive: true, force: true });
  }
  return true;
}

/** Whether the Callbar that opened the folder's link door still runs. */
function runningOn(dataDir) {
  try {
    const { pid } = JSON.parse(readFileSync(join(dataDir, 'link-door.json'), 'utf8'));
    if (!Number.isInteger(pid) || pid <= 0) return false;
    process.kill(pid, 0);
    return true;
  } catch {
    // No door, no such process, or (EPERM) another user's process with that id: not ours.
    return false;
  }
}
