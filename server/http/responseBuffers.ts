/**
 * Memory for long response bodies, used again once a response has gone out. A body of tens of
 * kilobytes in fresh memory cost more than writing it: the allocator hands such sizes back to
 * the system when they are freed, so every new one faulted its pages in again (about 10 µs for
 * a 30-day hourly history of 52 KiB, and its socket write was slower too), where memory used
 * before is already mapped.
 *
 * Blocks come in powers of two from 64 KiB to 1 MiB; a longer body gets memory of its own. A
 * block is given back only by whoever sent it, after the response was handed to the system
 * (`EncodedJson.releaseAfter`): nothing else may still hold it then.
 */

const SMALLEST_BLOCK = 64 * 1024;
const LARGEST_BLOCK = 1024 * 1024;
/** Free blocks kept per size: as many as responses of that size are written at once, or so. */
const FREE_PER_SIZE = 32;

const freeBlocks = new Map<number, ArrayBuffer[]>();

const blockSizeFor = (byteLength: number): number => {
  let size = SMALLEST_BLOCK;
  while (size < byteLength) size *= 2;
  return size;
};

/** `byteLength` bytes of a free block, or new memory; their content is not cleared. */
export function takeResponseBytes(byteLength: number): Buffer {
  if (byteLength > LARGEST_BLOCK) return Buffer.allocUnsafe(byteLength);
  const size = blockSizeFor(byteLength);
  const block = freeBlocks.get(size)?.pop() ?? new ArrayBuffer(size);
  return Buffer.from(block, 0, byteLength);
}

/** Gives back the block under bytes from `takeResponseBytes`, once nothing reads them any more. */
export function releaseResponseBytes(bytes: Buffer): void {
  const block = bytes.buffer;
  const size = block.byteLength;
  if (!(block instanceof ArrayBuffer) || size !== blockSizeFor(size) || size > LARGEST_BLOCK) {
    return;
  }
  let free = freeBlocks.get(size);
  if (!free) freeBlocks.set(size, (free = []));
  if (free.length < FREE_PER_SIZE && !free.includes(block)) free.push(block);
}
