import { readdirSync, readFileSync } from 'node:fs';
import { pickLocale, type AppLocale } from '../../../i18n/locales.ts';

/**
 * The app's own words for a journey in any of its languages, read from i18n/messages/<lang>/*.json
 * (a file per area: `signIn.json` holds the `signIn.*` keys), so that a spec finds headings,
 * links and dialogs by the names the user sees without writing them out a second time.
 */

type Tree = { [key: string]: string | Tree };

const DIRECTORY = new URL('../../../i18n/messages/', import.meta.url);
const loaded = new Map<AppLocale, Tree>();

function tree(locale: AppLocale): Tree {
  let messages = loaded.get(locale);
  if (!messages) {
    const directory = new URL(`${locale}/`, DIRECTORY);
    messages = {};
    for (const file of readdirSync(directory).filter((name) => name.endsWith('.json'))) {
      messages[file.slice(0, -'.json'.length)] = JSON.parse(
        readFileSync(new URL(file, directory), 'utf8'),
      ) as Tree;
    }
    loaded.set(locale, messages);
  }
  return messages;
}

/** A message with its `{name}` placeholders filled and vue-i18n's `{'…'}` literals unquoted. */
export type Translate = (key: string, params?: Record<string, string | number>) => string;

/** The messages of `locale`: an app language ("de") or a browser's tag ("de-DE", none: English). */
export function messagesOf(locale: string | undefined): Translate {
  const messages = tree(pickLocale(locale ? [locale] : []));
  return (key, params = {}) => {
    let node: string | Tree | undefined = messages;
    for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
    if (typeof node !== 'string') throw new Error(`No message ${key} in ${locale ?? 'en'}`);
    // A plural message needs the app's choice rules; no journey looks one up yet.
    if (node.includes(' | ')) throw new Error(`Message ${key} is plural`);
    return node.replace(
      /\{'([^']*)'\}|\{(\w+)\}/g,
      (placeholder, literal?: string, name?: string) => {
        if (literal !== undefined) return literal;
        const value = params[name!];
        if (value === undefined) throw new Error(`Message ${key} needs {${name}}`);
        return String(value);
      },
    );
  };
}

/** Matches text that starts with `prefix` (a message), for names a count or status follows. */
export function startingWith(...prefixes: string[]): RegExp {
  const escaped = prefixes.map((prefix) => prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^(?:${escaped.join('|')})`);
}
