import { describe, expect, it } from 'vitest';
import { EncodedJson } from '../../server/http/encodedJson.ts';

describe('EncodedJson', () => {
  const bodyBytes = (encoded: EncodedJson<unknown>) => Buffer.from(encoded.body);

  it('sends a short body as its text, the UTF-8 of the JSON', () => {
    const json = JSON.stringify({ name: 'Wärmepumpe ⚡', values: [1, 2.5, null] });
    const encoded = EncodedJson.ofJsonText(json);
    expect(typeof encoded.body).toBe('string');
    expect(encoded.byteLength).toBe(Buffer.byteLength(json));
    expect(bodyBytes(encoded).equals(Buffer.from(json))).toBe(true);
  });

  it('sends a long body as bytes encoded once, the same bytes', () => {
    const ascii = JSON.stringify({ points: Array.from({ length: 4000 }, (_, index) => index) });
    const text = JSON.stringify({ name: 'ü'.repeat(20_000) });
    for (const [json, isAscii] of [
      [ascii, true],
      [text, false],
    ] as const) {
      const encoded = EncodedJson.ofJsonText(json, isAscii);
      expect(Buffer.isBuffer(encoded.body)).toBe(true);
      expect(encoded.body).toBe(encoded.body);
      expect(encoded.byteLength).toBe(Buffer.byteLength(json));
      expect(bodyBytes(encoded).equals(Buffer.from(json))).toBe(true);
    }
  });

  it('writes ASCII JSON in pieces as the joined text: short as text, long as its bytes', () => {
    for (const count of [3, 3000]) {
      const parts = Array.from({ length: count }, (_, index) => `{"n":${index}}`);
      const json = `{"points":[${parts.join(',')}]}`;
      const encoded = EncodedJson.ofAsciiParts('{"points":[', parts, ',', ']}');
      expect(typeof encoded.body).toBe(count === 3 ? 'string' : 'object');
      expect(encoded.byteLength).toBe(json.length);
      expect(bodyBytes(encoded).equals(Buffer.from(json))).toBe(true);
    }
    expect(String(EncodedJson.ofAsciiParts('[', [], ',', ']').body)).toBe('[]');
  });
});
