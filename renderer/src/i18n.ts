import { computed, type ComputedRef } from 'vue';
import { createI18n, useI18n } from 'vue-i18n';
import { type AppLocale, SOURCE_LOCALE } from '../../i18n/locales.ts';
import { MESSAGES, type MessageSchema } from '../../i18n/messages/index.ts';
import { formattersFor, type Formatters } from '../../i18n/format.ts';
import type { Translate } from '../../i18n/translator.ts';
import { wordsOf, type StoredText } from '../../i18n/text.ts';
import { appNow } from './clock.ts';

/**
 * The renderer's vue-i18n: one instance for the app, Composition API only. Components take `t`
 * from `useI18n()`; code outside components (stores, composables run outside setup) uses
 * `i18n.global`. The language is set by the locale store (stores/useLanguageStore.ts) and applies
 * at once: every `t` and every formatter below reads it reactively.
 */
export const i18n = createI18n<[MessageSchema], AppLocale, false>({
  legacy: false,
  locale: SOURCE_LOCALE,
  fallbackLocale: SOURCE_LOCALE,
  messages: MESSAGES as unknown as Record<AppLocale, MessageSchema>,
  // A missing key shows as the key itself and is caught by the message tests, not the console.
  missingWarn: false,
  fallbackWarn: false,
});

export function currentLocale(): AppLocale {
  return i18n.global.locale.value;
}

/**
 * The shared formatters (i18n/format.ts) bound to the chosen language, for templates and
 * composables: `const f = useFormat(); f.value.power(850)`.
 */
export function useFormat(): ComputedRef<Formatters> {
  const { locale } = useI18n();
  return computed(() => formattersFor(locale.value as AppLocale));
}

/** The formatters of the chosen language, for code outside components (reactive in computed). */
export function currentFormatters(): Formatters {
  return formattersFor(currentLocale());
}

/**
 * vue-i18n's global `t` as the plain function pure modules take (i18n/translator.ts's
 * `Translate`, which the main process's translator also is): called inside a computed or a
 * render, its result follows the language.
 */
export const translate: Translate = (key, named = {}, plural) =>
  plural === undefined
    ? i18n.global.t(key as never, { ...named })
    : i18n.global.t(key as never, { ...named }, plural);

/**
 * A text handed on as a message key and raw figures (a wiring check's finding, i18n/text.ts) in
 * the chosen language; called at render, so that it follows a change of language.
 */
export function words(text: StoredText): string {
  return wordsOf(text, { t: translate, locale: currentLocale(), now: appNow() });
}
