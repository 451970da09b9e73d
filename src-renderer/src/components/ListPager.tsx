import type { ListPage } from '../hooks/use-platform-list';

/** "Showing 51–100 of 230" with Previous / Next. */
export function ListPager({
  page,
  what,
  onPage,
}: {
  page: ListPage<unknown> | undefined;
  what: string;
  onPage: (page: number) => void;
}) {
  if (!page || page.count === 0) return null;
  const first = (page.page - 1) * page.page_size + 1;
  const last = first + page.results.length - 1;
  return (
    <nav className="pager" aria-label={`Pages of ${what}`}>
      <span>
        {first}–{last} of {page.count} {what}
      </span>
      <button type="button" disabled={page.page <= 1} onClick={() => onPage(page.page - 1)}>
        Previous
      </button>
      <button type="button" disabled={!page.has_more} onClick={() => onPage(page.page + 1)}>
        Next
      </button>
    </nav>
  );
}
