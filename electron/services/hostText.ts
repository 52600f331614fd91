import { createTranslator, type Translate } from '../../i18n/translator.ts';

/** The words of texts the host keeps: i18n/text.ts, shared with the checks and the renderer. */
export {
  clockWords,
  wordsOf,
  type HostText,
  type StoredText,
  type TextParam,
  type Wording,
} from '../../i18n/text.ts';

/** The words of a service made without a language (tests, tools): the app gives the user's. */
export const ENGLISH: Translate = createTranslator('en');

/**
 * A translator that asks for the user's language each time it says something, so that a
 * message is in the language of the moment it is made; English when there is none.
 */
export function sayIn(language: (() => Translate) | undefined): Translate {
  const current = () => language?.() ?? ENGLISH;
  const say = (key: string, named?: Readonly<Record<string, unknown>>, plural?: number) =>
    current()(key, named, plural);
  return Object.defineProperty(say, 'locale', { get: () => current().locale }) as Translate;
}
