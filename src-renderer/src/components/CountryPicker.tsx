import { SettingField } from './SettingField';

const NAMES = new Intl.DisplayNames(['en'], { type: 'region' });

/** "Germany (DE)": a country by its English name, with its code. */
export function countryLabel(code: string): string {
  const name = NAMES.of(code);
  return name && name !== code ? `${name} (${code})` : code;
}

/** `countries` ordered by name, as a drop-down lists them. */
export function countriesByName(countries: readonly string[]): string[] {
  return [...countries].sort((a, b) => countryLabel(a).localeCompare(countryLabel(b)));
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
}: {
  label: string;
  /** Every country that can be chosen (codes). */
  countries: readonly string[];
  value: readonly string[];
  onChange: (codes: string[]) => void;
  error?: string | undefined;
}) {
  const chosen = new Set(value);
  return (
    <fieldset className="settings-choices" data-testid="allowed-countries">
      <legend>{label}</legend>
      {value.length === 0 ? (
        <p className="setting-hint">Every country.</p>
      ) : (
        <ul className="country-chips">
          {countriesByName(value).map((code) => (
            <li key={code}>
              {countryLabel(code)}
              <button
                type="button"
                className="chip-remove"
                aria-label={`Remove ${countryLabel(code)}`}
                onClick={() => onChange(value.filter((other) => other !== code))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <SettingField
        label={value.length === 0 ? 'Only dial these countries' : 'Add a country'}
        error={error}
      >
        <select
          className="setting-medium"
          value=""
          onChange={(event) => {
            if (event.target.value) onChange([...value, event.target.value]);
          }}
        >
          <option value="">Choose a country…</option>
          {countriesByName(countries.filter((code) => !chosen.has(code))).map((code) => (
            <option key={code} value={code}>
              {countryLabel(code)}
            </option>
          ))}
        </select>
      </SettingField>
    </fieldset>
  );
}
