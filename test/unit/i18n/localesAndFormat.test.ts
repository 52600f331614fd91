import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatDateTime,
  formatDuration,
  formatEnergy,
  formatNumber,
  formatPercent,
  formatPower,
} from '../../../i18n/format.ts';
import { acceptedLanguages, APP_LOCALES, isAppLocale, pickLocale } from '../../../i18n/locales.ts';
import { createTranslator } from '../../../i18n/translator.ts';

describe('acceptedLanguages', () => {
  it('orders an Accept-Language header by preference, leaving out * and q=0', () => {
    expect(acceptedLanguages('de-DE,de;q=0.9,en;q=0.8')).toEqual(['de-DE', 'de', 'en']);
    expect(acceptedLanguages('en;q=0.5, it-CH, fr;q=0.7, *;q=0.1, de;q=0')).toEqual([
      'it-CH',
      'fr',
      'en',
    ]);
    expect(pickLocale(acceptedLanguages('fr-FR,it;q=0.9'))).toBe('it');
    for (const empty of [undefined, '', '*', ';q=1', 'de;q=0']) {
      expect(acceptedLanguages(empty)).toEqual([]);
    }
  });

  it('reads any header without throwing, at most 20 languages', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 2000 }), (header) => {
        const languages = acceptedLanguages(header);
        expect(languages.length).toBeLessThanOrEqual(20);
        for (const tag of languages) expect(tag).toMatch(/^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/);
      }),
    );
  });
});

describe('pickLocale', () => {
  it('takes the first preferred language PlantDesk speaks, by primary subtag', () => {
    expect(pickLocale(['de-AT', 'en-US'])).toBe('de');
    expect(pickLocale(['fr-FR', 'it-CH', 'de'])).toBe('it');
    expect(pickLocale(['it_IT'])).toBe('it');
    expect(pickLocale(['EN-gb'])).toBe('en');
  });

  it('falls back to English for languages it does not speak, or none', () => {
    expect(pickLocale(['fr', 'ja'])).toBe('en');
    expect(pickLocale([])).toBe('en');
    expect(pickLocale([''])).toBe('en');
  });

  it('always answers a language it speaks, whatever the tags', () => {
    fc.assert(fc.property(fc.array(fc.string()), (tags) => isAppLocale(pickLocale(tags))));
  });
});

describe('formatting by language', () => {
  it('writes decimals with a point in English and a comma in German and Italian', () => {
    expect(formatNumber('en', 1234.56)).toBe('1,234.56');
    expect(formatNumber('de', 1234.56)).toBe('1.234,56');
    expect(formatNumber('it', 1234.56)).toBe('1234,56');
    expect(formatNumber('de', 3.14159, 1, 1)).toBe('3,1');
  });

  it('scales power and energy to W/kW/MW with at most three significant figures', () => {
    expect(formatPower('en', 850)).toBe('850 W');
    expect(formatPower('en', 3420)).toBe('3.4 kW');
    expect(formatPower('de', 3420)).toBe('3,4 kW');
    expect(formatPower('it', -1_234_000)).toBe('-1,2 MW');
    expect(formatPower('en', 0.5)).toBe('0.5 W');
    expect(formatEnergy('de', 136_500)).toBe('137 kWh');
    expect(formatEnergy('en', 950)).toBe('950 Wh');
  });

  it('writes percentages as the language does', () => {
    expect(formatPercent('en', 0.456)).toBe('46%');
    // German puts a no-break space before the sign.
    expect(formatPercent('de', 0.456)).toBe('46\u00a0%');
    expect(formatPercent('it', 0.4567, 1)).toBe('45,7%');
  });

  it('writes file sizes in decimal units, as the language does', () => {
    expect(formatBytes('en', 850)).toBe('850 bytes');
    expect(formatBytes('de', 1)).toBe('1\u00a0Byte');
    expect(formatBytes('de', 12_340)).toBe('12,3 kB');
    expect(formatBytes('it', 1_250_000)).toBe('1,3 MB');
  });

  it('writes durations in their two largest units, in the language’s abbreviations', () => {
    expect(formatDuration('en', 45_000)).toBe('45 sec');
    expect(formatDuration('en', 90 * 60_000)).toBe('1 hr, 30 min');
    expect(formatDuration('de', 90 * 60_000)).toBe('1 Std., 30 Min.');
    expect(formatDuration('it', 52 * 3_600_000)).toBe('2 giorni e 4 h');
    expect(formatDuration('en', -5)).toBe('0 sec');
    expect(formatDuration('en', 250)).toBe('250 ms');
    expect(formatDuration('de', 1500)).toBe('1,5 Sek.');
    expect(formatDuration('it', 2000)).toBe('2 s');
    expect(formatDuration('en', 9_960)).toBe('10 sec');
  });

  it('writes an instant in the plant’s zone, across the DST change', () => {
    // 2026-10-25 01:30 UTC is 02:30 CET (after the clocks went back) in Rome.
    const afterChange = Date.parse('2026-10-25T01:30:00Z');
    const style = { dateStyle: 'short', timeStyle: 'short' } as const;
    expect(formatDateTime('de', afterChange, style, 'Europe/Rome')).toBe('25.10.26, 02:30');
    expect(formatDateTime('it', afterChange, style, 'Europe/Rome')).toBe('25/10/26, 02:30');
    expect(formatDateTime('en', afterChange, style, 'Europe/Rome')).toBe('10/25/26, 2:30 AM');
    // Noon in summer: 10:00 UTC is 12:00 CEST.
    expect(formatDateTime('de', Date.parse('2026-06-21T10:00:00Z'), style, 'Europe/Rome')).toBe(
      '21.06.26, 12:00',
    );
  });
});

describe('the main process’s translator', () => {
  it('translates with placeholders in every language, and falls back to the key when missing', () => {
    for (const locale of APP_LOCALES) {
      expect(createTranslator(locale)('menu.about', { app: 'PlantDesk' })).toMatch(/PlantDesk/);
    }
    expect(createTranslator('de')('menu.about', { app: 'PlantDesk' })).toBe('Über PlantDesk');
    expect(createTranslator('it')('no.such.key')).toBe('no.such.key');
  });
});
