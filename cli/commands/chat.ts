// `squadron chat [agent] [path]`: talks with one agent of the config, its tools included. Replies go
// to stdout as they stream (whole lines, so the secret mask sees each value whole), tool calls and
// notes to stderr. The chat is stored as a run (its id is printed first and last); `--resume <id>`
// continues it, after an exit or a kill. Piped, each line of stdin is one message and EOF ends it.

import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { chatAgentOf } from '../../core/chatRuns.js';
import type { Chat, ChatReply, RunEvent } from '../../api/index.js';
import { chatInput, type ChatInput } from '../chatInput.js';
import { DB_OPTION_HELP, openStoreWithRun, runDbPath, storeCommand } from '../databaseAccess.js';
import { CliError, collect, EXIT, parseKeyValues, type CliIo } from '../io.js';
import { SCHEMA_VERSION } from '../json.js';
import { linePrompt } from '../operatorPrompt.js';
import { loadProject, type LoadedProject } from '../project.js';
import { escapeJsonControls } from '../terminalSafe.js';

interface ChatFlags {
  config?: string;
  resume?: string;
  var: string[];
  db?: string;
  workspace?: string;
  json?: boolean;
}

/** What ends the chat when typed as a message (`exit` and `quit` as the Go original has them). */
const EXIT_WORDS = new Set(['/exit', '/quit', 'exit', 'quit']);
/** Earlier messages shown when a chat is resumed. */
const SHOWN_HISTORY = 4;

export function register(program: Command, io: CliIo): void {
  program
    .command('chat')
    .description('Chat with one agent of the config and its tools (stored like a run; --resume continues it)')
    .argument('[agent]', 'the agent to chat with (asked for on a terminal when the config has several)')
    .argument('[path]', 'an .hcl file or a directory of them (default: the current folder, or the chat\'s own with --resume); an existing folder or .hcl file given alone is taken as the path')
    .option('-c, --config <path>', 'the config, as [path]')
    .option('--resume <chat-id>', 'continue a stored chat (its id is printed when a chat starts and ends)')
    .option('--var <name=value>', 'a variable value (repeatable)', collect, [])
    .option('--db <path>', DB_OPTION_HELP)
    .option('--workspace <dir>', 'directory for the file tools (default: .squadron/workspaces/<chat-id>)')
    .option('--json', 'print each reply as one JSON document per line on stdout (JSON Lines), nothing streamed')
    .action(async (agent: string | undefined, path: string | undefined, flags: ChatFlags) => {
      io.exitCode = await chatCommand(io, agent, path, flags);
    });
}

async function chatCommand(io: CliIo, agentGiven: string | undefined, pathGiven: string | undefined, flags: ChatFlags): Promise<number> {
  // One argument that is a folder or an .hcl file on disk is the config, as for the other commands.
  const [agentArg, pathArg] = pathGiven === undefined && agentGiven !== undefined && flags.config === undefined && isConfigPath(io, agentGiven) ? [undefined, agentGiven] : [agentGiven, pathGiven];
  if (pathArg !== undefined && flags.config !== undefined) throw new CliError('give the config once: as [path] or with --config');
  const stored = flags.resume === undefined ? undefined : await storedChat(io, flags.resume, flags.db);
  // A config of agents alone is complete for a chat: "no mission is declared" (GRA012) is not said.
  const project = await loadProject(io, pathArg ?? flags.config ?? stored?.configPath ?? '.', parseKeyValues(flags.var, '--var'), { quiet: ['GRA012'] });
  const input = chatInput(io);
  try {
    const agent = agentArg ?? stored?.agent ?? (await pickAgent(io, project, input));
    if (agent === undefined) return EXIT.ok;
    const db = stored?.db ?? runDbPath(io, project.graph.projectRoot, flags.db, project.graph.storage);
    return await converse(io, project, input, { agent, db, flags });
  } finally {
    input.close();
  }
}

function isConfigPath(io: CliIo, arg: string): boolean {
  const path = resolve(io.cwd, arg);
  return existsSync(path) && (arg.endsWith('.hcl') || statSync(path).isDirectory());
}

