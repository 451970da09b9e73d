/**
 * `callbar favourites …`: star and unstar contacts of this computer's directory, and list the
 * favourites (the ones a policy pushes first, marked). The same profile file as the app's, so a
 * star made here shows in the app's tray and empty search, and the other way round.
 */
import type { FavouriteContact } from '../../../src-shared/contract';
import { CallbarError } from '../../core/errors';
import type { Favourites } from '../../core/favourites/favourites';
import { said, type Translate } from '../../core/text/said';
import { requiredId } from '../arguments';
import { defineCommand, type CommandContext, type CommandGroup } from '../command';
import { show } from '../list-output';
import { formatTable } from '../table';
import { openLocalDirectory } from './directory-commands';

function favouriteRows(t: Translate, favourites: FavouriteContact[], unlisted = 0): string {
  // Stars whose contacts this directory lacks are said, not left out: they come back with a sync.
  const note = unlisted > 0 ? t('favourites.unlisted', { count: unlisted }) : undefined;
  if (favourites.length === 0) return note ?? t('favourites.none');
  const table = formatTable(
    t,
    ['ID', 'NAME', 'NUMBER', 'COMPANY', 'FROM'],
    favourites.map((f) => [
      f.id,
      f.display_name,
      f.shown.number,
      f.company,
      t(f.source === 'policy' ? 'favourites.policy' : 'favourites.you'),
    ]),
  );
  return note ? `${table}\n${note}` : table;
}

/** Runs `task` with the profile's favourites over this computer's directory. */
async function withFavourites<T>(
  ctx: CommandContext,
  task: (favourites: Favourites, contactIds: Set<number>) => Promise<T>,
): Promise<T> {
  const [{ policyFavourites, profileFavourites }, { policyOnlyValues }] = await Promise.all([
    import('../../core/favourites/favourites'),
    import('../../core/config/policy/policies'),
  ]);
  const profile = await ctx.profile();
  const directory = await openLocalDirectory(ctx);
  try {
    const favourites = profileFavourites(profile.dataDir, profile.log, directory, [
      policyFavourites(policyOnlyValues(profile.policies).favourites),
    ]);
    return await task(favourites, new Set(directory.contacts.map((contact) => contact.id)));
  } finally {
    await directory.close();
  }
}

const star = (starred: boolean) =>
  defineCommand({
    name: starred ? 'favourites add' : 'favourites remove',
    usage: 'ID',
    args: { name: 'ID', min: 1 },
    async run(ctx, { args }) {
      const id = requiredId(args[0], said('cli:usage.contactId'));
      const listed = await withFavourites(ctx, async (favourites, known) => {
        if (starred && !known.has(id)) {
          throw new CallbarError('not_found', said('cli:favourites.unknownContact', { id }));
        }
        // Not starred (and no policy's, which set() refuses to unstar): nothing to remove.
        if (
          !starred &&
          !(await favourites.starred(id)) &&
          !(await favourites.list()).some((favourite) => favourite.id === id)
        ) {
          throw new CallbarError('not_found', said('cli:favourites.notFavourite', { id }));
        }
        return favourites.set(id, starred);
      });
      show(ctx, listed, () => favouriteRows(ctx.t, listed));
    },
  });

export const favouriteCommands: CommandGroup = {
  title: 'favourites',
  commands: [
    defineCommand({
      name: 'favourites list',
      async run(ctx) {
        const [listed, unlisted] = await withFavourites(ctx, (favourites) =>
          Promise.all([favourites.list(), favourites.unlisted()]),
        );
        show(ctx, listed, () => favouriteRows(ctx.t, listed, unlisted));
      },
    }),
    star(true),
    star(false),
  ],
};
