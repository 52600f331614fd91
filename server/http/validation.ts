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
  if (result.success) return result.data;
  throw validationError(result.error, location, value);
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
