// Prints the size of a worker's first model request (system prompt + tools JSON) for the fixture
// catalog (bench/fixtures/catalog.json, 114 tools): with every tool definition sent up front, and with
// discovery (contract in the prompt + the two discovery tool definitions). Figures are printed, never
// asserted.
//
//   npm run build && node bench/prompt-size.mjs [--placeholder]
//
// Tools JSON is the canonical ToolDefinition list ({name, description, inputSchema}) serialized
// compactly; provider adapters rename fields (input_schema, parameters) at about the same size.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const discovery = await import(`${root}dist/runtime/discovery/index.js`);
const { buildAgentToolbox } = await import(`${root}dist/runtime/agents/agentToolbox.js`);
const { renderPrompt } = await import(`${root}dist/core/promptTemplates.js`);

const catalog = JSON.parse(readFileSync(`${root}bench/fixtures/catalog.json`, 'utf8'));
const tools = catalog.tools.map((t) => ({ ...t, execute: async () => ({ content: [], isError: false }) }));
const groupDescriptions = Object.fromEntries(catalog.groups.map((g) => [g.name, g.description]));

// ---------------------------------------------------------------- the worker's base system prompt
// SWAP POINT: `baseSystemPrompt(discoverySection)` must return the worker's full system prompt with
// the discovery section inserted (or without it when the argument is undefined). It renders the
// lead's prompts/worker.md; `--placeholder` uses the ~1 KB stand-in text below instead.
const PLACEHOLDER_BASE = `PLACEHOLDER worker prompt (about 1 KB), standing in for prompts/worker.md.
You are the worker agent of task "triage_backlog" in mission "agency_ops". The mission: keep client
work moving across CRM, billing, support, calendars, documents and code.

The task's objective:
Go through this week's open support tickets, link each to the client's CRM record and open invoices,
and prepare a short status note per client for the account managers.

A commander coordinates this task. It sends you instructions as user messages; carry each one out with
your tools, then reply with your answer as plain text, without any tool call. That reply goes back to
the commander, so make it complete: the facts found, what you did, and anything that failed.

Rules:
- Use only the tools you hold. Call them through native function calling; independent calls may be
  made together in one reply.
- Never invent tool output, data or results. If a tool fails, read its error, correct the call or try
  another way; if it still cannot be done, say exactly what failed.
- Keep replies focused on the instruction you were given.
`;

function baseSystemPrompt(discoverySection) {
  if (process.argv.includes('--placeholder')) {
    return discoverySection ? `${PLACEHOLDER_BASE}\n${discoverySection}` : PLACEHOLDER_BASE;
  }
  return renderPrompt('worker', {
    task: 'triage_backlog',
    mission: 'agency_ops',
    missionDescription: 'Keep client work moving across CRM, billing, support, calendars, documents and code.',
    objective:
      "Go through this week's open support tickets, link each to the client's CRM record and open invoices, " +
      'and prepare a short status note per client for the account managers.',
    discovery: discoverySection ?? '',
    skills: '',
  });
}

// ---------------------------------------------------------------- measure
const bytes = (s) => Buffer.byteLength(s, 'utf8');
const definition = (t) => ({ name: t.apiName, description: t.description, inputSchema: t.inputSchema });

function request(system, toolDefs) {
  const toolsJson = JSON.stringify(toolDefs);
  return { system: bytes(system), tools: bytes(toolsJson), total: bytes(system) + bytes(toolsJson) };
}

const index = discovery.createToolIndex(tools, { groupDescriptions });
const contract = discovery.renderDiscoveryContract(discovery.contractGroups(index, groupDescriptions));
const contractNoDesc = discovery.renderDiscoveryContract(discovery.contractGroups(index));

const full = request(baseSystemPrompt(undefined), tools.map(definition));

// The tool lists come from the worker's real toolbox: first turn, and a later turn after three tools
// were loaded through get_tool_schema (they are then sent in full).
const toolbox = await buildAgentToolbox(
  {
    resolver: { resolve: async () => [] },
    toolContext: () => {
      throw new Error('the bench never runs a tool');
    },
    stored: [],
    onLoaded: () => {},
  },
  { name: 'worker', tools, skills: [], preloadedSkills: [], discovery: { alwaysLoad: [], index }, given: { tools: [], skills: [] }, warnings: [] },
);
const firstTurnTools = toolbox.definitionsForTurn();
const withDiscovery = request(baseSystemPrompt(contract), firstTurnTools);
const withDiscoveryNoDesc = request(baseSystemPrompt(contractNoDesc), firstTurnTools);
for (const name of ['tools_tickets_search_tickets', 'tools_crm_search_contacts', 'tools_billing_list_invoices']) {
  await toolbox.resolve('get_tool_schema').execute({ callId: name, input: { name }, signal: new AbortController().signal });
}
const afterLoads = request(baseSystemPrompt(contract), toolbox.definitionsForTurn());

const row = (label, r) =>
  console.log(`${label.padEnd(44)}${String(r.system).padStart(8)}${String(r.tools).padStart(9)}${String(r.total).padStart(9)}${`${((100 * r.total) / full.total).toFixed(1)}%`.padStart(9)}`);

const custom = tools.filter((t) => t.source === 'custom').length;
console.log(`${tools.length} tools (${custom} custom, ${tools.length - custom} MCP) in ${index.groups().length} groups; base prompt: ${process.argv.includes('--placeholder') ? 'placeholder' : 'prompts/worker.md'}\n`);
console.log(`${'first worker request'.padEnd(44)}${'system'.padStart(8)}${'tools'.padStart(9)}${'total'.padStart(9)}${'ratio'.padStart(9)}`);
row('full catalog (every definition up front)', full);
row('discovery (contract + 2 discovery tools)', withDiscovery);
row('discovery, groups without descriptions', withDiscoveryNoDesc);
row('later turn: discovery + 3 loaded tools', afterLoads);
console.log(`\ncontract alone: ${bytes(contract)} bytes; discovery tool definitions: ${bytes(JSON.stringify(discovery.discoveryToolDefinitions()))} bytes`);
console.log(`ratio discovery / full: ${(withDiscovery.total / full.total).toFixed(3)} (target <= 0.20)`);
