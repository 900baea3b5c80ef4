// Attaches implementations to the loader's builtin catalog (config/builtinTools.ts): each catalog
// entry becomes a ToolSpec that validates its input against the catalog schema, then runs. An
// implementation that throws (an unexpected I/O error) still yields an error result, never a throw.

import { BUILTIN_TOOLS, type BuiltinToolInfo } from '../../../config/builtinTools.js';
import { invalidInputResult, validateToolInput } from '../inputValidation.js';
import type { ToolContext, ToolResult, ToolSpec } from '../types.js';
import { apiNameOf, textResult } from '../types.js';
import { WriteQueue, writeFileTool } from './fileWrite.js';
import { listFilesTool, readFileTool, type FilesOptions } from './files.js';
import { httpRequest, type HttpInput, type HttpOptions } from './http.js';
import { WorkspacePins } from './workspaceWalk.js';
import { currentTimeTool, sleepTool, type UtilsOptions } from './utils.js';
import { countDatasetTool, sampleDatasetTool, setDatasetTool } from './dataset.js';

export interface BuiltinOptions {
  http?: HttpOptions;
  files?: FilesOptions;
  utils?: UtilsOptions;
}

/** Input has already been validated against the catalog schema when an implementation runs. */
type Implementation = (input: never, ctx: ToolContext) => Promise<ToolResult> | ToolResult;

function implementations(options: BuiltinOptions): Record<string, Implementation> {
  // Per tool set (per run): the workspace stays the folder the first call found, and writes to one
  // file are taken in turn.
  const files = { pins: new WorkspacePins(), writes: new WriteQueue(), ...options.files };
  const http = (method: 'get' | 'post' | 'put' | 'patch' | 'delete') => (input: HttpInput, ctx: ToolContext) =>
    httpRequest(method, input, ctx, options.http);
  return {
    'builtins.http.get': http('get'),
    'builtins.http.post': http('post'),
    'builtins.http.put': http('put'),
    'builtins.http.patch': http('patch'),
    'builtins.http.delete': http('delete'),
    'builtins.utils.current_time': (input: { timezone?: string }) => currentTimeTool(input, options.utils),
    'builtins.utils.sleep': (input: { seconds: number }, ctx: ToolContext) => sleepTool(input, ctx),
    'builtins.files.read': (input: { path: string; max_bytes?: number }, ctx: ToolContext) => readFileTool(input, ctx, files),
    'builtins.files.write': (input: { path: string; content: string; append?: boolean }, ctx: ToolContext) => writeFileTool(input, ctx, files),
    'builtins.files.list': (input: { path?: string; recursive?: boolean }, ctx: ToolContext) => listFilesTool(input, ctx, files),
    'builtins.dataset.set': setDatasetTool,
    'builtins.dataset.sample': sampleDatasetTool,
    'builtins.dataset.count': countDatasetTool,
    // Answered by the run's operator desk before any tool runs (runtime/operator/gate.ts): never called in a run.
    'builtins.human.ask': () => textResult('builtins.human.ask is answered by the operator of a run; nobody can be asked here.', true),
  };
}

/** Every catalog builtin as a ToolSpec, in catalog order. */
export function builtinToolSpecs(options: BuiltinOptions = {}): ToolSpec[] {
  const impls = implementations(options);
  return BUILTIN_TOOLS.map((info) => {
    const impl = impls[info.ref];
    // A catalog entry without an implementation is a bug in this repository, not a user error.
    if (!impl) throw new Error(`builtin ${info.ref} is in the catalog but has no implementation`);
    return toSpec(info, impl);
  });
}

function toSpec(info: BuiltinToolInfo, impl: Implementation): ToolSpec {
  return {
    ref: info.ref,
    apiName: apiNameOf(info.ref),
    description: info.description,
    inputSchema: info.inputSchema,
    group: `builtins.${info.namespace}`,
    source: 'builtin',
    idempotent: info.idempotent,
    async execute(input: unknown, ctx: ToolContext): Promise<ToolResult> {
      const checked = validateToolInput(info.inputSchema, input);
      if (!checked.ok) return invalidInputResult(apiNameOf(info.ref), checked.errors);
      try {
        return await impl(checked.value as never, ctx);
      } catch (err) {
        return textResult(`${apiNameOf(info.ref)} failed: ${err instanceof Error ? err.message : String(err)}`, true);
      }
    },
  };
}

