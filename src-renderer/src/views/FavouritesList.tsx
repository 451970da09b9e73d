import { useTranslation } from '../i18n';
import { useAppStore } from '../store/app-store';
import { Name, PhoneNumber } from '../components/Isolated';
import { useFavourites } from '../hooks/use-favourites';
import { Avatar } from '../components/Avatar';
import { RowCallButton } from '../components/RowCallButton';
import { CoreAlert } from '../components/CoreText';
import { SEPARATOR } from '../components/separator';

/** The empty search's first section: starred contacts (a policy's first), each one click away. */
export function FavouritesList() {
  const { t } = useTranslation();
  const { favourites, error, setStarred } = useFavourites();
  const dial = useAppStore((state) => state.dial);
  if (favourites.length === 0 && !error) return null;
  return (
    <section className="section favourites" aria-labelledby="favourites-title">
      <div className="section-head">
        <h2 id="favourites-title">{t('favourites.title')}</h2>
      </div>
      <CoreAlert text={error} />
      <ul className="rows" data-testid="favourites">
        {favourites.map((contact) => (
          <li key={contact.id} className="row">
            <Avatar name={contact.display_name} />
            <div className="row-text">
              <span className="row-title">
                <Name>{contact.display_name}</Name>
              </span>
              <span className="row-detail">
                <PhoneNumber>{contact.shown.number}</PhoneNumber>
                {contact.read_only ? `${SEPARATOR}${t('favourites.fromAdministrator')}` : ''}
              </span>
            </div>
            <div className="row-actions">
              {contact.read_only ? null : (
                <button
                  type="button"
                  className="plain"
                  aria-label={t('star.unstarName', { name: contact.display_name })}
                  onClick={() => void setStarred(contact.id, false)}
                >
                  {t('favourites.unstar')}
                </button>
              )}
              <RowCallButton
                name={contact.display_name}
                onCall={() => void dial(contact.number, 'ui', contact.display_name)}
              />
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
