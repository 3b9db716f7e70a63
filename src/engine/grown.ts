/**
 * A typed column made longer: the growable columns of the engine's hot loops (a vocabulary's
 * words and bytes, a proximity table's staged entries, a document's prefix ids) keep their
 * arrays between uses and copy into a longer one when full, instead of growing JS arrays entry
 * by entry.
 */

/** `array`'s values in a new Int32Array of `length` (at least its own). */
export function grownInt32(array: Int32Array, length: number): Int32Array<ArrayBuffer> {
  const out = new Int32Array(length);
  out.set(array);
  return out;
}

/** `array`'s bytes in a new Uint8Array of `length` (at least its own). */
export function grownUint8(array: Uint8Array, length: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(length);
  out.set(array);
  return out;
}
