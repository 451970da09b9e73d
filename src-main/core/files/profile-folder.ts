/**
 * The profile's folder is checked once at start, before anything is read from it or written to
 * it: it must be a folder of the user running Callbar, closed to everyone else (0700). Everything
 * in it (settings, cache, call log, the session lock) is trusted only as far as that holds, so a
 * folder another user owns is refused, and one that others may enter is closed (and logged).
 * Folders inside it are Callbar's own: a symbolic link planted in their place is replaced by a
 * real folder (own-subfolder.ts), so `logs/` cannot send the log into another directory.
 */
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { CallbarError } from '../errors';
import { said } from '../text/said';
import { currentUid, OPEN_TO_OTHERS } from './folder-owner';

/** What {@link secureProfileFolder} found and did. */
export interface ProfileFolderCheck {
  /** The folder's mode before Callbar closed it to others, when it had to (e.g. 0o755). */
  tightenedFrom?: number;
}

/**
 * Creates `dataDir` (0700) when missing, then checks it: a folder (a link to one is fine: a user
 * may keep the profile on another disk), owned by this user, with no access for group or others.
 * @throws CallbarError `profile_unsafe` when it is not a folder, cannot be made (a file on its
 * path, no permission) or belongs to another user.
 */
export function secureProfileFolder(dataDir: string): ProfileFolderCheck {
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown';
    // A file where the folder should be: said as that below; anything else here, in words.
    if (code !== 'EEXIST') {
      throw new CallbarError(
        'profile_unsafe',
        said('errors:profile.cannotCreate', { path: dataDir, code }),
        {
          cause: error,
        },
      );
    }
  }
  const stats = statSync(dataDir);
  if (!stats.isDirectory()) {
    throw new CallbarError('profile_unsafe', said('errors:profile.notAFolder', { path: dataDir }));
  }
  const uid = currentUid();
  if (process.platform === 'win32' || uid === undefined) return {};
  if (stats.uid !== uid) {
    throw new CallbarError(
      'profile_unsafe',
      said('errors:profile.otherOwner', { path: dataDir, owner: stats.uid, uid }),
    );
  }
  const mode = stats.mode & 0o777;
  if ((mode & OPEN_TO_OTHERS) === 0) return {};
  chmodSync(dataDir, 0o700);
  return { tightenedFrom: mode };
}
