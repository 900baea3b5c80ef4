// The project's vault as the loader sees it: absent (no vars.vault), open (its values), or closed
// (no key, a wrong key, a damaged file: VLT001, an error for run and a warning for validate and plan,
// which need no secret — like a variable without a value).

import type { Diagnostic } from '../hcl/diagnostic.js';
import { readVault, VaultError, vaultExists } from './vaultFile.js';
import { findVaultKey, vaultPath } from './vaultKey.js';

export interface ProjectVault {
  path: string;
  values: Readonly<Record<string, string>>;
}

export function openProjectVault(projectRoot: string, env: NodeJS.ProcessEnv, lenient: boolean, diags: Diagnostic[]): ProjectVault | undefined {
  const path = vaultPath(projectRoot, env);
  if (!vaultExists(path)) return undefined;
  const at = { file: path, line: 0, column: 0, endLine: 0, endColumn: 0 };
  const key = findVaultKey(projectRoot, env);
  if (key === undefined) {
    diags.push({ severity: lenient ? 'warning' : 'error', code: 'VLT001', message: `the vault ${path} cannot be opened: no key (SQUADRON_VAULT_KEY, /run/secrets/vault_passphrase or vault.key beside it)`, hint: 'set SQUADRON_VAULT_KEY, or restore the vault.key file', ...at });
    return undefined;
  }
  try {
    return { path, values: readVault(path, key.key) };
  } catch (err) {
    if (!(err instanceof VaultError) && !(err instanceof SyntaxError)) throw err;
    diags.push({ severity: lenient ? 'warning' : 'error', code: 'VLT001', message: `the vault cannot be opened with the key from ${key.from}: ${err.message}`, hint: 'check the key; `squadron vars list` opens the vault the same way', ...at });
    return undefined;
  }
}
