import { describe, expect, test } from 'vitest';
import { ApiError } from '../../../electron/services/api/apiError.ts';

const request = { method: 'POST', path: '/plants' };
const body = (extra: Record<string, unknown>) =>
  JSON.stringify({
    timestamp: '2026-07-02T10:00:00.000Z',
    status: 400,
    error: 'Bad Request',
    message: "body field 'name' is required",
    path: '/plants',
    ...extra,
  });

describe('ApiError.fromResponse: the body’s field errors (extension)', () => {
  test('are read and cross the bridge', () => {
    const error = ApiError.fromResponse(
      {
        status: 400,
        data: body({ errors: [{ field: 'name', message: "body field 'name' is required" }] }),
      },
      request,
    );
    expect(error.fieldErrors).toEqual([
      { field: 'name', message: "body field 'name' is required" },
    ]);
    expect(error.toSerialized()).toEqual({
      kind: 'api',
      status: 400,
      error: 'Bad Request',
      message: "body field 'name' is required",
      path: '/plants',
      fieldErrors: [{ field: 'name', message: "body field 'name' is required" }],
    });
  });

  test('a server with only the specification’s body gives none', () => {
    const error = ApiError.fromResponse({ status: 400, data: body({}) }, request);
    expect(error.fieldErrors).toBeUndefined();
    expect(error.toSerialized()).not.toHaveProperty('fieldErrors');
  });

  test('malformed entries are dropped, and the list is bounded', () => {
    const entries = [
      { field: 'name', message: 'ok' },
      { field: '', message: 'no field' },
      { field: 3, message: 'not text' },
      'a string',
      null,
      ...Array.from({ length: 100 }, (_, index) => ({ field: `f${index}`, message: 'm' })),
    ];
    const error = ApiError.fromResponse({ status: 400, data: body({ errors: entries }) }, request);
    expect(error.fieldErrors?.[0]).toEqual({ field: 'name', message: 'ok' });
    expect(error.fieldErrors!.every((entry) => entry.field !== '')).toBe(true);
    expect(error.fieldErrors!.length).toBeLessThanOrEqual(50);
    const notAList = ApiError.fromResponse(
      { status: 400, data: body({ errors: { name: 'x' } }) },
      request,
    );
    expect(notAList.fieldErrors).toBeUndefined();
  });
});
