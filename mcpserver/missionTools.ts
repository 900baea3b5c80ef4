// The tools the MCP server lists: one typed tool per exposed mission (its inputs as the input schema,
// its tasks' declared outputs in the output schema), and the generic tools of the Go original's
// mcp_host (list_missions, run_mission, list_runs, get_run_details) plus cancel_run.

import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { missionInputSchema, missionResultSchema, type LoadedProject, type Mission } from '../api/index.js';

export const GENERIC_TOOLS: readonly Tool[] = [
  {
    name: 'list_missions',
    description: 'List the missions this server exposes, with their descriptions and inputs',
    inputSchema: { type: 'object', properties: {} },
  },
  {
    name: 'run_mission',
    description: 'Start a mission. Returns at once with the run id (follow it with get_run_details).',
    inputSchema: {
      type: 'object',
      properties: { name: { type: 'string', description: 'Mission name' }, inputs: { type: 'object', description: 'Mission inputs as key-value pairs' } },
      required: ['name'],
    },
  },
  {
    name: 'list_runs',
    description: 'List recent runs, newest first, optionally of one mission',
    inputSchema: {
      type: 'object',
      properties: {
        limit: { type: 'number', description: 'Max results to return (default 20)' },
        offset: { type: 'number', description: 'Number of results to skip (default 0)' },
        mission_name: { type: 'string', description: 'Filter by mission name' },
      },
    },
  },
  {
    name: 'get_run_details',
    description: "A run's status, what it waits for, its tasks' summaries and, once completed, their outputs",
    inputSchema: { type: 'object', properties: { run_id: { type: 'string', description: 'The run id (run_…)' } }, required: ['run_id'] },
  },
  {
    name: 'cancel_run',
    description: 'Stop a run this server drives (status interrupted; `squadron resume` can continue it)',
    inputSchema: { type: 'object', properties: { run_id: { type: 'string', description: 'The run id (run_…)' } }, required: ['run_id'] },
  },
];

const GENERIC_NAMES = new Set(GENERIC_TOOLS.map((t) => t.name));

/** The missions a caller may see: those the config exposes, narrowed to the caller's list when it has one. */
export function exposedMissions(project: LoadedProject, allowed: readonly string[] | undefined): Mission[] {
  return project.graph.missions.filter((m) => m.expose !== false && (allowed === undefined || allowed.includes(m.name)));
}

/** The tool name of a mission (a mission named like a generic tool is listed as mission_<name>). */
export function missionToolName(mission: Mission): string {
  return GENERIC_NAMES.has(mission.name) ? `mission_${mission.name}` : mission.name;
}

export function missionTool(mission: Mission): Tool {
  return {
    name: missionToolName(mission),
    title: mission.name,
    description: mission.description ?? `Run the mission "${mission.name}" (${mission.tasks.length} task${mission.tasks.length === 1 ? '' : 's'})`,
    inputSchema: missionInputSchema(mission) as Tool['inputSchema'],
    outputSchema: missionResultSchema(mission) as NonNullable<Tool['outputSchema']>,
    execution: { taskSupport: 'optional' },
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
  };
}
