// The tools of one session: which ones it may call (authorized) and which ones are sent to the
// model this turn (visible). They differ under progressive discovery and skills: a tool becomes
// visible once its schema or skill is loaded, and an authorized tool that is not visible yet may
// still be called. Anything outside the authorized set is unknown — never executed.

import type { ApprovalVia } from '../../config/graph.js';
import type { ToolDefinition } from '../providers/types.js';
import type { ToolResult } from './types.js';

/** What happens to a call that started but never recorded a result (the process died). */
export type InterruptionPolicy =
  /** Safe to run again (reads, internal bookkeeping). */
  | 'rerun'
  /** Side effects unknown: the model gets an error result saying it was interrupted. */
  | 'report'
  /** The tool continues its own persisted work (call_agent resumes the agent's session). */
  | 'resume';

export interface ToolCall {
  callId: string;
  input: unknown;
  signal: AbortSignal;
}

export interface SessionTool {
  /** Canonical ref for world tools (`builtins.http.get`), the bare name for internal ones (`call_agent`). */
  ref: string;
  definition: ToolDefinition;
  onInterrupted: InterruptionPolicy;
  /** Run after the turn's other calls, in order (bookkeeping that depends on them). */
  runsLast?: boolean;
  /** Each call waits for the operator's approval first; why (a tool block, a toolset, an approval list). */
  approval?: ApprovalVia;
  /** Input must be validated by the tool; problems are error results. */
  execute(call: ToolCall): Promise<ToolResult>;
}

export class Toolbox {
  private readonly authorized = new Map<string, SessionTool>();
  private readonly visible: string[] = [];
  /** Shown after every other tool, whenever they were shown (the stored-result readers), so a resumed session lists the same order. */
  private readonly trailing: string[] = [];
  /** How a call to a name outside the authorized set is answered (discovery words it its own way). */
  describeUnknown: (name: string) => string = (name) => {
    const list = this.visible.length > 0 ? this.visible.join(', ') : '(none)';
    return `Unknown tool "${name}": you do not hold a tool by that name, so nothing was executed. Available tools: ${list}.`;
  };

  constructor(tools: readonly SessionTool[] = [], visibleNames?: readonly string[]) {
    for (const tool of tools) this.authorize(tool);
    for (const name of visibleNames ?? tools.map((t) => t.definition.name)) this.show(name);
  }

  /**
   * Makes a tool callable (not necessarily visible). The same tool again is a no-op; another tool
   * under a name already taken is refused, never offered under the other's name.
   */
  authorize(tool: SessionTool): void {
    const held = this.authorized.get(tool.definition.name);
    if (held === undefined) this.authorized.set(tool.definition.name, tool);
    else if (held.ref !== tool.ref) throw new Error(`tools ${held.ref} and ${tool.ref} would both be called "${tool.definition.name}" by the model; only ${held.ref} is held`);
  }

  /** Sends an authorized tool's schema from the next turn on. Unknown names are ignored. */
  show(name: string): boolean {
    const tool = this.resolve(name);
    if (!tool || this.visible.includes(tool.definition.name) || this.trailing.includes(tool.definition.name)) return false;
    this.visible.push(tool.definition.name);
    return true;
  }

  /** Like show, but the tool stays after all others in the list sent to the model. */
  showLast(name: string): boolean {
    const tool = this.resolve(name);
    if (!tool || this.visible.includes(tool.definition.name) || this.trailing.includes(tool.definition.name)) return false;
    this.trailing.push(tool.definition.name);
    return true;
  }

  /** Finds an authorized tool by the API name the model wrote, or by its canonical ref. */
  resolve(name: string): SessionTool | undefined {
    const direct = this.authorized.get(name);
    if (direct) return direct;
    for (const tool of this.authorized.values()) if (tool.ref === name) return tool;
    return undefined;
  }

  /**
   * Swaps one set of tools for another (a server changed its tools): tools of `previous` (API names)
   * missing from `fresh` can no longer be called or seen, and the fresh ones are authorized. With
   * `leading`, the fresh tools are the first visible ones, in their order, as a session built with
   * them from the start would send them; otherwise only the tools that were visible stay visible.
   */
  replace(previous: readonly string[], fresh: readonly SessionTool[], leading: boolean): void {
    const freshNames = new Set(fresh.map((t) => t.definition.name));
    const gone = new Set(previous.filter((name) => !freshNames.has(name)));
    const rest = this.visible.filter((name) => !gone.has(name) && !(leading && freshNames.has(name)));
    for (const name of gone) this.authorized.delete(name);
    for (const tool of fresh) {
      const held = this.authorized.get(tool.definition.name);
      // The same tool with a new schema or description replaces the old one.
      if (held === undefined || held.ref === tool.ref) this.authorized.set(tool.definition.name, tool);
    }
    this.visible.length = 0;
    if (leading) this.visible.push(...fresh.filter((t) => this.authorized.get(t.definition.name) === t).map((t) => t.definition.name));
    this.visible.push(...rest);
  }

  /** Tool definitions for the next request, in a stable order (registration of visibility). */
  definitionsForTurn(): ToolDefinition[] {
    return [...this.visible, ...this.trailing].map((name) => this.authorized.get(name)!.definition);
  }

  visibleNames(): string[] {
    return [...this.visible, ...this.trailing];
  }
}
