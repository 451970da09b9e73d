/**
 * An Accept-Language header's language tags, best first (`de-DE,de;q=0.9,en;q=0.8` → de-DE, de,
 * en); `*`, what is no language tag and tags refused by a zero quality are left out. One reading
 * for every page Callbar serves: the receiver's and the relay's landing pages (the language they
 * are worded in, landing-page.ts) and the web preview (the languages core answers its window in).
 */
export function acceptedLanguages(header: string | undefined): string[] {
  const tags: { tag: string; quality: number; at: number }[] = [];
  for (const [at, part] of (header ?? '').split(',').entries()) {
    const [tag = '', ...parameters] = part.split(';').map((piece) => piece.trim());
    if (!/^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(tag)) continue;
    const q = parameters.find((parameter) => /^q=/i.test(parameter));
    const quality = q === undefined ? 1 : Number(q.slice(2));
    if (!(quality > 0)) continue;
    tags.push({ tag, quality, at });
  }
  return tags.sort((a, b) => b.quality - a.quality || a.at - b.at).map(({ tag }) => tag);
}
