import { useTranslation } from '../i18n';
import { intlLocale, type Locale } from '../../../src-shared/i18n';
import { SettingField } from './SettingField';

const regionNames = new Map<Locale, Intl.DisplayNames>();

/** "Germany (DE)", "Deutschland (DE)": a country by its name in `locale`, with its code. */
export function countryLabel(code: string, locale: Locale): string {
  let names = regionNames.get(locale);
  if (!names) {
    names = new Intl.DisplayNames([intlLocale(locale)], { type: 'region' });
    regionNames.set(locale, names);
  }
  const name = names.of(code);
  return name && name !== code ? `${name} (${code})` : code;
}

/** `countries` ordered by their names in `locale`, as a drop-down lists them. */
export function countriesByName(countries: readonly string[], locale: Locale): string[] {
  const collator = new Intl.Collator(intlLocale(locale));
  const labels = new Map(countries.map((code) => [code, countryLabel(code, locale)]));
  return [...countries].sort((a, b) => collator.compare(labels.get(a)!, labels.get(b)!));
}

/**
 * A list of countries (the dialling policy's countries abroad): the chosen ones, each with
 * Remove, and a drop-down to add one; none chosen means every country.
 */
export function CountryPicker({
  label,
  countries,
  value,
  onChange,
  error,
  status,
}: {
  label: string;
  /** Every country that can be chosen (codes). */
  countries: readonly string[];
  value: readonly string[];
  onChange: (codes: string[]) => void;
  error?: string | undefined;
  /** "Saved", beside the label, just after a change was saved. */
  status?: string | undefined;
}) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const chosen = new Set(value);
  return (
    <fieldset className="settings-choices" data-testid="allowed-countries">
      <legend>
        {label}
        {status ? (
          <span className="field-status" aria-hidden="true">
            {status}
          </span>
        ) : null}
      </legend>
      {value.length === 0 ? (
        <p className="setting-hint">{t('countries.every')}</p>
      ) : (
        <ul className="country-chips">
          {countriesByName(value, locale).map((code) => (
            <li key={code}>
              {countryLabel(code, locale)}
              <button
                type="button"
                className="chip-remove"
                aria-label={t('countries.remove', { country: countryLabel(code, locale) })}
                onClick={() => onChange(value.filter((other) => other !== code))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <SettingField
        label={value.length === 0 ? t('countries.only') : t('countries.add')}
        error={error}
      >
        <select
          className="setting-wide"
          value=""
          onChange={(event) => {
            if (event.target.value) onChange([...value, event.target.value]);
          }}
        >
          <option value="">{t('countries.choose')}</option>
          {countriesByName(
            countries.filter((code) => !chosen.has(code)),
            locale,
          ).map((code) => (
            <option key={code} value={code}>
              {countryLabel(code, locale)}
            </option>
          ))}
        </select>
      </SettingField>
    </fieldset>
  );
}