/** The stored chat `--resume` names: its agent, its config and the database that holds it. */
async function storedChat(io: CliIo, id: string, dbFlag: string | undefined): Promise<{ agent: string; configPath: string; db: string }> {
  const { store, path } = await openStoreWithRun(io, dbFlag, id);
  try {
    const run = (await store.runs.get(id))!;
    const agent = chatAgentOf(run.mission);
    if (agent === undefined) throw new CliError(`${id} is a run of mission "${run.mission}", not a chat: continue it with ${storeCommand(io, 'resume', id, path)}`, 'usage');
    return { agent, configPath: run.configPath, db: path };
  } finally {
    await store.close();
  }
}

/** The agent to chat with when none was named: the only one, or the person's choice on a terminal. */
async function pickAgent(io: CliIo, project: LoadedProject, input: ChatInput): Promise<string | undefined> {
  const { chatAgentChoices } = await import('../../api/index.js');
  const choices = await chatAgentChoices(project);
  if (choices.length === 0) throw new CliError('the config declares no agent to chat with (add an `agent "name" { … }` block)', 'not_found');
  if (choices.length === 1) return choices[0]!.name;
  const names = choices.map((c) => c.name).join(', ');
  if (!input.interactive) throw new CliError(`the config has ${choices.length} agents: name the one to chat with, e.g. squadron chat ${choices[0]!.name} (agents: ${names})`);
  io.stderr.write(`agents of this config:\n${choices.map((c, i) => `  ${i + 1}) ${c.name}  (${c.model}${c.mission ? `, in mission ${c.mission}` : ''})`).join('\n')}\n`);
  for (;;) {
    const picked = (await input.next('chat with (number or name): '))?.trim();
    if (picked === undefined) return undefined;
    const byNumber = /^\d+$/.test(picked) ? choices[Number(picked) - 1] : undefined;
    const chosen = byNumber ?? choices.find((c) => c.name === picked);
    if (chosen) return chosen.name;
    io.stderr.write(`no agent "${picked}": choose 1 to ${choices.length} or a name\n`);
  }
}

interface Conversation {
  agent: string;
  db: string;
  flags: ChatFlags;
}

async function converse(io: CliIo, project: LoadedProject, input: ChatInput, c: Conversation): Promise<number> {
  const { openChat } = await import('../../api/index.js');
  const json = Boolean(c.flags.json);
  // The reply under way: Ctrl-C cancels it (and an approval it waits on), not the chat.
  let reply: AbortController | undefined;
  const printer = new ReplyPrinter(io, json);
  const chat = await openChat({
    config: project,
    agent: c.agent,
    ...(c.flags.resume !== undefined ? { chatId: c.flags.resume } : {}),
    db: c.db,
    ...(c.flags.workspace ? { workspace: resolve(io.cwd, c.flags.workspace) } : {}),
    env: io.env,
    operatorPrompt: linePrompt(io, async (query) => {
      printer.breakLine();
      return (await input.next(query, reply?.signal))?.trim();
    }),
    onEvent: (event) => printer.event(event),
  });
  let code: number = EXIT.ok;
  let pressedAtPrompt = false;
  input.onInterrupt((signal) => {
    if (reply && !reply.signal.aborted) {
      reply.abort();
      if (signal === 'SIGTERM') input.close();
      return;
    }
    // At the prompt: a second Ctrl-C (or any piped one, or SIGTERM) ends the chat.
    if (signal === 'SIGINT' && input.interactive && !pressedAtPrompt) {
      pressedAtPrompt = true;
      io.stderr.write('\n(press Ctrl-C again, Ctrl-D or type /exit to end the chat)\n');
      return;
    }
    input.close();
  });
  const turn = async (go: (hooks: { signal: AbortSignal; onText: (text: string) => void }) => Promise<ChatReply>): Promise<ChatReply> => {
    reply = new AbortController();
    try {
      const result = await go({ signal: reply.signal, onText: (text) => printer.text(text) });
      printer.finish(chat, result);
      return result;
    } finally {
      reply = undefined;
    }
  };
  try {
    if (!json) await announce(io, chat);
    if (await chat.unfinished()) {
      if (!json) io.stderr.write('(finishing the reply that was cut short)\n');
      const result = await turn((hooks) => chat.finish(hooks));
      if (result.kind === 'waiting') code = EXIT.waiting;
    }
    for (;;) {
      const line = await input.next('> ');
      if (line === undefined) {
        // Ctrl-D leaves the cursor after the prompt.
        if (input.interactive) io.stderr.write('\n');
        break;
      }
      pressedAtPrompt = false;
      const text = line.trim();
      if (text === '') continue;
      if (EXIT_WORDS.has(text)) break;
      const result = await turn((hooks) => chat.send(text, hooks));
      code = result.kind === 'waiting' ? EXIT.waiting : EXIT.ok;
    }
  } catch (error) {
    await chat.close().catch(() => undefined); // the error on its way says more
    throw error;
  }
  const spent = await chat.close();
  const { totalTokens } = await import('../../api/usage.js');
  if (!json) io.stderr.write(`chat ${chat.id} saved (${totalTokens(spent)} tokens, $${spent.costUsd.toFixed(4)} in all); continue it with: ${storeCommand(io, 'chat --resume', chat.id, c.db)}\n`);
  return code;
}

