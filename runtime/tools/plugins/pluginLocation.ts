// Where a Go Squadron plugin's program is, as Go finds it: a local `source` (version = "local") that
// is the built program itself or a folder holding `runner.json` or a `plugin` binary; otherwise the
// installed copy under `<home>/plugins/<os>-<arch>/<name>/<version>/` (home: SQUADRON_HOME or the
// project's `.squadron/`). Building from Go or Python sources and downloading GitHub releases are
// Go's jobs that need its toolchain: here they are errors that say how to provide the program.

import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { z } from 'zod';
import type { PluginBlock } from '../../../config/graph.js';
import type { PluginCommand } from './pluginProcess.js';

const Runner = z.object({ kind: z.string().optional(), entry: z.string().min(1), args: z.array(z.string()).optional() });

/** Go's `runtime.GOOS-runtime.GOARCH` for this machine (`linux-amd64`, `darwin-arm64`). */
export function platformDir(): string {
  const arch = process.arch === 'x64' ? 'amd64' : process.arch === 'ia32' ? '386' : process.arch;
  const os = process.platform === 'win32' ? 'windows' : process.platform;
  return `${os}-${arch}`;
}

export function pluginInstallDir(plugin: PluginBlock, projectRoot: string): string {
  const home = process.env['SQUADRON_HOME'] ? resolve(process.env['SQUADRON_HOME']) : join(projectRoot, '.squadron');
  return join(home, 'plugins', platformDir(), plugin.name, plugin.version);
}

/** The command that starts the plugin, or a sentence saying why there is none. */
export function locatePlugin(plugin: PluginBlock, projectRoot: string): PluginCommand | { error: string } {
  const local = plugin.source !== undefined && !plugin.source.startsWith('github.com/');
  const dir = local ? plugin.source! : pluginInstallDir(plugin, projectRoot);
  if (!existsSync(dir)) {
    return local
      ? { error: `its source ${dir} does not exist` }
      : { error: `it is not installed at ${dir} (Squadron does not download plugin releases: unpack the release's program there, or point source at a built program with version = "local")` };
  }
  if (statSync(dir).isFile()) return { command: dir, args: [], cwd: projectRoot };
  const runnerFile = join(dir, 'runner.json');
  if (existsSync(runnerFile)) {
    const parsed = Runner.safeParse(safeJson(readFileSync(runnerFile, 'utf8')));
    if (!parsed.success) return { error: `${runnerFile} is not a valid runner file (it needs "entry")` };
    const entry = isAbsolute(parsed.data.entry) ? parsed.data.entry : join(dir, parsed.data.entry);
    if (!existsSync(entry)) return { error: `its entry ${entry} (from runner.json) does not exist` };
    return { command: entry, args: parsed.data.args ?? [], cwd: dir };
  }
  const binary = join(dir, process.platform === 'win32' ? 'plugin.exe' : 'plugin');
  if (existsSync(binary)) return { command: binary, args: [], cwd: dir };
  const sources = ['go.mod', 'pyproject.toml'].filter((f) => existsSync(join(dir, f)));
  if (sources.length > 0) {
    return { error: `${dir} holds ${sources.join(' and ')} sources, which Squadron does not build: build the plugin and point source at the program (or add a runner.json or a "plugin" binary to the folder)` };
  }
  return { error: `no runner.json or plugin binary found in ${dir}` };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
