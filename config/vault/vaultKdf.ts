// The vault's key derivation: Argon2id (t=3, m=64 MiB, p=4, 32 bytes) of the passphrase and the salt,
// as Go Squadron derives it (golang.org/x/crypto/argon2.IDKey), so vaults move between the two.
// node:crypto's argon2Sync (Node.js ≥ 24.7) is used where it exists; Node.js 22 lacks it, so there the
// pure-JS Argon2id of @noble/hashes computes the same key (RFC 9106; about 2-3 times slower, a few
// seconds per derivation on a busy machine — see bench/vault-kdf.mjs).

import * as crypto from 'node:crypto';
import { argon2id } from '@noble/hashes/argon2.js';

/** Go's parameters (config/vault in the Go original): passes, memory in KiB, lanes, key length. */
export const VAULT_ARGON2 = { passes: 3, memoryKiB: 64 * 1024, parallelism: 4, keyLength: 32 } as const;

export interface Argon2idParams {
  passes: number;
  memoryKiB: number;
  parallelism: number;
  keyLength: number;
  /** RFC 9106's optional secret K and associated data X (the vault uses neither). */
  secret?: Uint8Array;
  associatedData?: Uint8Array;
}

export type Argon2idImpl = (password: Uint8Array, salt: Uint8Array, params: Argon2idParams) => Buffer;

// Looked up at call time: Node.js 22 has no argon2Sync, and a named import would fail to link there.
const nodeArgon2Sync = (crypto as { argon2Sync?: typeof crypto.argon2Sync }).argon2Sync;

/** node:crypto's Argon2id, or undefined on a Node.js without it (before 24.7). */
export const argon2idNode: Argon2idImpl | undefined =
  typeof nodeArgon2Sync === 'function'
    ? (password, salt, p) =>
        nodeArgon2Sync('argon2id', {
          message: password,
          nonce: salt,
          parallelism: p.parallelism,
          tagLength: p.keyLength,
          memory: p.memoryKiB,
          passes: p.passes,
          ...(p.secret ? { secret: p.secret } : {}),
          ...(p.associatedData ? { associatedData: p.associatedData } : {}),
        })
    : undefined;

/** The pure-JS Argon2id (@noble/hashes): the same output on every Node.js line. */
export const argon2idJs: Argon2idImpl = (password, salt, p) =>
  Buffer.from(
    argon2id(password, salt, {
      t: p.passes,
      m: p.memoryKiB,
      p: p.parallelism,
      dkLen: p.keyLength,
      ...(p.secret ? { key: p.secret } : {}),
      ...(p.associatedData ? { personalization: p.associatedData } : {}),
    }),
  );

/** Which implementation derives vault keys in this process. */
export const vaultKdfName: 'node:crypto' | '@noble/hashes' = argon2idNode ? 'node:crypto' : '@noble/hashes';

/** The vault key of `passphrase` and a file's salt. */
export function deriveVaultKey(passphrase: Uint8Array, salt: Uint8Array, impl: Argon2idImpl = argon2idNode ?? argon2idJs): Buffer {
  return impl(passphrase, salt, VAULT_ARGON2);
}
