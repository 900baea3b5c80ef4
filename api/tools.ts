// A task's authorized tools (`squadron tools`, with their provenance) and the ranked page its worker's
// search_tools would return for a query: computed as a run computes them, calling no tool and no model.

import type { TaskSpec } from '../config/graph.js';
import type { ListedTool, RankedListedTool } from '../runtime/plan/plan.js';
import { SquadronError } from './errors.js';
import { selectMission, type LoadedProject } from './project.js';

export type { ListedTool, RankedListedTool };

export interface ToolsRequest {
  config: LoadedProject;
  /** Needed when the config declares several missions. */
  mission?: string;
  /** Needed unless exactly one task of the mission has a worker. */
  task?: string;
  /** Told about each tool that is unavailable (an MCP server that cannot be reached). */
  onWarning?: (message: string) => void;
}

/** One page of a search: at most `pageSize` tools, best first, as search_tools ranks them. */
export interface ToolSearchPage {
  results: RankedListedTool[];
  total: number;
  /** The next page's number, when there are more results. */
  nextPage?: number;
}

export interface TaskTools {
  task: string;
  tools: ListedTool[];
  /** The worker's search over these tools (the same ranking as search_tools); `page` from 1. */
  search(query: string, group?: string, page?: number): ToolSearchPage;
  /** How many results a page holds. */
  pageSize: number;
  /** A description on one line, as search results give it. */
  oneLine(text: string): string;
}

/** The tools the task's worker would hold; a SquadronError `not_found` or `usage` when the task cannot be chosen. */
export async function taskTools(req: ToolsRequest): Promise<TaskTools> {
  const [{ workerTools }, { createRunTools }, { PAGE_SIZE, oneLine }] = await Promise.all([
    import('../runtime/plan/plan.js'),
    import('../runtime/run/toolResolver.js'),
    import('../runtime/discovery/index.js'),
  ]);
  const graph = req.config.graph;
  const mission = selectMission(graph, req.mission);
  const task = pickTask(mission.tasks, req.task);
  const runTools = createRunTools(graph, (ref, message) => req.onWarning?.(`tool ${ref} is unavailable: ${message}`));
  try {
    const listing = await workerTools({ graph, mission, inputs: {}, overrides: { noTools: false, skills: [], noSkills: false }, tools: runTools.resolver }, task);
    const search = (query: string, group?: string, page?: number): ToolSearchPage => {
      const { next_page: nextPage, ...found } = listing.search(query, group, page);
      return { ...found, ...(nextPage !== undefined ? { nextPage } : {}) };
    };
    return { task: task.name, tools: listing.tools, search, pageSize: PAGE_SIZE, oneLine };
  } finally {
    await runTools.close();
  }
}

function pickTask(tasks: readonly TaskSpec[], name: string | undefined): TaskSpec {
  if (name !== undefined) {
    const task = tasks.find((t) => t.name === name);
    if (!task) throw new SquadronError('not_found', `no task "${name}" (tasks: ${tasks.map((t) => t.name).join(', ')})`);
    return task;
  }
  const withTools = tasks.filter((t) => t.worker);
  if (withTools.length === 1) return withTools[0]!;
  throw new SquadronError('usage', `choose a task with --task (tasks with tools: ${withTools.map((t) => t.name).join(', ') || 'none'})`);
}
