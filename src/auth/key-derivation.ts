/**
 * API key values (keys-auth.md §2): `key = lowercase_hex(HMAC-SHA256(master key, uid))`, with the
 * uid as its 36-character lowercase hyphenated text. Keys are never stored: any instance with the
 * same master key and uid derives the same value, and another master key changes every value.
 *
 * Pure. Callers: key-store.ts (listing values, recognising presented keys), tenant-token.ts (the
 * secret a tenant token is signed with).
 */
import { createHmac } from 'node:crypto';

/** The 32-byte HMAC behind a key value. */
export function deriveKeyDigest(masterKey: string, uid: string): Buffer {
  return createHmac('sha256', Buffer.from(masterKey, 'utf8')).update(uid, 'utf8').digest();
}

/** The key value clients send: 64 lowercase hex characters. */
export function deriveKey(masterKey: string, uid: string): string {
  return deriveKeyDigest(masterKey, uid).toString('hex');
}

const HEX = /^(?:[0-9a-fA-F]{2})*$/;

/**
 * The bytes a presented token stands for, read as hex in either case, or `null` when it is not
 * hex (such a token never matches). Node's own hex decoder silently stops at the first bad
 * character, hence the explicit check.
 */
export function decodePresentedKey(token: string): Buffer | null {
  return HEX.test(token) ? Buffer.from(token, 'hex') : null;
}
