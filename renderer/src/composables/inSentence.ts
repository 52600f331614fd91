/**
 * A title ("Devices", "Metadata") inside a sentence of the chosen language: English and Italian
 * write it in lower case there, German keeps its nouns' capitals.
 */
export function inSentence(locale: string, title: string): string {
  return locale === 'de' ? title : title.toLowerCase();
}
