import { useTranslation } from '../i18n';
import { useAppStore } from '../store/app-store';
import { Name, PhoneNumber } from '../components/Isolated';
import { useFavourites } from '../hooks/use-favourites';

/** The empty search's first section: starred contacts (a policy's first), each one click away. */
export function FavouritesList() {
  const { t } = useTranslation();
  const { favourites, error, setStarred } = useFavourites();
  const dial = useAppStore((state) => state.dial);
  if (favourites.length === 0 && !error) return null;
  return (
    <section className="recent favourites" aria-labelledby="favourites-title">
      <div className="recent-head">
        <h2 id="favourites-title">{t('favourites.title')}</h2>
      </div>
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
      <ul className="recent-list" data-testid="favourites">
        {favourites.map((contact) => (
          <li key={contact.id} className="recent-call">
            <div className="recent-who">
              <span className="recent-name">
                <Name>{contact.display_name}</Name>
              </span>
              <span className="recent-detail">
                <PhoneNumber>{contact.shown.number}</PhoneNumber>
                {contact.read_only ? ` · ${t('favourites.fromAdministrator')}` : ''}
              </span>
            </div>
            <button
              type="button"
              aria-label={t('contacts.callName', { name: contact.display_name })}
              onClick={() => void dial(contact.number, 'ui', contact.display_name)}
            >
              {t('common.call')}
            </button>
            {contact.read_only ? null : (
              <button
                type="button"
                className="link"
                aria-label={t('star.unstarName', { name: contact.display_name })}
                onClick={() => void setStarred(contact.id, false)}
              >
                {t('favourites.unstar')}
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
