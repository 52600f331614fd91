import { describe, expect, test } from 'vitest';
import { InFlightChecks } from '../../server/auth/inFlightChecks.ts';

describe('InFlightChecks', () => {
  test('refuses the check past the limit per account, and frees a place when one ends', () => {
    const checks = new InFlightChecks(2);
    const first = checks.start('a@example.com');
    const second = checks.start('a@example.com');
    expect(first).toBeTypeOf('function');
    expect(second).toBeTypeOf('function');
    expect(checks.start('a@example.com')).toBeUndefined();
    expect(checks.start('b@example.com')).toBeTypeOf('function');
    expect(first!()).toBe(true);
    expect(checks.start('a@example.com')).toBeTypeOf('function');
  });

  test('ending a check twice frees one place only', () => {
    const checks = new InFlightChecks(1);
    const end = checks.start('a@example.com')!;
    expect(end()).toBe(true);
    expect(end()).toBe(false);
    const next = checks.start('a@example.com');
    expect(next).toBeTypeOf('function');
    expect(checks.start('a@example.com')).toBeUndefined();
  });
});
