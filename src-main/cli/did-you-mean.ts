/** "Did you mean …?" for a mistyped command or option: the closest known name, if close enough. */

/** Edits (insert, delete, substitute, swap two neighbours) to turn one string into the other. */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
      }
    }
  }
  return d[a.length]![b.length]!;
}

/** The candidate the input most likely meant: a prefix of it, or within a few typos. */
export function closestName(input: string, candidates: readonly string[]): string | undefined {
  const typed = input.toLowerCase();
  if (typed.length < 2) return undefined;
  const prefixed = candidates.filter((candidate) => candidate.startsWith(typed));
  if (prefixed.length === 1) return prefixed[0];
  let best: string | undefined;
  let bestDistance = Math.max(1, Math.floor(typed.length / 3));
  for (const candidate of candidates) {
    const distance = editDistance(typed, candidate);
    if (distance <= bestDistance && (best === undefined || distance < bestDistance)) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
