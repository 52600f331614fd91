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
    const path = nulAt.join('.');
    const message = `Invalid ${LOCATION_NAMES[location]}${path ? ` '${path}'` : ''}: text must not contain the NUL character (U+0000)`;
    throw badRequest(message, path ? [{ field: path, message }] : []);
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
  const issues = error.issues.slice(0, 5);
  const details = issues.map((issue) => describeIssue(issue, location));
  const fieldErrors = issues.flatMap((issue, index) =>
    issue.path.length > 0
      ? [{ field: issue.path.map(String).join('.'), message: details[index]! }]
      : [],
  );
  return badRequest(details.join('; '), fieldErrors);
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
