import { proposeTimeZone } from '../../../server/domain/wiring/index.ts';
import { parseDecimal } from '../components/plants/plantFormModel.ts';

/**
 * The time zone the plant form proposes for typed coordinates (an offline lookup): null while
 * they are incomplete or out of range, and when the chosen zone is already that one. Only a
 * proposal: the user accepts it, the zone they chose is never replaced behind their back.
 */
export function zoneProposal(
  latitudeText: string,
  longitudeText: string,
  chosenZone: string,
): string | null {
  const latitude = parseDecimal(latitudeText);
  const longitude = parseDecimal(longitudeText);
  if (typeof latitude !== 'number' || typeof longitude !== 'number') return null;
  const proposed = proposeTimeZone(latitude, longitude);
  return proposed && proposed !== chosenZone ? proposed : null;
}
