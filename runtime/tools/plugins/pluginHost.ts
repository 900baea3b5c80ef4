// The run's Go plugins: each started once on first use (located, launched, configured with its
// settings as Go does: three attempts), its tools listed and turned into ToolSpecs, all stopped at the
// end. A plugin that cannot start is an error naming it, its program and why.

import type { PluginBlock } from '../../../config/graph.js';
import { apiNameOf } from '../../../config/toolNames.js';
import { textResult, type ToolContext, type ToolResult, type ToolSpec } from '../types.js';
import { invalidInputResult, validateToolInput } from '../inputValidation.js';
import { locatePlugin } from './pluginLocation.js';
import { startPlugin, type PluginToolInfo, type RunningPlugin } from './pluginProcess.js';

export interface PluginHost {
  listTools(plugin: PluginBlock): Promise<ToolSpec[]>;
  /** The plugin's tools as it reports them (names, descriptions, schemas), for validate and plan. */
  describe(plugin: PluginBlock): Promise<PluginToolInfo[]>;
  closeAll(): void;
}

interface Started {
  running: RunningPlugin;
  tools: PluginToolInfo[];
}

export function createPluginHost(projectRoot: string, opts: { configureRetryMs?: number } = {}): PluginHost {
  const started = new Map<string, Promise<Started>>();
  const live: RunningPlugin[] = [];

  async function start(plugin: PluginBlock): Promise<Started> {
    const where = `plugin "${plugin.name}" (version ${plugin.version})`;
    const cmd = locatePlugin(plugin, projectRoot);
    if ('error' in cmd) throw new Error(`${where} failed to load: ${cmd.error}`);
    let running: RunningPlugin;
    try {
      running = await startPlugin(cmd);
    } catch (err) {
      throw new Error(`${where} failed to start (${cmd.command}): ${message(err)}`);
    }
    live.push(running);
    const empty = Object.entries(plugin.settings).filter(([, v]) => v === '').map(([k]) => k);
    if (empty.length > 0) throw new Error(`plugin "${plugin.name}" failed to configure: settings ${empty.join(', ')} are empty — check that the corresponding variables are set`);
    if (Object.keys(plugin.settings).length > 0) await configureWithRetry(running, plugin, opts.configureRetryMs ?? 500);
    try {
      return { running, tools: await running.listTools() };
    } catch (err) {
      throw new Error(`${where} could not list its tools: ${message(err)}`);
    }
  }

  function get(plugin: PluginBlock): Promise<Started> {
    let p = started.get(plugin.name);
    if (!p) {
      p = start(plugin);
      started.set(plugin.name, p);
    }
    return p;
  }

  return {
    async describe(plugin) {
      return (await get(plugin)).tools;
    },
    async listTools(plugin) {
      const { running, tools } = await get(plugin);
      return tools.map((info) => pluginToolSpec(plugin, info, running));
    },
    closeAll() {
      for (const r of live.splice(0)) r.close();
      started.clear();
    },
  };
}

async function configureWithRetry(running: RunningPlugin, plugin: PluginBlock, delayMs: number): Promise<void> {
  let last: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await running.configure(plugin.settings);
    } catch (err) {
      last = err;
      if (attempt < 2) await new Promise((r) => setTimeout(r, delayMs));
    }
  }
  throw new Error(`plugin "${plugin.name}" failed to configure: ${message(last)}`);
}

function pluginToolSpec(plugin: PluginBlock, info: PluginToolInfo, running: RunningPlugin): ToolSpec {
  const ref = `plugins.${plugin.name}.${info.name}`;
  const apiName = apiNameOf(ref);
  return {
    ref,
    apiName,
    description: info.description || `Tool "${info.name}" of plugin "${plugin.name}".`,
    inputSchema: info.inputSchema,
    group: `plugins.${plugin.name}`,
    source: 'plugin',
    idempotent: false,
    async execute(input: unknown, ctx: ToolContext): Promise<ToolResult> {
      const args = input === undefined || input === null ? {} : input;
      const checked = validateToolInput(info.inputSchema, args);
      if (!checked.ok) return invalidInputResult(apiName, checked.errors);
      try {
        return textResult(await running.call(info.name, JSON.stringify(checked.value), ctx.signal));
      } catch (err) {
        return textResult(`plugin "${plugin.name}" tool "${info.name}" failed: ${message(err)}`, true);
      }
    },
  };
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
