import fc from 'fast-check';
import { describe, expect, it, test } from 'vitest';
import {
  isSecretName,
  REDACTED,
  REDACTED_EMAIL,
  redactJson,
  redactLines,
  redactText,
} from '../../../electron/services/supportBundle/redaction.ts';

const JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';

describe('support bundle redaction', () => {
  it('names secrets by their key, in any spelling', () => {
    for (const name of [
      'apiKey',
      'api_key',
      'X-Api-Key',
      'refreshToken',
      'clientSecret',
      'Authorization',
      'installerPassword',
      'set-cookie',
    ]) {
      expect(isSecretName(name), name).toBe(true);
    }
    for (const name of ['siteId', 'unitId', 'keychain', 'authEnabled', 'name']) {
      expect(isSecretName(name), name).toBe(false);
    }
  });

  it('masks tokens, credentials, assignments and e-mails in text', () => {
    const line =
      `2026-06-01T10:00:00.000Z WARN signed in installer@plantdesk.test with Bearer abc.def-123 ` +
      `jwt ${JWT} password=hunter2 "apiKey":"SE-KEY-1" token: t0k3n Basic dXNlcjpwYXNz`;
    const redacted = redactText(line);
    for (const secret of [
      'installer@plantdesk.test',
      'abc.def-123',
      JWT,
      'hunter2',
      'SE-KEY-1',
      't0k3n',
      'dXNlcjpwYXNz',
    ]) {
      expect(redacted).not.toContain(secret);
    }
    expect(redacted).toContain(REDACTED_EMAIL);
    expect(redacted).toContain(`password=${REDACTED}`);
    expect(redacted).toContain(`"apiKey":"${REDACTED}"`);
    expect(redacted).toContain(`Bearer ${REDACTED}`);
    expect(redactText(`Authorization: Bearer ${JWT}`)).toBe(`Authorization: Bearer ${REDACTED}`);
    // A sensor's connection address with credentials in it.
    expect(redactText('modbus://admin:s3cret@inverter:502/1')).toBe(
      `modbus://admin:${REDACTED}@inverter:502/1`,
    );
    expect(redactText('see http://u:p%40ss@localhost/x')).toBe(
      `see http://u:${REDACTED}@localhost/x`,
    );
    // Prose and ordinary fields stay readable.
    expect(redactText('siteId=4711 at 10:30, https://example.com/a?b=1')).toBe(
      'siteId=4711 at 10:30, https://example.com/a?b=1',
    );
  });

  it('keeps the lines of a log where they were', () => {
    expect(redactLines('a password=x\nb mail a@b.io\n')).toBe(
      `a password=${REDACTED}\nb mail ${REDACTED_EMAIL}\n`,
    );
  });

  it('replaces what lies under a secret key, keeping whether it is set', () => {
    expect(
      redactJson({
        settings: { siteId: 'S-1', accountEmail: 'owner@example.com', apiKey: 'k' },
        secretSettingsSet: { apiKey: true, refreshToken: false },
        credentials: { user: 'u', pin: 1234, list: ['a', { b: 'c' }] },
        'owner@example.com': 1,
        'other@example.com': 2,
      }),
    ).toEqual({
      settings: { siteId: 'S-1', accountEmail: REDACTED_EMAIL, apiKey: REDACTED },
      secretSettingsSet: { apiKey: true, refreshToken: false },
      credentials: { user: REDACTED, pin: REDACTED, list: [REDACTED, { b: REDACTED }] },
      [REDACTED_EMAIL]: 1,
      [`${REDACTED_EMAIL} (2)`]: 2,
    });
  });
});

/** Text around an inserted value: anything, including characters e-mails and tokens use. */
const filler = fc.string({ unit: fc.constantFrom(...'ab.-_@=:"\' \n{}[]/+'.split('')) });
const anyText = fc.oneof(fc.string(), filler, fc.string({ unit: 'grapheme' }));

describe('support bundle redaction: properties', () => {
  test('no e-mail address survives, wherever it stands', () => {
    fc.assert(
      fc.property(filler, fc.emailAddress(), filler, (before, email, after) => {
        expect(redactText(before + email + after)).not.toContain(email);
      }),
      { numRuns: 500 },
    );
  });

  test('no JWT-like token or bearer credential survives', () => {
    const segment = fc.stringMatching(/^[A-Za-z0-9_-]{12,40}$/);
    fc.assert(
      fc.property(anyText, segment, segment, segment, anyText, (before, a, b, c, after) => {
        const jwt = `eyJ${a}.${b}.${c}`;
        expect(redactText(`${before} ${jwt} ${after}`)).not.toContain(jwt);
        expect(redactText(`${before} Bearer ${a}${b} ${after}`)).not.toContain(`${a}${b}`);
      }),
    );
  });

  test('no password in an address survives', () => {
    const part = fc.stringMatching(/^[A-Za-z0-9._~!$&'()*+,;=%-]{1,20}$/);
    fc.assert(
      fc.property(anyText, part, part, fc.domain(), (before, user, password, host) => {
        const text = `${before} https://${user}:${password}@${host}/path`;
        expect(redactText(text)).not.toContain(`:${password}@`);
      }),
    );
  });

  test('runs in linear time: a 100 KB line built to make patterns backtrack takes well under a second', () => {
    for (const line of [
      'a'.repeat(100_000),
      'tokenx-'.repeat(15_000),
      `a@b${'.a'.repeat(50_000)}`,
      `http://${'a'.repeat(200)}:`.repeat(400),
      `eyJ${'a'.repeat(100_000)}`,
    ]) {
      const started = performance.now();
      redactText(line);
      // Each takes under 100 ms on a developer's machine; the bound leaves room for a loaded CI.
      expect(performance.now() - started).toBeLessThan(1_000);
    }
  });

  test('text redaction is idempotent', () => {
    fc.assert(
      fc.property(fc.oneof(anyText, fc.emailAddress()), (text) => {
        const once = redactText(text);
        expect(redactText(once)).toBe(once);
      }),
      { numRuns: 500 },
    );
  });

  test('JSON stays valid JSON, and redacting again changes nothing', () => {
    const withSecrets = fc.jsonValue().chain((value) =>
      fc.record({
        value: fc.constant(value),
        apiKey: fc.string(),
        contact: fc.emailAddress(),
        nested: fc.dictionary(fc.constantFrom('password', 'token', 'note'), fc.jsonValue()),
      }),
    );
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), withSecrets), (value) => {
        const once = redactJson(value);
        const text = JSON.stringify(once);
        // Compared as text: JSON has no -0, which toEqual would tell from 0.
        expect(JSON.stringify(JSON.parse(text))).toBe(text);
        expect(JSON.stringify(redactJson(JSON.parse(text)))).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  test('no e-mail survives in JSON, as a value or as a key', () => {
    fc.assert(
      fc.property(fc.emailAddress(), fc.jsonValue(), (email, other) => {
        const text = JSON.stringify(redactJson({ [email]: other, list: [email, { email }] }));
        expect(text).not.toContain(email);
      }),
    );
  });
});
