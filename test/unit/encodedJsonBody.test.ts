import { EventEmitter } from 'node:events';
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

describe('EncodedJson of a long ASCII body', () => {
  const json = (seed: number) =>
    JSON.stringify({ points: Array.from({ length: 5000 }, (_, index) => index * seed) });
  const response = () => new EventEmitter();

  it('lends bytes, given back only when the response has finished, then used again', () => {
    const first = EncodedJson.ofJsonText(json(1), true);
    const sent = response();
    first.releaseAfter(sent);
    const meanwhile = EncodedJson.ofJsonText(json(1), true);
    expect((meanwhile.body as Buffer).buffer).not.toBe((first.body as Buffer).buffer);
    sent.emit('finish');
    const next = EncodedJson.ofJsonText(json(2), true);
    expect((next.body as Buffer).buffer).toBe((first.body as Buffer).buffer);
    expect(Buffer.from(next.body).equals(Buffer.from(json(2)))).toBe(true);
  });

  it('keeps the bytes of a response closed before it finished', () => {
    const first = EncodedJson.ofJsonText(json(3), true);
    const closed = response();
    first.releaseAfter(closed);
    closed.emit('close');
    const next = EncodedJson.ofJsonText(json(3), true);
    expect((next.body as Buffer).buffer).not.toBe((first.body as Buffer).buffer);
  });

  it('owns a copy to keep, which later answers do not overwrite', () => {
    const lent = EncodedJson.ofAsciiParts('{"points":[', ['1', '2', json(4)], ',', ']}');
    const expected = Buffer.from(`{"points":[1,2,${json(4)}]}`);
    const kept = lent.owned();
    expect(kept).not.toBe(lent);
    expect((kept.body as Buffer).buffer).not.toBe((lent.body as Buffer).buffer);
    const sent = response();
    lent.releaseAfter(sent);
    sent.emit('finish');
    EncodedJson.ofJsonText(json(5), true);
    expect(Buffer.from(kept.body).equals(expected)).toBe(true);
    expect(kept.byteLength).toBe(expected.length);
    // A short body, or one not lent, is its own already.
    const short = EncodedJson.ofJsonText('{"a":1}', true);
    expect(short.owned()).toBe(short);
    const utf8 = EncodedJson.ofJsonText(JSON.stringify({ name: 'ü'.repeat(20_000) }));
    expect(utf8.owned()).toBe(utf8);
  });
});
