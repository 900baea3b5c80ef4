// The vault's Argon2id: node:crypto's (Node.js ≥ 24.7) and the pure-JS one (@noble/hashes, used on
// Node.js 22) give the same key — for RFC 9106's test vector, for the vault's own parameters, and for
// vault files, each opening a file the other wrote. On a Node.js without node:crypto's Argon2id the
// pure-JS one is checked against the vectors node:crypto produced (and a vault file it wrote).

import * as crypto from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test, vi } from 'vitest';
import { readVault, writeVault } from '../../../config/vault/vaultFile.js';
import { argon2idJs, argon2idNode, deriveVaultKey, VAULT_ARGON2, vaultKdfName, type Argon2idImpl } from '../../../config/vault/vaultKdf.js';

// A pure-JS derivation with 64 MiB takes seconds, and close to a minute on a very busy machine.
vi.setConfig({ testTimeout: 600_000 });
const dir = mkdtempSync(join(tmpdir(), 'vault-kdf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const impls: [string, Argon2idImpl][] = [['@noble/hashes', argon2idJs], ...(argon2idNode ? [['node:crypto', argon2idNode] as [string, Argon2idImpl]] : [])];
// Written by node:crypto on Node.js 26 (passphrase below); holds two values.
const FIXTURE = join(import.meta.dirname, '..', '..', 'fixtures', 'vault', 'node-crypto.vault');
const FIXTURE_KEY = Buffer.from('fixture passphrase');
const FIXTURE_VALUES = { api_token: 'tok-fixture-1', 'name with space': 'ünïcode ✓' };

describe('the vault key derivation', () => {
  test('this process derives with node:crypto exactly when it has argon2Sync, else with @noble/hashes', () => {
    const native = typeof (crypto as { argon2Sync?: unknown }).argon2Sync === 'function';
    expect(vaultKdfName).toBe(native ? 'node:crypto' : '@noble/hashes');
    expect(argon2idNode === undefined).toBe(!native);
    // Node.js 24.7 added argon2Sync: the lines from 25 on always have it.
    if (Number(process.versions.node.split('.')[0]) >= 25) expect(vaultKdfName).toBe('node:crypto');
  });

  test.each(impls)('%s gives RFC 9106 §5.3 Argon2id test vector', (_name, impl) => {
    const tag = impl(Buffer.alloc(32, 1), Buffer.alloc(16, 2), {
      passes: 3, memoryKiB: 32, parallelism: 4, keyLength: 32, secret: Buffer.alloc(8, 3), associatedData: Buffer.alloc(12, 4),
    });
    expect(tag.toString('hex')).toBe('0d640df58d78766c08c037a34a8b53c9d01ef0452d75b65eb52520e96b01e659');
  });

  test.each(impls)('%s gives the known key for the vault parameters (t=3, 64 MiB, p=4, 32 bytes)', (_name, impl) => {
    expect(VAULT_ARGON2).toEqual({ passes: 3, memoryKiB: 65536, parallelism: 4, keyLength: 32 });
    const key = deriveVaultKey(Buffer.from('correct horse battery staple'), Buffer.alloc(16, 7), impl);
    expect(key.toString('hex')).toBe('0b167e20ffb8a31f75eb3e471872ba0a5747d56ec494db5becb07108141bff24');
  });

  test.each(impls)('%s opens the vault file node:crypto wrote', (_name, impl) => {
    const copy = join(dir, `fixture-${impls.findIndex(([, i]) => i === impl)}.vault`);
    copyFileSync(FIXTURE, copy);
    expect(readVault(copy, FIXTURE_KEY, impl)).toEqual(FIXTURE_VALUES);
    expect(() => readVault(copy, Buffer.from('fixture passphrasf'), impl)).toThrow(/does not open/);
  });

  test('a vault written with one implementation opens with every other one and with the default', () => {
    for (const [writer, writeImpl] of impls) {
      const path = join(dir, `by-${writer.replace(/\W/g, '')}.vault`);
      writeVault(path, Buffer.from('pass-✓'), { token: `from ${writer}` }, writeImpl);
      for (const [, readImpl] of impls) expect(readVault(path, Buffer.from('pass-✓'), readImpl)).toEqual({ token: `from ${writer}` });
      expect(readVault(path, Buffer.from('pass-✓'))).toEqual({ token: `from ${writer}` });
    }
  });
});
