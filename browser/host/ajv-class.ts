/**
 * The browser's src/validation/ajv-class.ts: the class bundled and imported as usual (the
 * server's loads it at its first use, through Node's `require`).
 */
import { Ajv } from 'ajv';

export function ajvClass(): typeof Ajv {
  return Ajv;
}
