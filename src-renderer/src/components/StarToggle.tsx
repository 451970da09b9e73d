import { useFavourites } from '../hooks/use-favourites';

/** ☆/★ for one contact: stars it (it comes first in the tray and the empty search) or unstars it. */
export function StarToggle({ contactId, name }: { contactId: number; name: string }) {
  const { favourites, error, setStarred } = useFavourites();
  const favourite = favourites.find((contact) => contact.id === contactId);
  const starred = favourite !== undefined;
  return (
    <>
      <button
        type="button"
        aria-pressed={starred}
        aria-label={starred ? `Unstar ${name}` : `Star ${name}`}
        disabled={favourite?.read_only}
        title={favourite?.read_only ? 'A favourite from your administrator' : undefined}
        onClick={() => void setStarred(contactId, !starred)}
      >
        {starred ? '★ Favourite' : '☆ Star'}
      </button>
      {error ? (
        <span role="alert" className="error">
          {error}
        </span>
      ) : null}
    </>
  );
}
