// The built-in tools (`builtins.*`) as the runtime registers them: each with its description and
// input schema as the model is sent them (what `squadron docs builtins` lists).

export { builtinToolSpecs } from '../runtime/tools/builtins/index.js';
export type { ToolSpec } from '../runtime/tools/types.js';
