/** Printing results: JSON for programs, a table or a sentence for people; lists page by page. */
import type { Page } from '../core/api/schemas';
import { formatNumber } from '../../src-shared/i18n/format';
import type { Translate } from '../core/text/said';
import { positiveInteger } from './arguments';
import type { CommandContext } from './command';

/** A duration in seconds with one decimal, as the user's language writes it (12.3 / 12,3). */
export function tenths(t: Translate, seconds: number): string {
  return formatNumber(t.locale, seconds, {
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
    useGrouping: false,
  });
}

export function show(ctx: CommandContext, value: unknown, human: () => string): void {
  ctx.io.out(ctx.json ? JSON.stringify(value) : human());
}

/** The options every list command takes. */
export const listOptions = {
  search: { type: 'string' },
  ordering: { type: 'string' },
  page: { type: 'string' },
  'page-size': { type: 'string' },
  all: { type: 'boolean' },
} as const;

export const listUsage = '[--search S] [--ordering F] [--page N] [--page-size N] [--all]';

/** search, ordering, page size, and the page asked for (checked before anything is asked). */
export function listQuery(values: {
  search?: string;
  ordering?: string;
  page?: string;
  'page-size'?: string;
}) {
  return {
    query: {
      search: values.search,
      ordering: values.ordering,
      page_size: positiveInteger(values['page-size'], '--page-size'),
    },
    page: positiveInteger(values.page, '--page'),
  };
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/** `--all`: every item, following the platform's pages; otherwise the one page asked for. */
export async function showList<T>(
  ctx: CommandContext,
  list: { all?: boolean | undefined; page: number | undefined },
  /** What is listed: its counts' keys under `list.` in the `cli` catalog. */
  noun: 'contacts' | 'phonebooks',
  rows: (items: T[]) => string,
  fetch: { all: () => AsyncIterable<T>; page: (page: number | undefined) => Promise<Page<T>> },
): Promise<void> {
  if (list.all) {
    const all = await collect(fetch.all());
    return show(
      ctx,
      all,
      () => `${rows(all)}\n\n${ctx.t(`list.${noun}.all`, { count: all.length })}`,
    );
  }
  const page = await fetch.page(list.page);
  show(ctx, page, () => {
    const counts = ctx.t(`list.${noun}.page`, { shown: page.results.length, count: page.count });
    return `${rows(page.results)}\n\n${counts}${page.next ? ctx.t('list.more') : ''}`;
  });
}
