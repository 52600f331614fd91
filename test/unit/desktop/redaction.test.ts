import fc from 'fast-check';
import { describe, expect, it, test } from 'vitest';
import {
  isSecretName,
  REDACTED,
  REDACTED_EMAIL,
  redactLines,
  redactText,
  redactValue,
} from '../../../electron/services/redaction.ts';

const JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';

describe('redaction rules (file log and support bundle)', () => {
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
      'session_id',
      'passphrase',
      // Any key at all, as the file log always had it: a harmless field masked costs little.
      'keychain',
      'privateKey',
    ]) {
      expect(isSecretName(name), name).toBe(true);
    }
    for (const name of ['siteId', 'unitId', 'authEnabled', 'name', 'email']) {
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

  it('masks secret assignments in free text, and only those', () => {
    expect(redactText('GET /x?access_token=abc123&page=2')).toBe(
      `GET /x?access_token=${REDACTED}&page=2`,
    );
    expect(redactText('body {"password":"hunter2","email":"a@b"}')).toBe(
      `body {"password":"${REDACTED}","email":"a@b"}`,
    );
    // `token: t0k3n` may be a secret as much as `token=t0k3n`: the word after it goes too.
    expect(redactText('Invalid token: expired')).toBe(`Invalid token: ${REDACTED}`);
    expect(redactText('api.plantdesk.example returned 502 (v1.2.3)')).toBe(
      'api.plantdesk.example returned 502 (v1.2.3)',
    );
  });

  it('keeps the lines of a log where they were', () => {
    expect(redactLines('a password=x\nb mail a@b.io\n')).toBe(
      `a password=${REDACTED}\nb mail ${REDACTED_EMAIL}\n`,
    );
  });

  it('replaces what lies under a secret key, keeping whether it is set', () => {
    expect(
      redactValue({
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

describe('redaction of values', () => {
  it('serializes errors with their message, own properties and cause, redacted', () => {
    const error = Object.assign(new Error(`login as a@b.io failed`, { cause: 'password=x' }), {
      status: 500,
      token: 't',
    });
    expect(redactValue(error)).toMatchObject({
      name: 'Error',
      message: `login as ${REDACTED_EMAIL} failed`,
      status: 500,
      token: REDACTED,
      cause: `password=${REDACTED}`,
    });
  });

  it('names class instances instead of walking them (sockets, requests, header classes)', () => {
    class ClientRequest {
      socket = { secretStuff: 'x' };
    }
    expect(
      redactValue({ request: new ClientRequest(), seen: new Map([['a', 1]]), plain: { a: 1 } }),
    ).toEqual({ request: '[ClientRequest]', seen: '[Map]', plain: { a: 1 } });
  });

  it('copes with cycles, bigint, dates and a "__proto__" key', () => {
    const cyclic: Record<string, unknown> = {
      name: 'a',
      when: new Date('2025-06-01T10:00:00.000Z'),
      big: 10n,
    };
    cyclic.self = cyclic;
    expect(redactValue(cyclic)).toEqual({
      name: 'a',
      when: '2025-06-01T10:00:00.000Z',
      big: '10',
      self: '[circular]',
    });
    const shared = { a: 1 };
    expect(redactValue([shared, shared])).toEqual([{ a: 1 }, { a: 1 }]);
    expect(Object.keys(redactValue(JSON.parse('{"__proto__":{"a":1}}')) as object)).toEqual([
      '__proto__',
    ]);
  });

  it('cuts strings and depth only when asked (the file log does, the bundle does not)', () => {
    const limits = { maxStringLength: 20, maxDepth: 2 };
    expect(redactText('password=hunter2 and more', limits)).toBe(
      `password=${REDACTED} and…[5 more characters]`,
    );
    expect(redactValue({ a: { b: { c: 1 } }, s: 'x'.repeat(12) }, limits)).toEqual({
      a: { b: '[too deep]' },
      s: 'x'.repeat(12),
    });
    expect(redactValue({ a: { b: { c: 'x'.repeat(5000) } } })).toEqual({
      a: { b: { c: 'x'.repeat(5000) } },
    });
  });
});

/** Text around an inserted value: anything, including characters e-mails and tokens use. */
const filler = fc.string({ unit: fc.constantFrom(...'ab.-_@=:"\' \n{}[]/+'.split('')) });
const anyText = fc.oneof(fc.string(), filler, fc.string({ unit: 'grapheme' }));

describe('redaction: properties', () => {
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

  test('secrets in short strings are still masked, whatever surrounds them', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('password', 'apiKey', 'access_token', 'client-secret'),
        fc.stringMatching(/^[A-Za-z0-9]{6,20}$/),
        fc.constantFrom(' ', '&', ';', ', '),
        (name, value, after) => {
          const text = `${name}=${value}${after}next`;
          expect(redactText(text)).toBe(`${name}=${REDACTED}${after}next`);
        },
      ),
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
        const once = redactValue(value);
        const text = JSON.stringify(once);
        // Compared as text: JSON has no -0, which toEqual would tell from 0.
        expect(JSON.stringify(JSON.parse(text))).toBe(text);
        expect(JSON.stringify(redactValue(JSON.parse(text)))).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  test('no e-mail survives in JSON, as a value or as a key', () => {
    fc.assert(
      fc.property(fc.emailAddress(), fc.jsonValue(), (email, other) => {
        const text = JSON.stringify(redactValue({ [email]: other, list: [email, { email }] }));
        expect(text).not.toContain(email);
      }),
    );
  });
});

/** A key naming a secret, spelled as code, headers and configs spell them. */
const secretKey = fc
  .tuple(
    fc.constantFrom('', 'x-', 'api_', 'client', 'refresh', 'vendor.'),
    fc.mixedCase(
      fc.constantFrom('token', 'password', 'passwd', 'secret', 'key', 'authorization', 'cookie'),
    ),
    fc.constantFrom('', 's', '_v2', 'Value', '-id'),
  )
  .map((parts) => parts.join(''));
/** A key or word no rule concerns. */
const ordinaryWord = fc.stringMatching(/^[a-z]{1,12}$/).filter((word) => !isSecretName(word));
const ordinaryText = fc
  .array(ordinaryWord, { minLength: 1, maxLength: 6 })
  .map((words) => words.join(' '));
/** A value unlike anything else generated, so finding it in the output means it survived. */
const secretValue = fc.stringMatching(/^[A-Za-z0-9]{10,24}$/).map((value) => `zQ${value}`);

/** `leaf` at the end of a path of objects (under ordinary keys) and arrays, beside ordinary data. */
const nestedAt = <T>(leaf: fc.Arbitrary<T>) =>
  fc
    .tuple(
      leaf,
      fc.array(fc.oneof(ordinaryWord, fc.constant(null)), { maxLength: 5 }),
      ordinaryText,
      fc.integer({ min: -999, max: 999 }),
    )
    .map(([value, path, text, number]) =>
      path.reduceRight<unknown>(
        (inner, step) => (step === null ? [text, inner, number] : { [step]: inner, note: text }),
        value,
      ),
    );

/** Text secrets, each with the part that must not survive. */
const textSecrets = fc.oneof(
  fc.emailAddress().map((email) => ({ text: `contact ${email} now`, secret: email })),
  fc
    .tuple(...[1, 2, 3].map(() => fc.stringMatching(/^[A-Za-z0-9_-]{12,40}$/)))
    .map(([a, b, c]) => ({ text: `sent eyJ${a}.${b}.${c}`, secret: `eyJ${a}.${b}.${c}` })),
  fc.base64String({ minLength: 12, maxLength: 60 }).map((credential) => ({
    text: `Authorization: Basic ${credential}`,
    secret: credential,
  })),
  fc
    .tuple(
      fc.constantFrom('https', 'http', 'modbus', 'postgres', 'mqtt+ssl'),
      fc.stringMatching(/^[A-Za-z0-9._~-]{1,20}$/),
      fc.stringMatching(/^[A-Za-z0-9._~!$&'()*+,;=%-]{1,20}$/),
      fc.domain(),
    )
    .map(([scheme, user, password, host]) => ({
      text: `connect ${scheme}://${user}:${password}@${host}:502/x`,
      secret: `:${password}@`,
    })),
  fc
    .tuple(secretKey, fc.constantFrom('=', ': ', '":"', ' = '), secretValue)
    .map(([key, separator, value]) => ({
      text: `with ${key}${separator}${value};`,
      secret: value,
    })),
);

describe('redaction: no secret survives, wherever it stands', () => {
  test('whatever lies under a secret key: a string, a number, an object or a list', () => {
    const underKey = fc
      .tuple(secretKey, secretValue, fc.integer({ min: 100_000 }), fc.nat(3))
      .map(([key, value, number, shape]) => ({
        value,
        number,
        leaf: {
          [key]: [value, number, { inner: value, count: number }, [value, [number]]][shape],
        },
      }));
    fc.assert(
      fc.property(
        underKey.chain(({ value, number, leaf }) =>
          nestedAt(fc.constant(leaf)).map((structure) => ({ value, number, structure })),
        ),
        ({ value, number, structure }) => {
          const text = JSON.stringify(redactValue(structure));
          expect(text).not.toContain(value);
          expect(text).not.toContain(String(number));
        },
      ),
      { numRuns: 300 },
    );
  });

  test('no e-mail, JWT, Basic credential, address password or secret assignment, in any string', () => {
    fc.assert(
      fc.property(
        textSecrets.chain(({ text, secret }) =>
          nestedAt(fc.constant(text)).map((structure) => ({ text, secret, structure })),
        ),
        ({ text, secret, structure }) => {
          expect(redactText(text)).not.toContain(secret);
          expect(JSON.stringify(redactValue(structure))).not.toContain(secret);
          // As a key, too: a bundle's JSON can be keyed by whatever a user typed.
          expect(JSON.stringify(redactValue({ [text]: 1 }))).not.toContain(secret);
        },
      ),
      { numRuns: 500 },
    );
  });

  test('ordinary words and numbers pass unchanged, at any depth', () => {
    const ordinary = fc.object({
      key: ordinaryWord,
      values: [ordinaryText, fc.integer(), fc.double(), fc.boolean(), fc.constant(null)],
      maxDepth: 4,
    });
    fc.assert(
      fc.property(ordinary, (value) => {
        expect(redactValue(value)).toEqual(value);
      }),
      { numRuns: 300 },
    );
  });
});
