// `vault { provider = "file" | "keychain" }` (Go's, at most one): which key provider Go uses. Here the
// key is always found the same way (config/vault/vaultKey.ts), so `file` is accepted as is and
// `keychain` with a warning that says where the key must come from instead.

import type { Block } from '../hcl/ast.js';
import { diagnosticAt, type Diagnostic } from '../hcl/diagnostic.js';
import { blockHeader, decodeBody, type BlockSchema } from '../schema.js';
import { scopeFor, type LoadContext } from '../scope.js';
import { readString } from '../values.js';

const SCHEMA: BlockSchema = { attributes: { provider: {} } };

export function checkVaultBlocks(blocks: readonly Block[], ctx: LoadContext): void {
  const diags: Diagnostic[] = ctx.diags;
  for (const [i, block] of blocks.entries()) {
    if (block.labels.length > 0) diags.push(diagnosticAt(block.labelRanges[0]!, 'error', 'SCH006', 'a vault block takes no name', 'write vault { … }'));
    if (i > 0) diags.push(diagnosticAt(block.typeRange, 'error', 'SCH005', 'vault block declared more than once', 'keep one vault block'));
    const body = decodeBody(block.body, SCHEMA, { what: 'vault', header: blockHeader(block) }, diags);
    const attr = body.attrs.get('provider');
    const provider = readString(attr, scopeFor(ctx, 'variable', 'a vault block'), diags);
    if (provider === undefined || provider === 'file') continue;
    if (provider === 'keychain') {
      diags.push(diagnosticAt(attr!.expr.range, 'warning', 'VLT003', 'the keychain vault provider is not supported: the vault key is read from SQUADRON_VAULT_KEY, /run/secrets/vault_passphrase or .squadron/vault.key', 'put the passphrase from your keychain in SQUADRON_VAULT_KEY'));
    } else {
      diags.push(diagnosticAt(attr!.expr.range, 'error', 'SCH010', `unknown vault provider "${provider}"`, 'supported: file, keychain'));
    }
  }
}
