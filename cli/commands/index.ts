// Every command of the CLI, in the order `squadron --help` lists them. A command's module (and all
// it imports) is loaded only when needed: `squadron validate …` reads the validate module and never
// the runtime, so start-up stays proportional to the command that runs.

import type { CommandRegistrar } from '../io.js';

export interface CommandEntry {
  name: string;
  load: () => Promise<{ register: CommandRegistrar }>;
}

export const commands: readonly CommandEntry[] = [
  { name: 'init', load: () => import('./init.js') },
  { name: 'validate', load: () => import('./validate.js') },
  { name: 'fmt', load: () => import('./fmt.js') },
  { name: 'plan', load: () => import('./plan.js') },
  { name: 'tools', load: () => import('./tools.js') },
  { name: 'graph', load: () => import('./graph.js') },
  { name: 'run', load: () => import('./run.js') },
  { name: 'resume', load: () => import('./resume.js') },
  { name: 'chat', load: () => import('./chat.js') },
  { name: 'test', load: () => import('./test.js') },
  { name: 'approve', load: () => import('./approve.js') },
  { name: 'deny', load: () => import('./deny.js') },
  { name: 'answer', load: () => import('./answer.js') },
  { name: 'fork', load: () => import('./fork.js') },
  { name: 'diff', load: () => import('./diff.js') },
  { name: 'runs', load: () => import('./runs.js') },
  { name: 'inspect', load: () => import('./inspect.js') },
  { name: 'logs', load: () => import('./logs.js') },
  { name: 'worker', load: () => import('./worker.js') },
  { name: 'serve', load: () => import('./serve.js') },
  { name: 'ui', load: () => import('./ui.js') },
  { name: 'token', load: () => import('./token.js') },
  { name: 'mcp', load: () => import('./mcp.js') },
  { name: 'vars', load: () => import('./vars.js') },
  { name: 'docs', load: () => import('./docs.js') },
];
