// Where the vault and its key live, and how the key is found — Go's rules where they are safe:
// the home is SQUADRON_HOME or the project's `.squadron/`; the passphrase comes from
// SQUADRON_VAULT_KEY (the passphrase itself, for CI), else `/run/secrets/vault_passphrase` (a Docker
// secret), else `<home>/vault.key` (the file provider: 32 random bytes, mode 0600). Go's built-in
// fallback passphrase and its OS keychain provider are not used: without a key the vault is closed.

import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const VAULT_FILE = 'vars.vault';
export const KEY_FILE = 'vault.key';
const DOCKER_SECRET = '/run/secrets/vault_passphrase';

export function vaultHome(projectRoot: string, env: NodeJS.ProcessEnv): string {
  return env['SQUADRON_HOME'] ? resolve(env['SQUADRON_HOME']) : join(projectRoot, '.squadron');
}

export function vaultPath(projectRoot: string, env: NodeJS.ProcessEnv): string {
  return join(vaultHome(projectRoot, env), VAULT_FILE);
}

/** The passphrase, or undefined when none is configured (then the vault cannot be opened). */
export function findVaultKey(projectRoot: string, env: NodeJS.ProcessEnv): { key: Buffer; from: string } | undefined {
  const fromEnv = env['SQUADRON_VAULT_KEY'];
  if (fromEnv) return { key: Buffer.from(fromEnv, 'utf8'), from: 'SQUADRON_VAULT_KEY' };
  if (existsSync(DOCKER_SECRET)) return { key: trimNewlines(readFileSync(DOCKER_SECRET)), from: DOCKER_SECRET };
  const file = join(vaultHome(projectRoot, env), KEY_FILE);
  if (existsSync(file)) return { key: trimNewlines(readFileSync(file)), from: file };
  return undefined;
}

/** Makes a new key file (32 random bytes, mode 0600) for a new vault, as Go's `init` does. */
export function createVaultKey(projectRoot: string, env: NodeJS.ProcessEnv): { key: Buffer; from: string } {
  const home = vaultHome(projectRoot, env);
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const file = join(home, KEY_FILE);
  const key = randomBytes(32);
  writeFileSync(file, key, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return { key: trimNewlines(key), from: file };
}

/** Go trims trailing CR/LF from the key file (bytes.TrimRight); so do we, to open the same vaults. */
function trimNewlines(data: Buffer): Buffer {
  let end = data.length;
  while (end > 0 && (data[end - 1] === 0x0a || data[end - 1] === 0x0d)) end--;
  return data.subarray(0, end);
}
