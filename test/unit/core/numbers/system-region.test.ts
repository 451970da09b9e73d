/**
 * The default region is the system's (issue 41): the desktop shell's country, else the locale
 * variables of the telephone category, else the runtime's locale; never a silent US when the
 * system names another country.
 */
import { describe, expect, it } from 'vitest';
import {
  knownRegion,
  localeRegion,
  systemRegion,
} from '../../../../src-main/core/numbers/system-region';

describe('the system region', () => {
  it('reads POSIX locale names', () => {
    expect(localeRegion('de_DE.UTF-8')).toBe('DE');
    expect(localeRegion('de_AT@euro')).toBe('AT');
    expect(localeRegion('en_GB')).toBe('GB');
    expect(localeRegion('C.UTF-8')).toBeUndefined();
    expect(localeRegion('POSIX')).toBeUndefined();
    expect(localeRegion('de')).toBeUndefined();
    expect(localeRegion('xx_ZZ.UTF-8')).toBeUndefined();
  });

  it('takes LC_ALL, then LC_TELEPHONE, then LANG, as POSIX does for the telephone category', () => {
    expect(systemRegion({ LANG: 'de_DE.UTF-8' })).toBe('DE');
    expect(systemRegion({ LANG: 'de_DE.UTF-8', LC_TELEPHONE: 'fr_CH.UTF-8' })).toBe('CH');
    expect(systemRegion({ LANG: 'de_DE.UTF-8', LC_ALL: 'en_GB.UTF-8' })).toBe('GB');
    // An empty variable counts as unset.
    expect(systemRegion({ LC_ALL: '', LANG: 'nl_NL.UTF-8' })).toBe('NL');
    // A locale that names no country: no region (the window asks, US until then).
    expect(systemRegion({ LANG: 'C.UTF-8' })).toBeUndefined();
  });

  it('prefers the desktop shell’s country', () => {
    expect(systemRegion({ LANG: 'de_DE.UTF-8' }, 'at')).toBe('AT');
    expect(systemRegion({ LANG: 'de_DE.UTF-8' }, '')).toBe('DE');
    expect(knownRegion('ZZ')).toBeUndefined();
  });
});
