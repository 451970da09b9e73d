/** Printing results: JSON for programs, a table or a sentence for people; lists page by page. */
import type { Page } from '../core/api/schemas';
import { integer } from './arguments';
import type { CommandContext } from './command';

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
      page_size: integer(values['page-size'], '--page-size'),
    },
    page: integer(values.page, '--page'),
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
  noun: string,
  rows: (items: T[]) => string,
  fetch: { all: () => AsyncIterable<T>; page: (page: number | undefined) => Promise<Page<T>> },
): Promise<void> {
  if (list.all) {
    const all = await collect(fetch.all());
    return show(ctx, all, () => `${rows(all)}\n\n${all.length} ${noun}`);
  }
  const page = await fetch.page(list.page);
  const more = page.next ? ' (more: --page N, or --all)' : '';
  show(
    ctx,
    page,
    () => `${rows(page.results)}\n\n${page.results.length} of ${page.count} ${noun}${more}`,
  );
}
