import { createTranslator } from '../../../i18n/translator.ts';
import { wordsOf, type StoredText } from '../../../i18n/text.ts';

/** A check's finding, action or figure name as an English reader reads it. */
export const en = (text: StoredText): string =>
  wordsOf(text, { t: createTranslator('en'), locale: 'en', now: 0 });
