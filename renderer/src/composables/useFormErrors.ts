import { reactive, ref, type Ref } from 'vue';
import { PlantDeskError } from '../bridge.ts';

/** What a failed call says to the user: the server's or host's message, else `fallback`. */
export function errorMessage(
  caught: unknown,
  fallback = 'Something went wrong; try again.',
): string {
  if (caught instanceof PlantDeskError && caught.message) return caught.message;
  return fallback;
}

/** The structural part of a ZodError this module reads (zod 4's `ZodError` fits). */
export interface ZodLikeError {
  issues: readonly { path: readonly PropertyKey[]; message: string }[];
}

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

/** Failures whose message may name a field: validation (400), conflicts (409), 422, host refusals. */
function isFieldRefusal(caught: PlantDeskError): boolean {
  if (caught.kind === 'invalidArguments') return true;
  return caught.kind === 'api' && [400, 409, 422].includes(caught.status ?? 0);
}

/**
 * A form's error messages: one per field (`errors.name`) and one for the form (`formError`).
 * `fromZod` shows the contract schema's verdict before sending; `fromServer` shows the server's
 * answer, on the field its message names when it names one (a 400's several "; "-separated
 * details each on their field), else above the form. Both replace what was shown.
 */
export function useFormErrors<F extends string>(fields: readonly F[]) {
  // Cast once: Vue's Reactive<> of a generic record cannot be indexed by F.
  const errors = reactive({}) as Record<F, string | undefined>;
  const formError: Ref<string | null> = ref(null);

  function clear(): void {
    for (const field of fields) errors[field] = undefined;
    formError.value = null;
  }

  function put(field: F | undefined, message: string): void {
    if (field === undefined) {
      formError.value = formError.value ? `${formError.value}; ${message}` : message;
    } else if (!errors[field]) {
      errors[field] = message;
    }
  }

  function fromZod(error: ZodLikeError): void {
    clear();
    for (const issue of error.issues) {
      const path = issue.path.map(String).join('.');
      put(path ? fieldForPath(path, fields) : undefined, issue.message);
    }
  }

  function fromServer(caught: unknown): void {
    clear();
    if (!(caught instanceof PlantDeskError)) {
      formError.value = errorMessage(caught);
      return;
    }
    if (!isFieldRefusal(caught)) {
      formError.value = errorMessage(caught);
      return;
    }
    const parts =
      caught.kind === 'api' && caught.status === 400
        ? caught.message.split('; ').filter(Boolean)
        : [caught.message];
    for (const part of parts) put(fieldForMessage(part, fields), part);
  }

  /** True when nothing is shown. */
  function isClear(): boolean {
    return formError.value === null && fields.every((field) => !errors[field]);
  }

  return { errors, formError, clear, fromZod, fromServer, isClear };
}
