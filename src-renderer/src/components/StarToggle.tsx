import { useTranslation } from '../i18n';
import { useFavourites } from '../hooks/use-favourites';

/** ☆/★ for one contact: stars it (it comes first in the tray and the empty search) or unstars it. */
export function StarToggle({ contactId, name }: { contactId: number; name: string }) {
  const { t } = useTranslation();
  const { favourites, error, setStarred } = useFavourites();
  const favourite = favourites.find((contact) => contact.id === contactId);
  const starred = favourite !== undefined;
  return (
    <>
      <button
        type="button"
        aria-pressed={starred}
        aria-label={starred ? t('star.unstarName', { name }) : t('star.starName', { name })}
        disabled={favourite?.read_only}
        title={favourite?.read_only ? t('star.fromAdministrator') : undefined}
        onClick={() => void setStarred(contactId, !starred)}
      >
        {starred ? t('star.favourite') : t('star.star')}
      </button>
      {error ? (
        <span role="alert" className="error">
          {error}
        </span>
      ) : null}
    </>
  );
}
