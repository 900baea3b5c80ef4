import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test, vi } from 'vitest';
import { readVault, VaultError, writeVault } from '../../../config/vault/vaultFile.js';

// Each write or read derives a key (Argon2id, 64 MiB): seconds with the pure-JS one on Node.js 22, close
// to a minute each on a very busy machine.
vi.setConfig({ testTimeout: 600_000 });
const dir = mkdtempSync(join(tmpdir(), 'vault-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const key = Buffer.from('correct horse battery staple');

describe('the vault file', () => {
  test('round-trips values in Go\'s layout: SQVAULT1, version 1, salt, nonce, AES-GCM ciphertext; mode 0600', () => {
    const path = join(dir, 'a.vault');
    writeVault(path, key, { b: 'two', a: 'one "quoted"' });
    const raw = readFileSync(path);
    expect(raw.subarray(0, 9).toString('latin1')).toBe('SQVAULT1\x01');
    // header 37 bytes + JSON + 16-byte tag
    expect(raw.length).toBe(37 + JSON.stringify({ a: 'one "quoted"', b: 'two' }).length + 16);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readVault(path, key)).toEqual({ a: 'one "quoted"', b: 'two' });
  });

  test('a fresh salt and nonce each write: the same values never give the same bytes', () => {
    const [p1, p2] = [join(dir, 'x.vault'), join(dir, 'y.vault')];
    writeVault(p1, key, { a: 'same' });
    writeVault(p2, key, { a: 'same' });
    expect(readFileSync(p1).equals(readFileSync(p2))).toBe(false);
  });

  test('a wrong key, a changed byte or another file is a VaultError, never garbage', () => {
    const path = join(dir, 'c.vault');
    writeVault(path, key, { a: 'secret-value' });
    expect(() => readVault(path, Buffer.from('wrong'))).toThrow(/does not open/);
    const bytes = readFileSync(path);
    bytes[bytes.length - 20]! ^= 1;
    writeFileSync(path, bytes);
    expect(() => readVault(path, key)).toThrow(VaultError);
    writeFileSync(path, 'not a vault at all, just some text that is long enough');
    expect(() => readVault(path, key)).toThrow(/is not a vault file/);
  });
});
