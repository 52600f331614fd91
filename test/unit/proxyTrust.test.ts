import { describe, expect, it } from 'vitest';
import { parseTrustProxy } from '../../server/proxyTrust.ts';

describe('--trust-proxy', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['false', false],
    ['true', true],
    ['2', 2],
    ['10.0.0.1', '10.0.0.1'],
    ['10.0.0.1, 10.1.0.0/16,::1', '10.0.0.1, 10.1.0.0/16,::1'],
  ])('reads %j as %j', (text, value) => {
    expect(parseTrustProxy(text)).toEqual(value);
  });

  it('refuses anything else, naming what it takes', () => {
    expect(() => parseTrustProxy('yes please')).toThrow(
      "--trust-proxy must be true, a number of hops or addresses, not 'yes please'",
    );
  });
});
