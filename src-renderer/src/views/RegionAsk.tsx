import { useState } from 'react';
import { useTranslation } from '../i18n';
import type { Locale } from '../../../src-shared/i18n';
import { countriesByName, countryLabel } from '../components/CountryPicker';
import { useAppStore } from '../store/app-store';
import { CoreAlert } from '../components/CoreText';

/**
 * Until someone chose the region (the person, CALLBAR_REGION or a policy), the search view asks
 * the person to confirm the one numbers are read in: the system's, prefilled. Numbers written
 * without a country code are that country's; its numbers are shown the national way. Loaded
 * only when asked (SearchView), with the screens' texts (its label is Settings').
 */
export function RegionAsk() {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const region = useAppStore((state) => state.region);
  const error = useAppStore((state) => state.regionError);
  const confirm = useAppStore((state) => state.confirmRegion);
  const [choice, setChoice] = useState<string | undefined>();
  if (!region || region.confirmed) return null;
  const value = choice ?? region.code;
  return (
    <section
      className="first-run region-ask"
      aria-labelledby="region-ask-title"
      data-testid="region-ask"
    >
      <h2 id="region-ask-title">{t('regionAsk.title')}</h2>
      <p>{t('regionAsk.why')}</p>
      <label className="region-ask-choice">
        {t('settings.label.region')}{' '}
        <select value={value} onChange={(event) => setChoice(event.target.value)}>
          {countriesByName(region.countries, locale).map((code) => (
            <option key={code} value={code}>
              {countryLabel(code, locale)}
            </option>
          ))}
        </select>
      </label>{' '}
      <button type="button" className="primary" onClick={() => void confirm(value)}>
        {t('regionAsk.confirm')}
      </button>
      <CoreAlert text={error?.message} />
    </section>
  );
}
