/**
 * The languages PlantDesk speaks. English is the source: every message is written there first,
 * and German and Italian carry the same keys (test/unit/i18n/messages.test.ts keeps them so).
 */
export const APP_LOCALES = ['en', 'de', 'it'] as const;
export type AppLocale = (typeof APP_LOCALES)[number];
export const SOURCE_LOCALE: AppLocale = 'en';

/** Each language named in itself, as a language menu lists them. */
export const LOCALE_NAMES: Readonly<Record<AppLocale, string>> = {
  en: 'English',
  de: 'Deutsch',
  it: 'Italiano',
};

export function isAppLocale(value: unknown): value is AppLocale {
  return typeof value === 'string' && (APP_LOCALES as readonly string[]).includes(value);
}

/**
 * The first of the system's preferred languages PlantDesk speaks, by primary subtag ("de-AT"
 * is German, "it-CH" Italian); English when none is. The order is the user's, so "fr, it"
 * gives Italian.
 */
/**
 * An Accept-Language header's languages, most preferred first (by `q`, then by order); `*` and
 * languages refused with q=0 left out. At most 20 are read: a browser sends a handful.
 */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .slice(0, 20)
    .map((part, index) => {
      const [tag = '', ...parameters] = part.trim().split(';');
      const q = parameters.map((p) => /^\s*q=([0-9.]+)\s*$/i.exec(p)?.[1]).find(Boolean);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter(({ tag, q }) => /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(tag) && q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map(({ tag }) => tag);
}

export function pickLocale(preferred: readonly string[]): AppLocale {
  for (const tag of preferred) {
    const primary = tag.trim().toLowerCase().split(/[-_]/)[0];
    if (isAppLocale(primary)) return primary;
  }
  return SOURCE_LOCALE;
}
