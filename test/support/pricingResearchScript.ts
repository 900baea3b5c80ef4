// The model's side of examples/pricing-research, used to (re)record its cassette.jsonl against the fake
// model server: the gather commander has the worker search both shops (the example's local MCP server,
// answering from shops-data.json) and save prices.json, then asks the pricing expert about the bundle
// listing; the summarize task's worker reads prices.json and writes report.md.

import type { FakeRequest } from './fakeTypes.js';
import { callAgent, lastToolResult, taskComplete, toolCall, turnScript, type TurnScript } from './turnScript.js';

interface Listing { title: string; sku: string; price: number; currency: string; pack: string; in_stock: boolean }
const SHOPS = ['https://www.example-shop.com', 'https://www.example-market.com'];

/** The texts of the tool results of the newest message (a turn's parallel calls), in call order. */
function toolResults(request: FakeRequest): string[] {
  const last = request.canonical.messages.at(-1)!;
  return last.parts.flatMap((p) => (p.type === 'tool_result' ? [p.content.map((c) => (c.type === 'text' ? c.text : '')).join('')] : []));
}

export function pricingResearchScript(): TurnScript {
  let prices = '';
  return turnScript({
    'commander of task "gather"': [
      callAgent('worker', 'Search https://www.example-shop.com and https://www.example-market.com for "Aeropress Go coffee maker". Save every matching listing (shop, title, SKU, price, currency, pack, stock) to prices.json, then tell me which listings are the coffee maker itself.'),
      (req) => {
        const reply = JSON.parse(lastToolResult(req)) as { answer: string };
        return callAgent('pricing_expert', `A shop lists "Aeropress Go travel coffee press + 350 filters bundle" (SKU MK-88213) at 44.00 USD; another lists "AeroPress Go Portable Coffee Maker" (SKU APGO-1) at 39.95 USD and the 350 filters alone at 8.50 USD. Is the bundle the same product, and is its price comparable? Context from the worker: ${reply.answer}`);
      },
      (req) => {
        const expert = JSON.parse(lastToolResult(req)) as { answer: string };
        return taskComplete(`prices.json holds the listings of both shops. Aeropress Go: 39.95 USD at example-shop.com (APGO-1); example-market.com sells it only in a bundle with 350 filters at 44.00 USD (MK-88213). Pricing expert: ${expert.answer}`);
      },
    ],
    'commander of task "summarize"': [
      callAgent('worker', 'Read prices.json and write a short comparison of the Aeropress Go prices to report.md: one line per shop, and which is cheaper for the coffee maker alone.'),
      (req) => {
        const reply = JSON.parse(lastToolResult(req)) as { answer: string };
        return taskComplete(`Wrote report.md. ${reply.answer}`);
      },
    ],
    'You are a pricing analyst': [
      { text: 'Same coffee maker (the Go), but not comparable as is: the bundle adds 350 filters worth 8.50 USD at the other shop, so the press alone costs about 35.50 USD there, cheaper than 39.95 USD. Fairly sure: the titles and pack sizes agree.' },
    ],
    'worker agent of task "gather"': [
      { toolCalls: SHOPS.map((shop) => ({ name: 'mcp_shops_search_shop', input: { shop, query: 'Aeropress Go coffee maker' } })) },
      (req) => {
        const found = toolResults(req).map((text) => JSON.parse(text) as { shop: string; listings: Listing[] });
        prices = JSON.stringify(found.flatMap((r) => r.listings.map((l) => ({ shop: r.shop, ...l }))), null, 2);
        return toolCall('builtins_files_write', { path: 'prices.json', content: `${prices}\n` });
      },
      () => {
        const rows = JSON.parse(prices) as (Listing & { shop: string })[];
        return { text: `Saved ${rows.length} listings to prices.json. The coffee maker itself: ${rows.filter((r) => /go/i.test(r.title)).map((r) => `${r.sku} at ${r.price} ${r.currency} (${r.pack})`).join('; ')}.` };
      },
    ],
    'worker agent of task "summarize"': [
      toolCall('builtins_files_read', { path: 'prices.json' }),
      (req) => {
        const rows = JSON.parse(lastToolResult(req)) as (Listing & { shop: string })[];
        const go = rows.filter((r) => /go/i.test(r.title));
        const lines = go.map((r) => `- ${new URL(r.shop).hostname}: ${r.price.toFixed(2)} ${r.currency} for ${r.title} (${r.pack})`);
        const report = ['# Aeropress Go coffee maker: prices', '', ...lines, '', 'The bundle includes 350 filters (8.50 USD alone), so the press alone is cheaper at www.example-market.com (about 35.50 USD).', ''].join('\n');
        return toolCall('builtins_files_write', { path: 'report.md', content: report });
      },
      () => ({ text: 'report.md compares the two shops: 39.95 USD alone at example-shop.com, 44.00 USD with 350 filters at example-market.com.' }),
    ],
  });
}
