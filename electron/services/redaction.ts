/**
 * The one set of rules that masks secrets in what PlantDesk writes for people to read: the file
 * log (fileLog.ts, `main.log`) and the support bundle (supportBundle/), which redacts every file
 * again, logs included. A rule added here protects both: a log a user attaches to a ticket must
 * carry no more than a bundle does.
 *
 * Masked: JWTs, `Bearer`/`Basic` credentials, passwords in addresses (`user:pass@host`), secret
 * assignments (`password=…`, `token: …`, `"apiKey":"…"`), e-mail addresses, and whatever lies
 * under a key that names a secret. It is the second line of defence: callers must not log
 * secrets in the first place. Redacting twice changes nothing.
 *
 * Every pattern runs in linear time: a name is matched only from the start of a word and up to
 * 64 characters (without both, `'tokenx-'` × 2,300 took 64 s, every start and split tried).
 */

export const REDACTED = '[redacted]';
export const REDACTED_EMAIL = '[redacted-email]';

export interface RedactionLimits {
  /** Each string is cut to this many characters first, saying how many were left out. */
  maxStringLength?: number;
  /** Values nested deeper become `[too deep]`. */
  maxDepth?: number;
}

/**
 * Words a key or an assigned name holds when its value is a secret, compared without `- _ .`
 * and spaces. `key` alone is enough (`apiKey`, `X-Api-Key`, `privateKey`, `keychain`): a
 * harmless field masked costs less than a key that slipped through.
 */
const SECRET_WORDS = [
  'secret',
  'password',
  'passwd',
  'passphrase',
  'token',
  'key',
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

/** A JWT: base64url header (JSON, so it starts with "ey"), payload and signature. */
const JWT = /(?<![A-Za-z0-9_-])ey[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]*/g;
/** An HTTP credential after its scheme (RFC 6750 token68 characters, so punctuation survives). */
const HTTP_CREDENTIAL = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/-]+=*/gi;
/**
 * `password=…`, `token: …`, `"apiKey":"…"`: a name, `=` or `:` (quotes around them allowed), and
 * a value up to a quote, space or separator. The replacer keeps the match unless the name names
 * a secret. A value starting with `[` or `{` is left alone: a list or object (whose secrets a
 * value's redaction masks item by item), or our own mark.
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
export function redactText(text: string, limits: RedactionLimits = {}): string {
  return cut(text, limits.maxStringLength)
    .replace(JWT, REDACTED)
    .replace(URL_PASSWORD, `$1${REDACTED}@`)
    .replace(HTTP_CREDENTIAL, (_match, scheme: string) => `${scheme} ${REDACTED}`)
    .replace(ASSIGNMENT, (match, name: string, separator: string, value: string) =>
      // `Authorization: Bearer …`: the scheme stays, its credential was masked above.
      isSecretName(name) && !/^(bearer|basic)$/i.test(value)
        ? `${name}${separator}${REDACTED}`
        : match,
    )
    .replace(EMAIL, REDACTED_EMAIL);
}

/** Each line of a text file (a log) redacted; the lines stay where they were. */
export function redactLines(text: string): string {
  return text
    .split('\n')
    .map((line) => redactText(line))
    .join('\n');
}

function cut(text: string, maxLength = Infinity): string {
  if (text.length <= maxLength) return text;
  return `${text.slice(0, maxLength)}…[${text.length - maxLength} more characters]`;
}

/**
 * A JSON-safe copy of a value with secrets masked: every string redacted as text, and whatever
 * lies under a key that names a secret replaced, except booleans and nulls, which say only
 * whether a secret is set (`secretSettingsSet: { apiKey: true }`). Keys are redacted too (an
 * e-mail can be a key). Errors keep their message, stack, cause and own properties; dates become
 * ISO text; class instances (a socket inside a fetch error) are named, not walked: they are
 * large, cyclic, and not what a reader needs.
 */
export function redactValue(value: unknown, limits: RedactionLimits = {}): unknown {
  return redactNested(value, false, 0, new WeakSet<object>(), limits);
}

function redactNested(
  value: unknown,
  underSecret: boolean,
  depth: number,
  seen: WeakSet<object>,
  limits: RedactionLimits,
): unknown {
  if (typeof value === 'boolean' || value === null || value === undefined) return value ?? null;
  if (typeof value === 'string') return underSecret ? REDACTED : redactText(value, limits);
  if (typeof value === 'number') return underSecret ? REDACTED : value;
  if (typeof value !== 'object') {
    // bigint, symbol, function: as text, so JSON can carry them.
    return redactNested(String(value), underSecret, depth, seen, limits);
  }
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return null;
    return redactNested(value.toISOString(), underSecret, depth, seen, limits);
  }
  if (seen.has(value)) return '[circular]';
  if (depth >= (limits.maxDepth ?? Infinity)) return '[too deep]';
  seen.add(value);
  try {
    const nested = (item: unknown, secret: boolean) =>
      redactNested(item, secret, depth + 1, seen, limits);
    if (Array.isArray(value)) return value.map((item) => nested(item, underSecret));
    let source: object;
    if (value instanceof Error) source = errorFields(value);
    else if (isPlainObject(value)) source = value;
    else return `[${value.constructor?.name ?? 'object'}]`;
    const entries: [string, unknown][] = [];
    const names = new Set<string>();
    for (const [key, item] of Object.entries(source)) {
      if (item === undefined) continue;
      const redactedKey = redactText(key, limits);
      let name = redactedKey;
      // Two e-mails as keys become one mark: keep both entries, numbered.
      for (let index = 2; names.has(name); index++) name = `${redactedKey} (${index})`;
      names.add(name);
      entries.push([name, nested(item, underSecret || isSecretName(key))]);
    }
    // fromEntries defines own properties, so a key named "__proto__" stays a key.
    return Object.fromEntries(entries);
  } finally {
    // Only the path from the root counts: the same object twice side by side is no cycle.
    seen.delete(value);
  }
}

function isPlainObject(value: object): boolean {
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** Errors keep their own properties (status, code…) plus what JSON.stringify would drop. */
function errorFields(error: Error): Record<string, unknown> {
  const fields: Record<string, unknown> = { name: error.name, message: error.message };
  for (const [key, item] of Object.entries(error)) fields[key] = item;
  if (error.stack) fields.stack = error.stack;
  if (error.cause !== undefined) fields.cause = error.cause;
  return fields;
}