async function announce(io: CliIo, chat: Chat): Promise<void> {
  io.stderr.write(`chat ${chat.id} with agent "${chat.agent}" (model ${chat.model})${chat.resumed ? ', resumed' : ''}\n`);
  if (chat.resumed) {
    const history = await chat.history();
    const shown = history.slice(-SHOWN_HISTORY);
    if (history.length > shown.length) io.stderr.write(`  … ${history.length - shown.length} earlier message${history.length - shown.length === 1 ? '' : 's'} (squadron inspect ${chat.id} --transcript)\n`);
    for (const line of shown) io.stderr.write(`  ${line.role === 'user' ? 'you' : chat.agent}: ${oneLine(line.text)}\n`);
  }
  io.stderr.write('type /exit or press Ctrl-D to end; Ctrl-C cancels a reply\n');
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 160 ? `${flat.slice(0, 159)}…` : flat;
}

/**
 * Prints a reply as it streams: whole lines only (the secret mask and the sanitiser see each line
 * whole), the rest when the reply ends or a tool line must go out; tool calls and notes on stderr.
 */
class ReplyPrinter {
  private pending = '';
  private streamed = false;

  constructor(
    private readonly io: CliIo,
    private readonly json: boolean,
  ) {}

  text(delta: string): void {
    if (this.json) return;
    this.streamed = true;
    this.pending += delta;
    const end = this.pending.lastIndexOf('\n');
    if (end < 0) return;
    this.io.stdout.write(this.pending.slice(0, end + 1));
    this.pending = this.pending.slice(end + 1);
  }

  /** Ends a partly printed line before something else is printed. */
  breakLine(): void {
    if (this.pending === '') return;
    this.io.stdout.write(`${this.pending}\n`);
    this.pending = '';
  }

  event(event: RunEvent): void {
    if (this.json) return;
    if (event.type === 'tool.started') {
      this.breakLine();
      this.io.stderr.write(`  … ${event.tool}\n`);
    } else if (event.type === 'tool.finished') {
      this.io.stderr.write(`  ${event.isError ? '✗' : '✓'} ${event.tool}${event.replayed ? ' (result from the ledger)' : ''}\n`);
    } else if (event.type === 'warning') {
      this.io.stderr.write(`warning: ${event.message}\n`);
    } else if (event.type === 'model.retry') {
      this.io.stderr.write(`  (model call retried: ${event.reason})\n`);
    }
  }

  finish(chat: Chat, reply: ChatReply): void {
    if (this.json) {
      const doc = { schema_version: SCHEMA_VERSION, chat_id: chat.id, agent: chat.agent, status: reply.kind, ...(reply.kind === 'answer' ? { text: reply.text } : reply.kind === 'failed' ? { error: reply.reason } : {}) };
      this.io.stdout.write(`${escapeJsonControls(JSON.stringify(doc))}\n`);
      return;
    }
    // A reply that came whole (a replayed answer) was not streamed.
    if (reply.kind === 'answer' && !this.streamed) this.pending = reply.text;
    if (this.pending !== '' || this.streamed) this.breakLine();
    this.streamed = false;
    if (reply.kind === 'cancelled') this.io.stderr.write('(reply cancelled)\n');
    else if (reply.kind === 'failed') this.io.stderr.write(`error: the reply failed: ${reply.reason}\n`);
    else if (reply.kind === 'waiting') this.io.stderr.write(`(a tool call waits for approval; decide it with squadron approve or deny, then continue with --resume ${chat.id})\n`);
    this.io.stdout.write('\n');
  }
}
