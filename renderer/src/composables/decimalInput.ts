import { formatDecimal, parseDecimal, separatorsOf } from '../../../i18n/format.ts';
import type { AppLocale } from '../../../i18n/locales.ts';
import type { Translate } from '../../../i18n/translator.ts';

export type DecimalInput = { ok: true; value: number | null } | { ok: false; problem: string };

/**
 * A form field's number as the user's language writes it ("46,5" in German), or why it is
 * refused, in their words: what leaves the form is always a number, never the typed text.
 */
export function readDecimal(locale: AppLocale, text: string, t: Translate): DecimalInput {
  const read = parseDecimal(locale, text);
  if (typeof read !== 'string') return { ok: true, value: read };
  const named = { text: text.trim(), separator: separatorsOf(locale).decimal };
  return { ok: false, problem: t(`common.decimal.${read}`, named) };
}

/** A stored number as a field shows it for editing (empty when there is none). */
export function decimalText(locale: AppLocale, value: number | null | undefined): string {
  return value === null || value === undefined ? '' : formatDecimal(locale, value);
}
