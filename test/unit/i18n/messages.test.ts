import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { compile } from '@intlify/core-base';
import { describe, expect, it } from 'vitest';
import { APP_LOCALES, SOURCE_LOCALE } from '../../../i18n/locales.ts';
import { MESSAGES } from '../../../i18n/messages/index.ts';

/**
 * The message files stay whole: every language has exactly English's keys, with the same
 * placeholders and the same number of plural forms; every message compiles; and every key is
 * used somewhere in the code (a key named in full in quotes, or under a prefix the code completes
 * at run time: `t(\`alerts.rules.${rule}\`)` uses every key under `alerts.rules`).
 */

const ROOT = join(import.meta.dirname, '../../..');
const SOURCE_FOLDERS = ['renderer/src', 'electron', 'i18n', 'server'];

type Tree = { readonly [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const flat = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') flat.set(path, value);
    else for (const [inner, text] of flatten(value, path)) flat.set(inner, text);
  }
  return flat;
}

const byLocale = new Map(APP_LOCALES.map((locale) => [locale, flatten(MESSAGES[locale] as Tree)]));
const source = byLocale.get(SOURCE_LOCALE)!;

/** `{name}` placeholders of a message, over all its plural forms. */
function placeholders(message: string): string[] {
  return [
    ...new Set([...message.matchAll(/\{\s*([A-Za-z_][\w]*)\s*\}/g)].map((m) => m[1]!)),
  ].sort();
}

/** Plural forms are separated by a `|` outside braces. */
function pluralForms(message: string): number {
  return message.replace(/\{[^}]*\}/g, '').split('|').length;
}

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|vue)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('message files', () => {
  it('has English messages', () => {
    expect(source.size).toBeGreaterThan(0);
  });

  for (const locale of APP_LOCALES.filter((l) => l !== SOURCE_LOCALE)) {
    it(`${locale} has exactly the English keys`, () => {
      const keys = [...byLocale.get(locale)!.keys()];
      expect(
        keys.filter((key) => !source.has(key)),
        'keys English does not have',
      ).toEqual([]);
      expect(
        [...source.keys()].filter((key) => !keys.includes(key)),
        'missing keys',
      ).toEqual([]);
    });

    it(`${locale} keeps each message's placeholders and plural forms`, () => {
      const messages = byLocale.get(locale)!;
      const differing = [...source].flatMap(([key, english]) => {
        const translated = messages.get(key);
        if (translated === undefined) return [];
        const problems: string[] = [];
        if (placeholders(translated).join() !== placeholders(english).join())
          problems.push(
            `${key}: placeholders ${placeholders(translated)} vs ${placeholders(english)}`,
          );
        if (pluralForms(translated) !== pluralForms(english))
          problems.push(
            `${key}: ${pluralForms(translated)} plural forms vs ${pluralForms(english)}`,
          );
        if (translated.trim() === '') problems.push(`${key}: empty`);
        return problems;
      });
      expect(differing).toEqual([]);
    });
  }

  it('every message of every language compiles (no stray @, {, } or |)', () => {
    const failures: string[] = [];
    for (const [locale, messages] of byLocale) {
      for (const [key, message] of messages) {
        compile(message, {
          key: `${locale}.${key}`,
          locale,
          onError: (error) => failures.push(`${locale} ${key}: ${error.message}`),
        });
      }
    }
    expect(failures).toEqual([]);
  });

  const code = SOURCE_FOLDERS.flatMap(sourceFiles)
    .filter((file) => !relative(ROOT, file).startsWith('i18n/messages'))
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');

  it('every key the code names exists in English', () => {
    const areas = new Set([...source.keys()].map((key) => key.split('.')[0]));
    const named = [
      ...code.matchAll(/\b(?:t|translate|\$t)\(\s*['"`]([A-Za-z][\w-]*(?:\.[\w-]+)+)['"`]/g),
    ]
      .map((match) => match[1]!)
      .filter((key) => areas.has(key.split('.')[0]!));
    expect([...new Set(named)].filter((key) => !source.has(key))).toEqual([]);
  });

  it('every key is used by the code', () => {
    // Every quoted word, and every template that starts with a key's prefix (`area.${…}`), read
    // once: a search of the whole code per key took 15–30 s on a loaded machine.
    const quoted = new Set([...code.matchAll(/(["'`])([^"'`\s]+)\1/g)].map((match) => match[2]!));
    const prefixes = new Set([...code.matchAll(/`([^"'`\s$]+)\.\$\{/g)].map((match) => match[1]!));
    const used = (key: string) => {
      if (quoted.has(key)) return true;
      const parts = key.split('.');
      for (let length = parts.length - 1; length > 0; length--) {
        if (prefixes.has(parts.slice(0, length).join('.'))) return true;
      }
      return false;
    };
    expect([...source.keys()].filter((key) => !used(key))).toEqual([]);
  });
});
