import { useTranslation } from '../i18n';
import type { ListPage } from '../hooks/use-platform-list';
import type { ListKind } from './ListScreen';

/** "Showing 51–100 of 230" with Previous / Next. */
export function ListPager({
  page,
  what,
  onPage,
}: {
  page: ListPage<unknown> | undefined;
  what: ListKind;
  onPage: (page: number) => void;
}) {
  const { t } = useTranslation();
  if (!page || page.count === 0) return null;
  const first = (page.page - 1) * page.page_size + 1;
  const last = first + page.results.length - 1;
  return (
    <nav className="pager" aria-label={t(`list.${what}.pages`)}>
      <span>{t(`list.${what}.range`, { first, last, count: page.count })}</span>
      <button type="button" disabled={page.page <= 1} onClick={() => onPage(page.page - 1)}>
        {t('list.previous')}
      </button>
      <button type="button" disabled={!page.has_more} onClick={() => onPage(page.page + 1)}>
        {t('list.next')}
      </button>
    </nav>
  );
}
