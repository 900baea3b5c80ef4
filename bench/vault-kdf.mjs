// The vault's Argon2id key derivation (t=3, 64 MiB, p=4, 32 bytes: Go Squadron's parameters), timed
// with node:crypto's argon2Sync (Node.js ≥ 24.7) and with the pure-JS @noble/hashes used where
// node:crypto has none (Node.js 22). One derivation happens each time a command opens the vault.
// Prints the median of --runs (default 5) whole derivations per implementation, the load average
// beside it, and whether both gave the same key. Nothing is asserted. Run after building:
//   npm run build && node bench/vault-kdf.mjs [--runs N]

import { argon2idJs, argon2idNode, deriveVaultKey } from '../dist/config/vault/vaultKdf.js';

const at = process.argv.indexOf('--runs');
const runs = at > 0 ? Number(process.argv[at + 1]) : 5;
const passphrase = Buffer.from('correct horse battery staple');
const salt = Buffer.alloc(16, 7);

function time(impl) {
  const ms = [];
  let key;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    key = deriveVaultKey(passphrase, salt, impl);
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  return { median: ms[Math.floor(ms.length / 2)], min: ms[0], key };
}

console.log(`node ${process.version}, ${runs} derivations each, load ${(await import('node:os')).loadavg().map((l) => l.toFixed(2)).join(' ')}`);
const js = time(argon2idJs);
console.log(`@noble/hashes  median ${js.median.toFixed(0)} ms  min ${js.min.toFixed(0)} ms`);
if (argon2idNode) {
  const native = time(argon2idNode);
  console.log(`node:crypto    median ${native.median.toFixed(0)} ms  min ${native.min.toFixed(0)} ms  (pure JS ${(js.median / native.median).toFixed(1)}x)`);
  console.log(`same key: ${native.key.equals(js.key)}`);
} else {
  console.log('node:crypto    (no argon2Sync on this Node.js: the vault uses @noble/hashes)');
}
console.log(`load after: ${(await import('node:os')).loadavg().map((l) => l.toFixed(2)).join(' ')}`);
