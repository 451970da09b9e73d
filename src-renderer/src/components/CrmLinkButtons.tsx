import { useTranslation } from '../i18n';
import type { CrmParty } from '../../../src-shared/contract';
import { useCrmLinks } from '../hooks/use-crm-links';
import { CoreText } from './CoreText';

/**
 * "Open in crm.example.com" for each CRM link the settings offer, for `party` (nothing when no
 * link is set). The address is built and opened by core; a refusal is said beside the buttons.
 */
export function CrmLinkButtons({ party, who }: { party: CrmParty; who: string }) {
  const { t } = useTranslation();
  const { links, error, open } = useCrmLinks();
  if (links.length === 0) return null;
  return (
    <span className="crm-links" data-testid="crm-links">
      {links.map((link) => (
        <button
          key={link.index}
          type="button"
          className="plain"
          aria-label={t('crm.openFor', { crm: link.label, who })}
          onClick={() => void open(link.index, party)}
        >
          {t('crm.open', { crm: link.label })}
        </button>
      ))}
      {error ? (
        <span role="alert" className="error">
          <CoreText>{error}</CoreText>
        </span>
      ) : null}
    </span>
  );
}
