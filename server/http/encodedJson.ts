/**
 * A response body encoded once and sent as is. Worth it for answers that are remembered and sent
 * many times: serialising a 700-point series costs more than everything else a request does.
 */
export class EncodedJson<T> {
  readonly bytes: Buffer;
  /** The type of the value encoded, for the compiler only. */
  declare readonly value?: T;

  constructor(value: T) {
    this.bytes = Buffer.from(JSON.stringify(value));
  }
}
