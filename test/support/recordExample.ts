// Re-records an offline example's cassette.jsonl: runs the example against the fake model server
// (scripted by its script module) with `--record`, its model block pointed at that server. Run it
// after a deliberate prompt or ranking change and review the cassette diff like code:
//
//   npx tsc -p tsconfig.json && node dist/test/support/recordExample.js quickstart|tool-discovery|ticket-triage|support-triage|weather-report|pricing-research

import { spawn } from 'node:child_process';
import { copyFileSync, cpSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assetPath } from '../../core/assets.js';
import { startFakeModelServer } from './fakeModelServer.js';
import { quickstartScript } from './quickstartScript.js';
import { toolDiscoveryScript } from './toolDiscoveryScript.js';
import { ticketTriageScript } from './ticketTriageScript.js';
import { supportTriageScript } from './supportTriageScript.js';
import { weatherReportScript } from './weatherReportScript.js';
import { pricingResearchScript } from './pricingResearchScript.js';
import type { TurnScript } from './turnScript.js';

const SCRIPTS: Record<string, () => TurnScript> = {
  quickstart: quickstartScript,
  'tool-discovery': toolDiscoveryScript,
  'ticket-triage': ticketTriageScript,
  'support-triage': supportTriageScript,
  'weather-report': weatherReportScript,
  'pricing-research': pricingResearchScript,
};
// The provider each example's recording speaks (its model keys are that provider's); anthropic if not named.
const PROVIDERS: Record<string, 'anthropic' | 'openai'> = { 'support-triage': 'openai' };

const name = process.argv[2] ?? '';
const makeScript = SCRIPTS[name];
if (!makeScript) {
  process.stderr.write(`usage: node dist/test/support/recordExample.js ${Object.keys(SCRIPTS).join('|')}\n`);
  process.exit(2);
}
const example = assetPath('examples', name);
const script = makeScript();
const server = await startFakeModelServer({ respond: script.respond });
try {
  // The whole example is copied (an MCP server script lives next to its mission), minus the cassette.
  const dir = mkdtempSync(join(tmpdir(), 'squadron-record-'));
  cpSync(example, dir, { recursive: true, filter: (src) => !src.endsWith('cassette.jsonl') && !/[\/]\.squadron([\/]|$)/.test(src) });
  // So that the copied server script resolves the SDK as it does in place.
  symlinkSync(assetPath('node_modules'), join(dir, 'node_modules'), 'dir');
  // The file holding the model "offline" block (an example may split its config over several files).
  const mission = readdirSync(dir).find((f) => f.endsWith('.hcl') && readFileSync(join(dir, f), 'utf8').includes('model "offline"')) ?? 'mission.hcl';
  const provider = PROVIDERS[name] ?? 'anthropic';
  const baseURL = provider === 'openai' ? server.openaiBaseURL : server.anthropicBaseURL;
  const hcl = readFileSync(join(dir, mission), 'utf8').replace(
    /model "offline" \{[^}]*\}/,
    `model "offline" {\n  provider = "${provider}"\n  base_url = "${baseURL}"\n  api_key  = "recording-key-not-secret"\n}`,
  );
  writeFileSync(join(dir, mission), hcl);
  const cassette = join(dir, 'cassette.jsonl');
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, [assetPath('dist', 'cli', 'main.cjs'), 'run', dir, '--record', cassette], { cwd: dir, stdio: 'inherit' });
    child.on('close', resolve);
  });
  const problems = [...script.problems, ...server.errors];
  if (code !== 0 || problems.length > 0) {
    process.stderr.write(`recording failed (exit ${code}): ${problems.join('; ')}\n`);
    process.exitCode = 1;
  } else {
    copyFileSync(cassette, join(example, 'cassette.jsonl'));
    process.stdout.write(`recorded ${readFileSync(cassette, 'utf8').trim().split('\n').length} model turns into examples/${name}/cassette.jsonl\n`);
  }
} finally {
  await server.close();
}
