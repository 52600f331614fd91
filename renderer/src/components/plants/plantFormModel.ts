import type { z } from 'zod';
import { PlantCreateDto, PlantUpdateDto } from '../../../../api/schemas/plants.ts';
import type { Plant } from '../../stores/usePlantStore.ts';
import type { Translate } from '../../../../i18n/translator.ts';
import type { AppLocale } from '../../../../i18n/locales.ts';
import { decimalText, readDecimal } from '../../composables/decimalInput.ts';

/**
 * The plant form's values as typed (numbers stay text until saved, so "46,5" or "abc" can be
 * told apart from an empty field), and how they become the contract's DTOs.
 */
export interface PlantFormValues {
  name: string;
  externalIds: string[];
  latitude: string;
  longitude: string;
  altitudeM: string;
  timezone: string;
  hasPv: boolean;
  peakPowerKw: string;
  tiltDeg: string;
  azimuthDeg: string;
  lossesPercent: string;
  metadata: Record<string, unknown>;
}

/** The form's fields, named by their path in the DTO: how server messages name them too. */
export const PLANT_FIELDS = [
  'name',
  'externalIds',
  'location.latitude',
  'location.longitude',
  'location.altitudeM',
  'location.timezone',
  'pv.peakPowerKw',
  'pv.tiltDeg',
  'pv.azimuthDeg',
  'pv.lossesPercent',
  'metadata',
] as const;
export type PlantField = (typeof PLANT_FIELDS)[number];

/**
 * What a user reads when a value is out of range: the range in the field's own words (keys
 * under `plants.rules`).
 */
const FIELD_RULES: Partial<Record<PlantField, string>> = {
  name: 'plants.rules.name',
  externalIds: 'plants.rules.externalIds',
  'location.latitude': 'plants.rules.latitude',
  'location.longitude': 'plants.rules.longitude',
  'location.altitudeM': 'plants.rules.altitude',
  'location.timezone': 'plants.rules.timeZone',
  'pv.peakPowerKw': 'plants.rules.peakPower',
  'pv.tiltDeg': 'plants.rules.tilt',
  'pv.azimuthDeg': 'plants.rules.azimuth',
  'pv.lossesPercent': 'plants.rules.losses',
};

export const PV_DEFAULTS = { tiltDeg: 30, azimuthDeg: 180, lossesPercent: 14 } as const;

/** The form's values for a plant (or a new one), numbers written as `locale` writes them. */
export function valuesFromPlant(
  plant: Plant | undefined,
  defaultZone: string,
  locale: AppLocale,
): PlantFormValues {
  const numberText = (value: number | null | undefined) => decimalText(locale, value);
  return {
    name: plant?.name ?? '',
    externalIds: [...(plant?.externalIds ?? [])],
    latitude: numberText(plant?.location.latitude),
    longitude: numberText(plant?.location.longitude),
    altitudeM: numberText(plant?.location.altitudeM),
    timezone: plant?.location.timezone ?? defaultZone,
    hasPv: !!plant?.pv,
    peakPowerKw: numberText(plant?.pv?.peakPowerKw),
    tiltDeg: numberText(plant?.pv?.tiltDeg ?? PV_DEFAULTS.tiltDeg),
    azimuthDeg: numberText(plant?.pv?.azimuthDeg ?? PV_DEFAULTS.azimuthDeg),
    lossesPercent: numberText(plant?.pv?.lossesPercent ?? PV_DEFAULTS.lossesPercent),
    metadata: structuredClone({ ...(plant?.metadata ?? {}) }),
  };
}

type Problems = Partial<Record<PlantField, string>>;

interface Built {
  problems: Problems;
  dto: CreateBody;
}

type CreateBody = z.input<typeof PlantCreateDto>;
type UpdateBody = z.input<typeof PlantUpdateDto>;

/** What a missing required number says (keys). */
const REQUIRED_NUMBERS: Partial<Record<PlantField, string>> = {
  'location.latitude': 'plants.rules.latitudeMissing',
  'location.longitude': 'plants.rules.longitudeMissing',
  'pv.peakPowerKw': 'plants.rules.peakPowerMissing',
  'pv.tiltDeg': 'plants.rules.tiltMissing',
  'pv.azimuthDeg': 'plants.rules.azimuthMissing',
  'pv.lossesPercent': 'plants.rules.lossesMissing',
};

/**
 * The whole plant as the form describes it, with what prevents it from being one: numbers that
 * are not numbers, required values that are missing. Ranges and the rest are the contract's.
 */
