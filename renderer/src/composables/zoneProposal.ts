import { proposeTimeZone } from '../../../server/domain/wiring/index.ts';
import { parseDecimal } from '../../../i18n/format.ts';
import type { AppLocale } from '../../../i18n/locales.ts';

/**
 * The time zone the plant form proposes for typed coordinates (an offline lookup): null while
 * they are incomplete or out of range, and when the chosen zone is already that one. Only a
 * proposal: the user accepts it, the zone they chose is never replaced behind their back.
 */
export function zoneProposal(
  latitudeText: string,
  longitudeText: string,
  chosenZone: string,
  locale: AppLocale,
): string | null {
  const latitude = parseDecimal(locale, latitudeText);
  const longitude = parseDecimal(locale, longitudeText);
  if (typeof latitude !== 'number' || typeof longitude !== 'number') return null;
  const proposed = proposeTimeZone(latitude, longitude);
  return proposed && proposed !== chosenZone ? proposed : null;
}
