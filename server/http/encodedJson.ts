import { releaseResponseBytes, takeResponseBytes } from './responseBuffers.ts';

/**
 * A response body encoded once and sent as is. Worth it for answers that are remembered and sent
 * many times: serialising a 700-point series costs more than everything else a request does.
 *
 * A short body is sent as its text: Node writes a string body together with the headers in one
 * write, whereas a Buffer goes out by `writev` of headers and body, which cost a metrics answer
 * about 10 µs more server CPU than the text's encoding does. A long body is encoded once, then
 * sent as bytes without encoding it again.
 *
 * A long ASCII body is written into memory used before (`responseBuffers.ts`): it is lent, to be
 * sent once and given back after (`releaseAfter`), and whoever keeps the answer to send it again
 * keeps `owned()`, bytes of its own.
 */
export class EncodedJson<T> {
  /** Up to this many bytes, the body is sent as text (see above). */
  static readonly #TEXT_BODY_BYTES = 16 * 1024;

  readonly byteLength: number;
  /** What to hand the response: the text of a short body, the bytes of a long one. */
  readonly body: string | Buffer;
  /** The type of the value encoded, for the compiler only. */
  declare readonly value?: T;
  /** The body's bytes are lent (`responseBuffers.ts`). */
  readonly #lent: boolean;

  private constructor(body: string | Buffer, byteLength: number, lent = false) {
    this.body = body;
    this.byteLength = byteLength;
    this.#lent = lent;
  }

  /**
   * JSON text made another, faster way than `JSON.stringify`: `json` must be byte for byte what
   * `JSON.stringify` gives for some `T` (as `seriesJson.ts` proves for series); `ascii` when the
   * caller knows every character of it is ASCII.
   */
  static ofJsonText<T>(json: string, ascii = false): EncodedJson<T> {
    const byteLength = ascii ? json.length : Buffer.byteLength(json);
    if (byteLength <= EncodedJson.#TEXT_BODY_BYTES) return new EncodedJson<T>(json, byteLength);
    return ascii
      ? EncodedJson.ofAsciiParts('', [json], '', '')
      : new EncodedJson<T>(Buffer.from(json), byteLength);
  }

  /**
   * The same for ASCII JSON text in pieces: `head`, then `parts` with `separator` between them,
   * then `tail`. A long body is written into its bytes piece by piece, without making the whole
   * text first: joining copied the text once more, which cost more than the calls per piece.
   */
  static ofAsciiParts<T>(
    head: string,
    parts: readonly string[],
    separator: string,
    tail: string,
  ): EncodedJson<T> {
    let byteLength = head.length + tail.length + Math.max(0, parts.length - 1) * separator.length;
    for (const part of parts) byteLength += part.length;
    if (byteLength <= EncodedJson.#TEXT_BODY_BYTES) {
      return new EncodedJson<T>(head + parts.join(separator) + tail, byteLength);
    }
    // ASCII text is its own UTF-8, and encoding it as Latin-1 skips UTF-8's scan of each char.
    const bytes = takeResponseBytes(byteLength);
    const separatorByte = separator.length === 1 ? separator.charCodeAt(0) : -1;
    let offset = bytes.write(head, 0, 'latin1');
    for (let index = 0; index < parts.length; index++) {
      if (index > 0 && separatorByte >= 0) bytes[offset++] = separatorByte;
      else if (index > 0) offset += bytes.write(separator, offset, 'latin1');
      offset += bytes.write(parts[index]!, offset, 'latin1');
    }
    bytes.write(tail, offset, 'latin1');
    return new EncodedJson<T>(bytes, byteLength, true);
  }

  /** The same body in memory of its own, for keeping: a lent body's bytes are copied. */
  owned(): EncodedJson<T> {
    if (!this.#lent) return this;
    return new EncodedJson<T>(Buffer.from(this.body as Buffer), this.byteLength);
  }

  /**
   * Gives a lent body's bytes back once `sent` is done with them: when the response has handed
   * its last bytes to the system ('finish'). A response closed before that may still have them
   * in a write, so they are left to the garbage collector then.
   */
  releaseAfter(sent: { once(event: 'finish', listener: () => void): unknown }): void {
    if (!this.#lent) return;
    sent.once('finish', () => releaseResponseBytes(this.body as Buffer));
  }
}
