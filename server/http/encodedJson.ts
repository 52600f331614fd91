/**
 * A response body encoded once and sent as is. Worth it for answers that are remembered and sent
 * many times: serialising a 700-point series costs more than everything else a request does.
 *
 * A short body is sent as its text: Node writes a string body together with the headers in one
 * write, whereas a Buffer goes out by `writev` of headers and body, which cost a metrics answer
 * about 10 µs more server CPU than the text's encoding does. A long body is encoded once, then
 * sent as bytes without encoding it again.
 */
export class EncodedJson<T> {
  /** Up to this many bytes, the body is sent as text (see above). */
  static readonly #TEXT_BODY_BYTES = 16 * 1024;

  readonly byteLength: number;
  /** What to hand the response: the text of a short body, the bytes of a long one. */
  readonly body: string | Buffer;
  /** The type of the value encoded, for the compiler only. */
  declare readonly value?: T;

  private constructor(body: string | Buffer, byteLength: number) {
    this.body = body;
    this.byteLength = byteLength;
  }

  /**
   * JSON text made another, faster way than `JSON.stringify`: `json` must be byte for byte what
   * `JSON.stringify` gives for some `T` (as `seriesJson.ts` proves for series); `ascii` when the
   * caller knows every character of it is ASCII.
   */
  static ofJsonText<T>(json: string, ascii = false): EncodedJson<T> {
    const byteLength = ascii ? json.length : Buffer.byteLength(json);
    // ASCII text is its own UTF-8, and encoding it as Latin-1 skips UTF-8's scan of each char.
    return new EncodedJson<T>(
      byteLength <= EncodedJson.#TEXT_BODY_BYTES
        ? json
        : Buffer.from(json, ascii ? 'latin1' : 'utf8'),
      byteLength,
    );
  }

  /**
   * The same for ASCII JSON text in pieces: `head`, then `parts` with `separator` between them,
   * then `tail`. A long body is written into its bytes in those three pieces, without making the
   * whole text first: V8 would copy it once more to flatten it before encoding, and writing each
   * part on its own costs more in calls than that copy.
   */
  static ofAsciiParts<T>(
    head: string,
    parts: readonly string[],
    separator: string,
    tail: string,
  ): EncodedJson<T> {
    const joined = parts.join(separator);
    const byteLength = head.length + joined.length + tail.length;
    if (byteLength <= EncodedJson.#TEXT_BODY_BYTES) {
      return new EncodedJson<T>(head + joined + tail, byteLength);
    }
    // Latin-1 is ASCII's UTF-8 here too (see `ofJsonText`).
    const bytes = Buffer.allocUnsafe(byteLength);
    let offset = bytes.write(head, 0, 'latin1');
    offset += bytes.write(joined, offset, 'latin1');
    bytes.write(tail, offset, 'latin1');
    return new EncodedJson<T>(bytes, byteLength);
  }
}
