/**
 * The master-key rules of reference cli-config.md §4, with Meilisearch's wording where it speaks of
 * the server by name, Quarry's (these are startup messages, not API answers a client reads).
 *
 * Callers: src/main.ts (refuses to start on `fatal`, prints `warnings`), startup-report.ts (the
 * "A master key has been set" line).
 * Invariants: the minimum is counted in UTF-8 bytes; every message that offers a key offers a fresh
 * one (32 random bytes, base64url without padding = 43 characters); development never fails.
 */
import { randomBytes } from 'node:crypto';
import type { Config } from './options.js';

export const MASTER_KEY_MIN_SIZE = 16;

export const MASTER_KEY_SET_MESSAGE =
  "A master key has been set. Requests to Quarry won't be authorized unless you provide an authentication key.";

export interface MasterKeyCheck {
  /** Why startup must stop (production only), or null. */
  fatal: string | null;
  /** Multi-line warnings to print at startup (development only). */
  warnings: string[];
}

export function generateMasterKey(): string {
  return randomBytes(32).toString('base64url');
}

function generatedKeyMessage(): string {
  return `We generated a new secure master key for you (you can safely use this token):\n\n>> --master-key ${generateMasterKey()} <<`;
}

const PRODUCTION_REQUIREMENT = `A master key of at least ${MASTER_KEY_MIN_SIZE} bytes will be required when switching to a production environment.`;
const RESTART_HINT = 'Restart Quarry with the argument above to use this new and secure master key.';

function developmentWarning(headline: string): string {
  return [headline, '', PRODUCTION_REQUIREMENT, '', generatedKeyMessage(), '', RESTART_HINT].join('\n');
}

export function checkMasterKey(config: Pick<Config, 'env' | 'masterKey'>): MasterKeyCheck {
  const length = config.masterKey === null ? null : Buffer.byteLength(config.masterKey, 'utf8');
  if (config.env === 'production') {
    if (length === null) {
      return {
        fatal: `You must provide a master key to secure your instance in a production environment. It can be specified via the QUARRY_MASTER_KEY (or MEILI_MASTER_KEY) environment variable or the --master-key launch option.\n\n${generatedKeyMessage()}`,
        warnings: [],
      };
    }
    if (length < MASTER_KEY_MIN_SIZE) {
      return {
        fatal: `The master key must be at least ${MASTER_KEY_MIN_SIZE} bytes in a production environment. The provided key is only ${length} bytes.\n\n${generatedKeyMessage()}`,
        warnings: [],
      };
    }
    return { fatal: null, warnings: [] };
  }
  if (length === null) {
    return { fatal: null, warnings: [developmentWarning('No master key was found. The server will accept unidentified requests.')] };
  }
  if (length < MASTER_KEY_MIN_SIZE) {
    return {
      fatal: null,
      warnings: [developmentWarning('Quarry started with a master key considered unsafe for use in a production environment.')],
    };
  }
  return { fatal: null, warnings: [] };
}
