import { useTranslation } from '../i18n';
import { useFavourites } from '../hooks/use-favourites';
import { CoreText } from './CoreText';

/** ☆/★ for one contact: stars it (it comes first in the tray and the empty search) or unstars it. */
export function StarToggle({ contactId, name }: { contactId: number; name: string }) {
  const { t } = useTranslation();
  const { favourites, error, setStarred } = useFavourites();
  const favourite = favourites.find((contact) => contact.id === contactId);
  const starred = favourite !== undefined;
  const label = starred ? t('star.unstarName', { name }) : t('star.starName', { name });
  return (
    <>
      <button
        type="button"
        aria-pressed={starred}
        aria-label={label}
        disabled={favourite?.read_only}
        // Where the button shows its sign alone (a narrow window's search), a pointer learns its
        // name here.
        title={favourite?.read_only ? t('star.fromAdministrator') : label}
        onClick={() => void setStarred(contactId, !starred)}
      >
        <span aria-hidden="true">{starred ? '★' : '☆'}</span>
        <span className="star-word">{starred ? t('star.favourite') : t('star.star')}</span>
      </button>
      {error ? (
        <span role="alert" className="error">
          <CoreText>{error}</CoreText>
        </span>
      ) : null}
    </>
  );
}
