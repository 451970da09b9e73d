/**
 * How the window's build is cut into chunks: every module the window loads at start (the entry's
 * static imports, transitively) in one chunk, `window`, so the start's JavaScript is one gzip
 * stream instead of a dozen small ones that rolldown would otherwise make of the modules the
 * start and the screens loaded later share; the screens and the catalogs stay chunks of their own.
 */

/** What rolldown's chunking tells of a module (its ChunkingContext). */
interface ChunkingContext {
  getModuleInfo(id: string): { isEntry: boolean; importers: readonly string[] } | null;
}

/** A `codeSplitting` group's name function: `window` for a module the entry imports statically. */
export function startChunkName(): (id: string, context: ChunkingContext) => string | null {
  const atStart = new Map<string, boolean>();
  const loadsAtStart = (id: string, context: ChunkingContext, path: Set<string>): boolean => {
    const known = atStart.get(id);
    if (known !== undefined) return known;
    const info = context.getModuleInfo(id);
    if (!info) return false;
    if (info.isEntry) return true;
    path.add(id);
    const found = info.importers.some(
      (importer) => !path.has(importer) && loadsAtStart(importer, context, path),
    );
    path.delete(id);
    // Only a definite answer is kept (one reached through a cycle may be partial).
    if (found || path.size === 0) atStart.set(id, found);
    return found;
  };
  // The entry module stays the entry chunk (index.html's script), importing `window`.
  return (id, context) =>
    !context.getModuleInfo(id)?.isEntry && loadsAtStart(id, context, new Set()) ? 'window' : null;
}
