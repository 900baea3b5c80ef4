// examples/pricing-research runs offline from its cassette: the gather task's worker searches both
// shops through the example's local MCP server (shops-server.mjs, answering from shops-data.json) and
// saves prices.json, the commander consults the declared pricing_expert agent, and the summarize task
// writes report.md from prices.json. Replay does not compare tool results, so the test checks that
// prices.json holds what the local server served. Re-record with
// `node dist/test/support/recordExample.js pricing-research` after a deliberate prompt change.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli, tempDir } from '../support/cli.js';

describe('examples/pricing-research', () => {
  it('gathers prices from the local shops, consults the pricing expert and writes the report, replayed at no cost', async () => {
    const dir = tempDir();
    const r = await runCli(['run', 'examples/pricing-research', '--json', '--db', join(dir, 'p.db'), '--workspace', join(dir, 'ws')], { timeoutMs: 120_000 });
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { status: string; usage: { cost_usd: number; model_turns: number }; tasks: Record<string, { status: string; summary: string }> };
    expect(doc.status).toBe('completed');
    expect(doc.usage).toMatchObject({ cost_usd: 0, model_turns: 12 });
    expect(doc.tasks['gather']!.summary).toContain('Pricing expert: Same coffee maker');

    const data = JSON.parse(readFileSync(join(REPO_ROOT, 'examples/pricing-research/shops-data.json'), 'utf8')) as Record<string, { sku: string; price: number }[]>;
    const saved = JSON.parse(readFileSync(join(dir, 'ws', 'prices.json'), 'utf8')) as { shop: string; sku: string; price: number }[];
    const served = Object.entries(data).filter(([shop]) => shop.startsWith('http')).flatMap(([shop, listings]) => listings.map((l) => [shop, l.sku, l.price]));
    expect(saved.map((l) => [l.shop, l.sku, l.price])).toEqual(served);
    const report = readFileSync(join(dir, 'ws', 'report.md'), 'utf8');
    expect(report).toContain('www.example-shop.com: 39.95 USD');
    expect(report).toContain('www.example-market.com: 44.00 USD');
  });
});
