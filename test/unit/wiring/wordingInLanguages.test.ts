import { describe, expect, test } from 'vitest';
import { APP_LOCALES, type AppLocale } from '../../../i18n/locales.ts';
import { wordsOf, type StoredText } from '../../../i18n/text.ts';
import { createTranslator } from '../../../i18n/translator.ts';
import {
  directionTest,
  gridSign,
  runWiringChecks,
  storageSign,
  timeZoneCheck,
  type WiringInput,
} from '../../../server/domain/wiring/index.ts';
import {
  craftedPlant,
  directionMeter as meter,
  JUNE_NIGHT,
  JUNE_NOON,
  steady,
  withReadings,
} from './craftedPlant.ts';

/**
 * The checks hand back message keys and raw figures; the words are made where they are shown,
 * in the reader's language with its number format. Every text of every case reads as words in
 * every language (no key, no placeholder left), and German and Italian read as written there.
 */

const wording = (locale: AppLocale) => ({ t: createTranslator(locale), locale, now: JUNE_NOON });
const say = (locale: AppLocale) => (text: StoredText) => wordsOf(text, wording(locale));
const de = say('de');
const it = say('it');

const sunnyNoon = () =>
  craftedPlant(JUNE_NOON, { production: 5000, consumption: 800, storage: -1500 });

const CASES: Record<string, () => WiringInput> = {
  'a consistent plant at noon': sunnyNoon,
  'a reversed grid meter': () => withReadings(sunnyNoon(), 'Grid meter', (value) => -value),
  'a reversed production meter': () => withReadings(sunnyNoon(), 'PV meter', (value) => -value),
  'a reversed battery meter': () => withReadings(sunnyNoon(), 'Battery power', (value) => -value),
  'a production meter in kW': () => withReadings(sunnyNoon(), 'PV meter', (value) => value / 1000),
  'a night': () => craftedPlant(JUNE_NIGHT, { production: 0, consumption: 600, storage: 0 }),
  'a plant without PV settings': () => {
    const input = sunnyNoon();
    return { ...input, plant: { ...input.plant, pv: null } };
  },
  'the wrong time zone': () => {
    const input = sunnyNoon();
    const location = { ...input.plant.location, timezone: 'America/New_York' };
    return { ...input, plant: { ...input.plant, location } };
  },
};

const DIRECTION_CASES = [
  directionTest({ change: { kind: 'loadSwitchedOn', powerW: 2000 }, meters: [meter({})] }),
  directionTest({
    change: { kind: 'loadSwitchedOn', powerW: 2000 },
    meters: [meter({ signInverted: true, after: steady(120_000, -1600) })],
  }),
  directionTest({
    change: { kind: 'pvSwitchedOff', powerW: 3000 },
    meters: [meter({ flow: 'CONSUMPTION', name: 'House' }), meter({ after: steady(1, 450) })],
  }),
  directionTest({ change: { kind: 'loadSwitchedOn', powerW: 100 }, meters: [meter({})] }),
].flat();

function textsOf(input: WiringInput): StoredText[] {
  return runWiringChecks(input).flatMap((check) => [
    check.finding,
    check.action,
    ...check.figures.map((figure) => figure.name),
  ]);
}

describe('the wiring checks in every language', () => {
  const all = [
    ...Object.values(CASES).flatMap((make) => textsOf(make())),
    ...DIRECTION_CASES.flatMap((result) => [
      result.finding,
      result.action,
      ...result.figures.map((figure) => figure.name),
    ]),
  ];

  test.each(APP_LOCALES)('%s: every finding, action and figure name is words', (locale) => {
    expect(all.length).toBeGreaterThan(100);
    const leftovers = all
      .map(say(locale))
      .filter((words) => /\b(wiring|checks)\.[a-zA-Z]|[{}]/.test(words));
    expect(leftovers).toEqual([]);
  });

  test('German: decimal comma, its words and quotation marks', () => {
    const grid = gridSign(CASES['a reversed grid meter']!(), new Set())[0]!;
    expect(de(grid.finding)).toBe(
      '„Grid meter“ misst 2,7 kW Bezug, während Erzeugung, Verbrauch und Batterie im Mittel 2,7 kW Einspeisung ergeben (entgegengesetztes Vorzeichen in 15 von 15 Minuten): Er ist verkehrt herum montiert.',
    );
    expect(de(grid.action)).toBe(
      'Schalten Sie die Einstellung „Vorzeichen invertiert“ von „Grid meter“ ein (der Server kehrt dann seine Messwerte um) oder drehen Sie seinen Stromwandler um.',
    );
    expect(de(grid.figures[0]!.name)).toBe('Netzzähler, Mittelwert (Bezug +)');
    const storage = storageSign(CASES['a reversed battery meter']!())[0]!;
    expect(de(storage.finding)).toBe(
      '„Battery power“ misst 1,5 kW Entladung, aber der Ladezustand ist um 3,5 Punkte gestiegen: Sein Vorzeichen ist umgekehrt.',
    );
  });

  test('Italian: the time zone named with its date and offsets', () => {
    const input = {
      ...CASES['the wrong time zone']!(),
      plant: {
        ...sunnyNoon().plant,
        location: { ...sunnyNoon().plant.location, timezone: 'Africa/Casablanca' },
      },
      now: Date.parse('2026-01-15T12:00:00Z'),
    };
    expect(it(timeZoneCheck(input).finding)).toMatch(
      /^Le coordinate sono in Europe\/Rome, non in Africa\/Casablanca: dal \d{1,2} feb 2026 differiscono \(UTC\+01:00 contro UTC\+00:00\)\.$/,
    );
  });

  test('the direction test in German and Italian', () => {
    const [right] = DIRECTION_CASES;
    expect(de(right!.finding)).toBe(
      '„Grid meter“ hat sich beim Einschalten der Last um 2 kW geändert, wie erwartet (2 kW): Er ist richtig herum montiert.',
    );
    expect(it(right!.finding)).toBe(
      "«Grid meter» è variato di 2 kW all'accensione del carico, come atteso (2 kW): è montato nel verso giusto.",
    );
  });
});
