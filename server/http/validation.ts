import type { z } from 'zod';
import { badRequest, type ApiError } from './errors.ts';

export type InputLocation = 'path' | 'query' | 'body';

/** Parses one part of a request; a failure is a 400 naming the offending field. */
export function parseInput<T extends z.ZodType>(
  schema: T,
  value: unknown,
  location: InputLocation,
): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error, location, value);
  const nulAt = pathOfNul(result.data);
  if (nulAt !== undefined) {
    const field = nulAt.length > 0 ? ` '${nulAt.join('.')}'` : '';
    throw badRequest(
      `Invalid ${LOCATION_NAMES[location]}${field}: text must not contain the NUL character (U+0000)`,
    );
  }
  return result.data;
}

/**
 * Where a text (or a key) holds U+0000, if anywhere. PostgreSQL cannot store or even compare
 * it, so it is refused on both engines alike, before any query.
 */
function pathOfNul(value: unknown): (string | number)[] | undefined {
  if (typeof value === 'string') return value.includes('\0') ? [] : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  // The path is made on the way out of a find only: most inputs hold no NUL at all.
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      if (typeof item !== 'object' && typeof item !== 'string') continue;
      const found = pathOfNul(item);
      if (found) return [index, ...found];
    }
    return undefined;
  }
  // Parsed JSON and query strings are plain objects; a Date or other instance holds no input text.
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return undefined;
  for (const key of Object.keys(value)) {
    if (key.includes('\0')) return [key];
    const found = pathOfNul((value as Record<string, unknown>)[key]);
    if (found) return [key, ...found];
  }
  return undefined;
}

function validationError(error: z.ZodError, location: InputLocation, value: unknown): ApiError {
  if (location === 'body' && value === undefined) return badRequest('Request body is required');
  const details = error.issues.slice(0, 5).map((issue) => describeIssue(issue, location));
  return badRequest(details.join('; '));
}

const LOCATION_NAMES: Record<InputLocation, string> = {
  path: 'path parameter',
  query: 'query parameter',
  body: 'body field',
};

function describeIssue(issue: z.core.$ZodIssue, location: InputLocation): string {
  const field = issue.path.map(String).join('.');
  if (!field) return location === 'body' ? `Invalid request body: ${issue.message}` : issue.message;
  if (issue.code === 'invalid_type' && issue.message.includes('received undefined')) {
    return `${LOCATION_NAMES[location]} '${field}' is required`;
  }
  if (issue.code === 'unrecognized_keys') return issue.message;
  return `Invalid ${LOCATION_NAMES[location]} '${field}': ${issue.message}`;
}
