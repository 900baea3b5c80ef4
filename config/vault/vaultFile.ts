// The vault file, byte for byte as Go Squadron writes it (so a Go project's `.squadron/vars.vault`
// opens here unchanged): "SQVAULT1", version 0x01, a 16-byte salt, a 12-byte nonce, then the
// AES-256-GCM ciphertext (tag appended) of a JSON object of strings. The key is Argon2id
// (t=3, m=64 MiB, p=4, 32 bytes) of the passphrase and the salt (vaultKdf.ts). A fresh salt and nonce
// on every write.

import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { deriveVaultKey, type Argon2idImpl } from './vaultKdf.js';

const MAGIC = Buffer.from('SQVAULT1', 'ascii');
const VERSION = 0x01;
const SALT_LEN = 16;
const NONCE_LEN = 12;
const TAG_LEN = 16;
const HEADER_LEN = MAGIC.length + 1 + SALT_LEN + NONCE_LEN;

const Contents = z.record(z.string(), z.string());

export class VaultError extends Error {}

/** `kdf` picks the Argon2id implementation (tests compare them); by default node:crypto's where it exists. */
export function readVault(path: string, passphrase: Buffer, kdf?: Argon2idImpl): Record<string, string> {
  const data = readFileSync(path);
  if (data.length <= HEADER_LEN + TAG_LEN || !data.subarray(0, MAGIC.length).equals(MAGIC)) throw new VaultError(`${path} is not a vault file (or it is damaged)`);
  if (data[MAGIC.length] !== VERSION) throw new VaultError(`${path} has vault format version ${data[MAGIC.length]}, which this Squadron does not read`);
  const salt = data.subarray(MAGIC.length + 1, MAGIC.length + 1 + SALT_LEN);
  const nonce = data.subarray(MAGIC.length + 1 + SALT_LEN, HEADER_LEN);
  const sealed = data.subarray(HEADER_LEN);
  const decipher = createDecipheriv('aes-256-gcm', deriveVaultKey(passphrase, salt, kdf), nonce);
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_LEN));
  let plain: Buffer;
  try {
    plain = Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG_LEN)), decipher.final()]);
  } catch {
    throw new VaultError(`the vault key does not open ${path} (wrong key, or the file was changed)`);
  }
  const parsed = Contents.safeParse(JSON.parse(plain.toString('utf8')));
  if (!parsed.success) throw new VaultError(`${path} does not hold an object of strings`);
  return parsed.data;
}

/** Encrypts `values` into `path` (mode 0600), written to a temporary file first and renamed. */
export function writeVault(path: string, passphrase: Buffer, values: Readonly<Record<string, string>>, kdf?: Argon2idImpl): void {
  const salt = randomBytes(SALT_LEN);
  const nonce = randomBytes(NONCE_LEN);
  const cipher = createCipheriv('aes-256-gcm', deriveVaultKey(passphrase, salt, kdf), nonce);
  const sorted = Object.fromEntries(Object.entries(values).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const sealed = Buffer.concat([cipher.update(JSON.stringify(sorted), 'utf8'), cipher.final(), cipher.getAuthTag()]);
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, Buffer.concat([MAGIC, Buffer.from([VERSION]), salt, nonce, sealed]), { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
}

export function vaultExists(path: string): boolean {
  return existsSync(path);
}