function build(values: PlantFormValues, t: Translate, locale: AppLocale): Built {
  const problems: Problems = {};
  const number = (field: PlantField, text: string, required: boolean): number | null => {
    const read = readDecimal(locale, text, t);
    if (!read.ok) {
      problems[field] = read.problem;
      return null;
    }
    const missing = REQUIRED_NUMBERS[field];
    if (read.value === null && required && missing) problems[field] = t(missing);
    return read.value;
  };
  const latitude = number('location.latitude', values.latitude, true);
  const longitude = number('location.longitude', values.longitude, true);
  const altitudeM = number('location.altitudeM', values.altitudeM, false);
  let pv: CreateBody['pv'] = null;
  if (values.hasPv) {
    const peakPowerKw = number('pv.peakPowerKw', values.peakPowerKw, true);
    const tiltDeg = number('pv.tiltDeg', values.tiltDeg, true);
    const azimuthDeg = number('pv.azimuthDeg', values.azimuthDeg, true);
    const lossesPercent = number('pv.lossesPercent', values.lossesPercent, true);
    pv = {
      peakPowerKw: peakPowerKw ?? NaN,
      tiltDeg: tiltDeg ?? NaN,
      azimuthDeg: azimuthDeg ?? NaN,
      lossesPercent: lossesPercent ?? NaN,
    };
  }
  if (!values.timezone) problems['location.timezone'] = t('plants.rules.timeZoneMissing');
  const dto: CreateBody = {
    name: values.name,
    externalIds: [...values.externalIds],
    location: {
      latitude: latitude ?? NaN,
      longitude: longitude ?? NaN,
      timezone: values.timezone,
      altitudeM,
    },
    pv,
    // A plain copy: the form's reactive proxies cannot cross IPC (structured clone).
    metadata: JSON.parse(JSON.stringify(values.metadata)) as Record<string, unknown>,
  };
  return { problems, dto };
}

/** The field a zod issue concerns: the first of PLANT_FIELDS its path starts with. */
export function fieldOfPath(path: readonly PropertyKey[]): PlantField | undefined {
  const joined = path.map(String).join('.');
  return [...PLANT_FIELDS]
    .sort((a, b) => b.length - a.length)
    .find((field) => joined === field || joined.startsWith(`${field}.`));
}

/**
 * A contract issue of a plant field in the user's words: the field's range, else the contract's
 * own message (the draft's plant form words its issues so too).
 */
export function plantIssueText(
  field: PlantField,
  issue: z.ZodError['issues'][number],
  t: Translate,
): string {
  const rule = FIELD_RULES[field];
  if (field === 'name' && issue.code === 'too_small') return t('plants.rules.nameMissing');
  return rule ? t(rule) : issue.message;
}

function addZodProblems(problems: Problems, error: z.ZodError, t: Translate): void {
  for (const issue of error.issues) {
    const field = fieldOfPath(issue.path);
    if (!field || problems[field]) continue;
    problems[field] = plantIssueText(field, issue, t);
  }
}

export type PlantSubmission =
  | { kind: 'invalid'; problems: Problems }
  | { kind: 'create'; body: CreateBody }
  | { kind: 'update'; body: UpdateBody }
  | { kind: 'unchanged' };

/** JSON with object keys sorted: equal values compare equal whatever their key order. */
function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(
          Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)),
        )
      : inner,
  );
}

function same(a: unknown, b: unknown): boolean {
  return stableJson(a) === stableJson(b);
}

/**
 * What saving the form sends: a whole plant (create), or only the fields that changed (update;
 * PUT merges, so unchanged fields are left out), each checked with the contract's own DTO.
 * Numbers are read as `locale` writes them; problems are worded with `t`.
 */
export function submissionOf(
  values: PlantFormValues,
  t: Translate,
  locale: AppLocale,
  plant?: Plant,
): PlantSubmission {
  const { problems, dto } = build(values, t, locale);
  if (!plant) {
    const result = PlantCreateDto.safeParse(dto);
    if (!result.success) addZodProblems(problems, result.error, t);
    if (Object.keys(problems).length > 0) return { kind: 'invalid', problems };
    return { kind: 'create', body: dto };
  }
  const body: UpdateBody = {};
  if (dto.name.trim() !== plant.name) body.name = dto.name;
  if (!same(dto.externalIds, plant.externalIds)) body.externalIds = dto.externalIds;
  const before = { ...plant.location, altitudeM: plant.location.altitudeM ?? null };
  if (!same(dto.location, before)) body.location = dto.location;
  if (!same(dto.pv, plant.pv)) body.pv = dto.pv;
  if (!same(dto.metadata, plant.metadata)) body.metadata = dto.metadata;
  const result = PlantUpdateDto.safeParse(body);
  if (!result.success) addZodProblems(problems, result.error, t);
  // Values that do not read as numbers block saving even when unchanged fields are left out.
  if (Object.keys(problems).length > 0) return { kind: 'invalid', problems };
  if (Object.keys(body).length === 0) return { kind: 'unchanged' };
  return { kind: 'update', body };
}
