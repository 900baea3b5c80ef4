// The Go original's `mcp_host { enabled, port, secret }`: checked as Go checks it (strict attributes,
// port 1024–65535, references resolved), then noted: here the MCP server is `squadron mcp serve`
// (stdio) and /mcp on `squadron serve` behind its tokens, so the block's settings are not used.

import type { Block } from '../hcl/ast.js';
import { diagnosticAt } from '../hcl/diagnostic.js';
import { decodeBody, type BlockSchema } from '../schema.js';
import { scopeFor, type LoadContext } from '../scope.js';
import { readBool, readInteger, readString } from '../values.js';

const SCHEMA: BlockSchema = { attributes: { enabled: {}, port: {}, secret: {} } };

export function checkMcpHost(blocks: readonly Block[], ctx: LoadContext): void {
  // Go keeps the last block; each is checked.
  for (const block of blocks) {
    if (block.labels.length > 0) ctx.diags.push(diagnosticAt(block.labelRanges[0]!, 'error', 'SCH006', 'the mcp_host block takes no label', 'write mcp_host { enabled = true }'));
    const scope = scopeFor(ctx, 'model', 'the mcp_host block');
    const body = decodeBody(block.body, SCHEMA, { what: 'the mcp_host block', header: block.typeRange }, ctx.diags);
    readBool(body.attrs.get('enabled'), scope, ctx.diags);
    readString(body.attrs.get('secret'), scope, ctx.diags);
    const portAttr = body.attrs.get('port');
    const port = readInteger(portAttr, scope, ctx.diags, 0);
    if (port !== undefined && portAttr !== undefined && (port < 1024 || port > 65535)) {
      ctx.diags.push(diagnosticAt(portAttr.expr.range, 'error', 'GO015', `mcp_host port must be between 1024 and 65535, got ${port}`, 'Go Squadron refuses it too; the port is not used here (squadron serve --port)'));
    }
    ctx.diags.push(
      diagnosticAt(
        block.typeRange,
        'warning',
        'GO014',
        'the mcp_host block of Go Squadron is accepted, but its settings are not used',
        'missions are MCP tools with `squadron mcp serve` (stdio, for desktop clients) and at /mcp on `squadron serve` (its --port, and bearer tokens from `squadron token create` instead of secret); see squadron docs mcp-server',
      ),
    );
  }
}
