import { computed, toValue, type MaybeRefOrGetter } from 'vue';
import { isIanaTimeZone } from '../../../api/schemas/timezone.ts';
import { offsetLabel } from '../charts/time.ts';
import { appDate } from '../clock.ts';

/** One choice of the time-zone select: the IANA name, and the name with its current offset. */
export interface TimeZoneOption {
  value: string;
  label: string;
}

const FALLBACK_ZONE = 'UTC';

/**
 * The runtime's list follows ICU, which keeps some zones under their old names (Asia/Calcutta,
 * Europe/Kiev). A user looks for the current IANA name, so that one is offered; both name the
 * same zone and the contract accepts either.
 */
const CURRENT_NAMES: Readonly<Record<string, string>> = {
  'Africa/Asmera': 'Africa/Asmara',
  'America/Buenos_Aires': 'America/Argentina/Buenos_Aires',
  'America/Catamarca': 'America/Argentina/Catamarca',
  'America/Coral_Harbour': 'America/Atikokan',
  'America/Cordoba': 'America/Argentina/Cordoba',
  'America/Godthab': 'America/Nuuk',
  'America/Indianapolis': 'America/Indiana/Indianapolis',
  'America/Jujuy': 'America/Argentina/Jujuy',
  'America/Louisville': 'America/Kentucky/Louisville',
  'America/Mendoza': 'America/Argentina/Mendoza',
  'Asia/Calcutta': 'Asia/Kolkata',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Rangoon': 'Asia/Yangon',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Atlantic/Faeroe': 'Atlantic/Faroe',
  'Europe/Kiev': 'Europe/Kyiv',
  'Pacific/Enderbury': 'Pacific/Kanton',
  'Pacific/Ponape': 'Pacific/Pohnpei',
  'Pacific/Truk': 'Pacific/Chuuk',
};

/** The current IANA name of a zone the runtime may know under an old one. */
export function currentZoneName(zone: string): string {
  const current = CURRENT_NAMES[zone];
  return current && isIanaTimeZone(current) ? current : zone;
}

/** The zone this computer is set to, if the contract accepts it (else UTC). */
export function browserTimeZone(): string {
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    return zone && isIanaTimeZone(zone) ? currentZoneName(zone) : FALLBACK_ZONE;
  } catch {
    return FALLBACK_ZONE;
  }
}

let runtimeZones: readonly string[] | undefined;

/**
 * Every IANA zone this runtime knows that the contract's `TimeZoneName` accepts, under its
 * current name. The runtime's list omits `UTC` (an alias), so it is added: it is a valid plant
 * time zone too.
 */
export function runtimeTimeZones(): readonly string[] {
  if (!runtimeZones) {
    let names: string[];
    try {
      names = Intl.supportedValuesOf('timeZone');
    } catch {
      names = [];
    }
    runtimeZones = [...new Set([...names.map(currentZoneName), FALLBACK_ZONE])]
      .filter(isIanaTimeZone)
      .sort();
  }
  return runtimeZones;
}

const offsetCache = new Map<string, string>();

/**
 * `UTC+01:00` for Europe/Rome in winter: the offset now, to tell similar names apart, worded as
 * every other offset on screen (charts/time.ts), not Intl's `GMT+01:00`.
 */
export function currentOffset(zone: string, now = appDate()): string {
  const cached = offsetCache.get(zone);
  if (cached !== undefined) return cached;
  let offset: string;
  try {
    offset = offsetLabel(zone, now.getTime());
  } catch {
    offset = '';
  }
  offsetCache.set(zone, offset);
  return offset;
}

export function timeZoneOption(zone: string): TimeZoneOption {
  const offset = currentOffset(zone);
  return { value: zone, label: offset ? `${zone} (${offset})` : zone };
}

/**
 * The time-zone choices for a plant form: the runtime's IANA zones, plus the zone being edited
 * (a plant saved elsewhere may carry a zone this runtime lists under another name) and the
 * computer's own zone, the default for a new plant.
 */
export function useTimeZones(current?: MaybeRefOrGetter<string | undefined>) {
  const defaultZone = browserTimeZone();
  const base = runtimeTimeZones();
  const options = computed<TimeZoneOption[]>(() => {
    const extra = [defaultZone, toValue(current)].filter(
      (zone): zone is string => !!zone && isIanaTimeZone(zone) && !base.includes(zone),
    );
    const names = extra.length > 0 ? [...new Set([...base, ...extra])].sort() : base;
    return names.map(timeZoneOption);
  });
  return { options, defaultZone };
}
