/**
 * What a support bundle must never carry: secrets, tokens, passwords, API keys and e-mail
 * addresses. Every file of a bundle goes through here before it is zipped, logs included, so a
 * bundle can be sent to anyone. JSON is redacted as values (it stays valid JSON), text line by
 * line. Both are idempotent: a redacted bundle redacted again is the same bundle.
 *
 * The patterns run in linear time (a name is matched only from the start of a word and up to 64
 * characters, as in fileLog.ts): a bundle's log lines are as long as whoever wrote them chose.
 */

import { JWT, REDACTED } from '../fileLog.ts';

export { REDACTED };
export const REDACTED_EMAIL = '[redacted-email]';

/** Words a key or an assigned name holds when its value is a secret (compared without - _ .). */
const SECRET_WORDS = [
  'secret',
  'password',
  'passwd',
  'passphrase',
  'token',
  'apikey',
  'accesskey',
  'privatekey',
  'authorization',
  'cookie',
  'credential',
  'sessionid',
];

/** `apiKey`, `api_key`, `X-Api-Key`, `refreshToken`, `clientSecret`, `Authorization`… */
export function isSecretName(name: string): boolean {
  const plain = name.toLowerCase().replace(/[-_. ]/g, '');
  return SECRET_WORDS.some((word) => plain.includes(word));
}

/** An HTTP credential after its scheme (RFC 6750 token68 characters). */
const HTTP_CREDENTIAL = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/-]+=*/gi;
/**
 * `password=…`, `token: …`, `"apiKey":"…"`: a name, `=` or `:` (quotes around them allowed), and
 * a value up to a quote, space or separator. The replacer keeps the match unless the name names
 * a secret. A value starting with `[` or `{` is left alone (a list or object, or our own mark).
 */
const ASSIGNMENT =
  /(?<![A-Za-z0-9_-])([A-Za-z0-9_-]{1,64})("?\s{0,8}[:=]\s{0,8}"?)([^\s"',;&}[{][^\s"',;&}]*)/g;
/** The password of an address's user information: `modbus://admin:s3cret@inverter:502`. */
const URL_PASSWORD = /(\b[A-Za-z][A-Za-z0-9+.-]{0,31}:\/\/[^\s/:@]{0,256}:)[^\s/@]{1,256}@/g;
/**
 * An e-mail address, its local part as RFC 5322 allows without quotes (at most 64 characters),
 * its domain as labels separated by dots. Labels hold no dot, so the domain is read in one pass.
 */
const EMAIL =
  /[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9-]{1,63})+/g;

/** A text with every token, credential, secret assignment and e-mail address masked. */
export function redactText(text: string): string {
  return text
    .replace(JWT, REDACTED)
    .replace(URL_PASSWORD, `$1${REDACTED}@`)
    .replace(HTTP_CREDENTIAL, (_match, scheme: string) => `${scheme} ${REDACTED}`)
    .replace(ASSIGNMENT, (match, name: string, separator: string, value: string) =>
      // `Authorization: Bearer …`: the scheme stays, its credential was masked above.
      isSecretName(name) && value !== REDACTED && !/^(bearer|basic)$/i.test(value)
        ? `${name}${separator}${REDACTED}`
        : match,
    )
    .replace(EMAIL, REDACTED_EMAIL);
}

/** Each line of a text file (a log) redacted; the lines stay where they were. */
export function redactLines(text: string): string {
  return text.split('\n').map(redactText).join('\n');
}

/**
 * A JSON-safe copy of a value with secrets masked: every string redacted as text, and whatever
 * lies under a key that names a secret replaced whole, except booleans and nulls, which say only
 * whether a secret is set (`secretSettingsSet: { apiKey: true }`). Keys are redacted too (an
 * e-mail can be a key).
 */
export function redactJson(value: unknown, underSecret = false): unknown {
  if (typeof value === 'string') return underSecret ? REDACTED : redactText(value);
  if (typeof value === 'number') return underSecret ? REDACTED : value;
  if (typeof value === 'boolean' || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => redactJson(item, underSecret));
  if (typeof value === 'object') {
    const entries: [string, unknown][] = [];
    const keys = new Set<string>();
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined) continue;
      let name = redactText(key);
      // Two e-mails as keys become one mark: keep both entries, numbered.
      for (let index = 2; keys.has(name); index++) name = `${redactText(key)} (${index})`;
      keys.add(name);
      entries.push([name, redactJson(item, underSecret || isSecretName(key))]);
    }
    // fromEntries defines own properties, so a key named "__proto__" stays a key.
    return Object.fromEntries(entries);
  }
  // undefined, functions, symbols, bigints: not JSON, and not something a bundle needs.
  return null;
}
