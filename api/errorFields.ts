/**
 * Which field of a form (or of a draft) a server's error message is about. The API's error body
 * has no field of its own (Spring's `message` only), so the message is read: the renderer's
 * forms and the host's draft sender both place a refusal with these.
 */

/**
 * The form field a path names: itself, a field it ends with (`location.latitude` → `latitude`),
 * or a field it lies under (`externalIds.0` → `externalIds`). Case-insensitive.
 */
export function fieldForPath<F extends string>(path: string, fields: readonly F[]): F | undefined {
  const wanted = path.toLowerCase();
  const lower = fields.map((field) => field.toLowerCase());
  const exact = lower.indexOf(wanted);
  if (exact >= 0) return fields[exact];
  const suffix = lower.findIndex((field) => wanted.endsWith(`.${field}`));
  if (suffix >= 0) return fields[suffix];
  let best: F | undefined;
  lower.forEach((field, index) => {
    if (wanted.startsWith(`${field}.`) && (!best || field.length > best.length)) {
      best = fields[index];
    }
  });
  return best;
}

/** "externalIds" → ["external ids", "external id"]; one-word names give nothing more. */
function phrasesOf(field: string): string[] {
  const last = field.split('.').at(-1) ?? field;
  const words = last
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[\s_]+/)
    .filter(Boolean);
  if (words.length < 2) return [];
  const phrase = words.join(' ');
  return phrase.endsWith('s') ? [phrase, phrase.slice(0, -1)] : [phrase];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The field a server message is about, when it names one: a quoted path (`Invalid body field
 * 'location.latitude': …`) wins; otherwise the earliest field named in the message, as an
 * identifier (`sensorTypeUuid … does not name a sensor type`, `… code 'x' is already used`) or
 * in words (`External id 'X' is already used` → `externalIds`).
 */
export function fieldForMessage<F extends string>(
  message: string,
  fields: readonly F[],
): F | undefined {
  for (const quoted of message.matchAll(/'([^']+)'/g)) {
    const field = fieldForPath(quoted[1] ?? '', fields);
    if (field) return field;
  }
  // "does not name a sensor type": the verb, not a field called name.
  const text = message.replace(/\bnot name\b/gi, (match) => ' '.repeat(match.length));
  let best: { field: F; at: number } | undefined;
  const consider = (field: F | undefined, at: number) => {
    if (field !== undefined && (!best || at < best.at)) best = { field, at };
  };
  for (const token of text.matchAll(/[A-Za-z_][\w.]*\w|[A-Za-z_]/g)) {
    consider(fieldForPath(token[0], fields), token.index);
  }
  for (const field of fields) {
    for (const phrase of phrasesOf(field)) {
      const found = new RegExp(`\\b${escapeRegExp(phrase)}\\b`, 'i').exec(text);
      if (found) consider(field, found.index);
    }
  }
  return best?.field;
}
