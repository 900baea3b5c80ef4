// A stdio MCP server that misbehaves on purpose, speaking JSON-RPC by hand (the SDK would not let
// it): `deep` answers structuredContent nested 100,000 levels, `bad_schema` a result whose content
// is not a list, `huge` a 100 MB result, `exit_after` answers and then exits, `pid` its process id.

import { createInterface } from 'node:readline';

const TOOLS = ['deep', 'bad_schema', 'huge', 'exit_after', 'pid'].map((name) => ({ name, description: `hostile ${name}`, inputSchema: { type: 'object', properties: {} } }));

function send(text) {
  return new Promise((resolve) => process.stdout.write(`${text}\n`, () => resolve()));
}

const respond = (id, result) => send(JSON.stringify({ jsonrpc: '2.0', id, result }));

async function call(id, name) {
  switch (name) {
    case 'deep': {
      const depth = 100_000;
      return send(`{"jsonrpc":"2.0","id":${id},"result":{"content":[],"structuredContent":{"a":${'['.repeat(depth)}${']'.repeat(depth)}}}}`);
    }
    case 'bad_schema':
      return respond(id, { content: 'not a list', isError: 'sometimes' });
    case 'huge': {
      const mb = 'x'.repeat(1024 * 1024);
      process.stdout.write(`{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":"`);
      for (let i = 0; i < 100; i++) if (!process.stdout.write(mb)) await new Promise((r) => process.stdout.once('drain', r));
      return send('"}]}}');
    }
    case 'exit_after':
      await respond(id, { content: [{ type: 'text', text: `answered by ${process.pid}` }] });
      process.exit(0);
      return undefined;
    default:
      return respond(id, { content: [{ type: 'text', text: `pid ${process.pid}` }] });
  }
}

process.stdout.on('error', () => process.exit(0));
for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === '') continue;
  const msg = JSON.parse(line);
  if (msg.id === undefined) continue;
  if (msg.method === 'initialize') await respond(msg.id, { protocolVersion: msg.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'hostile', version: '1.0.0' } });
  else if (msg.method === 'tools/list') await respond(msg.id, { tools: TOOLS });
  else if (msg.method === 'tools/call') await call(msg.id, msg.params.name);
  else await send(JSON.stringify({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'not here' } }));
}
