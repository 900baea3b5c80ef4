// The project's vault (`.squadron/vars.vault`, AES-256-GCM with an Argon2id key from
// SQUADRON_VAULT_KEY or `.squadron/vault.key`, the file format Go Squadron writes): every value in it
// is `vars.<name>` in the config without a variable block, and a secret.

import { existsSync } from 'node:fs';
import { readVault, writeVault } from '../config/vault/vaultFile.js';
import { createVaultKey, findVaultKey, vaultHome, vaultPath } from '../config/vault/vaultKey.js';
import { SquadronError } from './errors.js';

/** The values in the vault of the project rooted at `root` ({} when it has none yet); `refused` when it cannot be opened. */
export function readVaultValues(root: string, env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const path = vaultPath(root, env);
  if (!existsSync(path)) return {};
  const key = findVaultKey(root, env);
  if (key === undefined) throw new SquadronError('refused', `the vault ${path} cannot be opened: no key (set SQUADRON_VAULT_KEY, or restore ${vaultHome(root, env)}/vault.key)`);
  try {
    return readVault(path, key.key);
  } catch (err) {
    throw new SquadronError('refused', err instanceof Error ? err.message : String(err));
  }
}

/** Replaces the vault's values; a project without a key gets one made (its location given to `onKeyCreated`). */
export function writeVaultValues(root: string, values: Readonly<Record<string, string>>, env: NodeJS.ProcessEnv = process.env, onKeyCreated?: (from: string) => void): void {
  let key = findVaultKey(root, env);
  if (key === undefined) {
    key = createVaultKey(root, env);
    onKeyCreated?.(key.from);
  }
  writeVault(vaultPath(root, env), key.key, { ...values });
}
