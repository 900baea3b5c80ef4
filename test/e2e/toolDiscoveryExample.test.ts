// examples/tool-discovery: a worker finds, loads and calls tools of a real MCP server (the example's
// shop-server.mjs over stdio) through progressive discovery, offline from its cassette. Replay checks
// every live request against the recorded one, so the run passing means the worker's requests — its
// first one carrying no shop schema, the search pages, the loaded schemas — are what was recorded.
// After a deliberate prompt or ranking change: `node dist/test/support/recordExample.js tool-discovery`.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli, tempDir } from '../support/cli.js';

const EXAMPLE = 'examples/tool-discovery';

interface CassetteTurn {
  trace: { task: string; agent: string; turn: number };
  request?: { tools?: Array<{ name: string }> };
}

describe('examples/tool-discovery', () => {
  it('finds, loads and calls two shop tools through search_tools, with the real MCP server', async () => {
    const dir = tempDir();
    const db = join(dir, 'd.db');
    const result = await runCli(['run', EXAMPLE, '--json', '--db', db, '--workspace', join(dir, 'ws')]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('24 tools (task 24) via discovery');
    const doc = JSON.parse(result.stdout);
    expect(doc.tasks.make_it_right.status).toBe('completed');
    expect(doc.tasks.make_it_right.summary).toContain('rf_1042_1');

    // The refund and the note were made by the server process, from its own data.
    const store = new Database(db, { readonly: true });
    const calls = store.prepare("SELECT api_name, result_json FROM tool_calls WHERE status = 'completed' ORDER BY id").all() as Array<{ api_name: string; result_json: string }>;
    store.close();
    // Rows are in start order: the commander's call_agent starts before the worker's calls.
    expect(calls.map((c) => c.api_name)).toEqual([
      'call_agent',
      'search_tools',
      'get_tool_schema',
      'mcp_shop_refund_order',
      'search_tools',
      'get_tool_schema',
      'mcp_shop_add_customer_note',
      'task_complete',
    ]);
    expect(calls[3]!.result_json).toContain('Refunded $89.00 to the card ending 4242 for order 1042');
    expect(calls[6]!.result_json).toContain('the profile now has 2 notes');
  });

  it("sends the worker's first request without any shop schema, and the loaded ones afterwards", () => {
    const turns = readFileSync(join(REPO_ROOT, EXAMPLE, 'cassette.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as CassetteTurn);
    const worker = turns.filter((t) => t.trace.agent === 'worker').sort((a, b) => a.trace.turn - b.trace.turn);
    const names = (t: CassetteTurn | undefined): string[] => (t?.request?.tools ?? []).map((tool) => tool.name);
    expect(names(worker[0])).toEqual(['search_tools', 'get_tool_schema']);
    expect(names(worker[2])).toEqual(['search_tools', 'get_tool_schema', 'mcp_shop_refund_order']);
    expect(names(worker.at(-1))).toEqual(['search_tools', 'get_tool_schema', 'mcp_shop_refund_order', 'mcp_shop_add_customer_note']);
  });

  it("plan shows the worker's discovery contract, with the server's description as its group line", async () => {
    const result = await runCli(['plan', EXAMPLE, '--show-prompt']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('first request carries 2 tools: search_tools, get_tool_schema');
    expect(result.stdout).toContain("- mcp.shop (24): The shop's back office: orders, refunds, products and stock, customers, returns, discounts, sales figures");
  });

  it('`squadron tools --search` ranks the refund tool first for an everyday phrasing', async () => {
    const result = await runCli(['tools', EXAMPLE, '--search', 'give the customer their money back', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const doc = JSON.parse(result.stdout) as { results: Array<{ ref: string }> };
    expect(doc.results[0]?.ref).toBe('mcp.shop.refund_order');
    expect(doc.results.length).toBeLessThanOrEqual(8);
  });
});
