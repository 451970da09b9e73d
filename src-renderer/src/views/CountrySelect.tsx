import { countriesByName, countryLabel } from '../components/CountryPicker';
import { useLocale } from '../hooks/use-locale';

/**
 * The user's country (the `region` setting: how numbers without a country code are read), by
 * its name in the window's language. Ids and aria-* come from its Field.
 */
export function CountrySelect({
  countries,
  value,
  onChange,
  ...field
}: {
  countries: readonly string[];
  value: string;
  onChange: (code: string) => void;
  id?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
  disabled?: boolean;
}) {
  const { locale } = useLocale();
  return (
    <select
      {...field}
      className="setting-wide"
      value={value}
      onChange={(event) => onChange(event.target.value)}
    >
      {countriesByName(countries, locale).map((code) => (
        <option key={code} value={code}>
          {countryLabel(code, locale)}
        </option>
      ))}
    </select>
  );
}
