// examples/weather-report runs offline from its cassette: the worker geocodes Lyon and fetches its
// forecast from the example's own MCP server (weather-server.mjs, answering from weather-data.json),
// then writes report.md from those figures. Replay does not compare tool results, so the test checks
// that the figures in the report are the ones the local server served. After a deliberate prompt
// change, re-record with `node dist/test/support/recordExample.js weather-report` and review the diff.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli, tempDir } from '../support/cli.js';

describe('examples/weather-report', () => {
  it('writes the report from the local MCP server\'s data, replayed at no cost', async () => {
    const dir = tempDir();
    const db = join(dir, 'w.db');
    const r = await runCli(['run', 'examples/weather-report', '--json', '--db', db, '--workspace', join(dir, 'ws')], { timeoutMs: 120_000 });
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { status: string; usage: { cost_usd: number; model_turns: number } };
    expect(doc.status).toBe('completed');
    expect(doc.usage).toMatchObject({ cost_usd: 0, model_turns: 6 });

    const data = JSON.parse(readFileSync(join(REPO_ROOT, 'examples/weather-report/weather-data.json'), 'utf8'));
    const lyon = data.forecasts['45.7485,4.8467'].daily;
    const report = readFileSync(join(dir, 'ws', 'report.md'), 'utf8');
    for (let i = 0; i < 3; i++) expect(report).toContain(`| ${lyon.time[i]} | ${lyon.temperature_2m_max[i]} °C | ${lyon.precipitation_sum[i]} mm |`);
    expect(report).not.toContain(lyon.time[3]);

    // The MCP server process answered both calls from its data file.
    const store = new Database(db, { readonly: true });
    const calls = store.prepare("SELECT api_name, status, result_json FROM tool_calls WHERE api_name LIKE 'mcp_weather_%' ORDER BY id").all() as { api_name: string; status: string; result_json: string }[];
    store.close();
    expect(calls.map((c) => [c.api_name, c.status])).toEqual([['mcp_weather_geocode', 'completed'], ['mcp_weather_forecast', 'completed']]);
    expect(calls[0]!.result_json).toContain('45.7485');
    expect(calls[1]!.result_json).toContain('11.5');
  });
});
