// The pricing example's shops as an MCP server over stdio, answering from shops-data.json beside it
// (nothing leaves the process): `search_shop` returns a shop's listings that match a product name.
// toolsets.hcl puts it in the "browsing" toolset; README.md shows the live variant (builtins.http.get).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const shops = JSON.parse(readFileSync(join(import.meta.dirname, 'shops-data.json'), 'utf8'));
const known = Object.keys(shops).filter((k) => k.startsWith('http')).join(', ');
const words = (s) => s.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 2);

const server = new McpServer({ name: 'shops', version: '1.0.0' });
server.registerTool('search_shop', {
  description: "Search one shop's catalogue for a product: its listings with title, SKU, price, currency, pack size and stock",
  inputSchema: {
    shop: z.string().describe('The shop URL, e.g. https://www.example-shop.com'),
    query: z.string().describe('The product name to search for'),
  },
  annotations: { readOnlyHint: true },
}, async ({ shop, query }) => {
  const listings = shops[shop.replace(/\/+$/, '')];
  if (!listings) return { content: [{ type: 'text', text: `No shop ${shop} in the offline data (it has: ${known}).` }], isError: true };
  const wanted = words(query);
  const found = listings.filter((l) => wanted.some((w) => words(l.title).includes(w)));
  return { content: [{ type: 'text', text: JSON.stringify({ shop, query, listings: found }, null, 2) }] };
});

await server.connect(new StdioServerTransport());
