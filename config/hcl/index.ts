// Public API of the HCL layer: parse native syntax into an AST with exact ranges, evaluate
// expressions against variables and functions, and project a file to hcl2json's JSON shape.

export { parseHcl } from './parser.js';
export { parseHclDeferred, reparseBlock } from './deferredBlock.js';
export type { ParseResult } from './parser.js';
export { evaluate } from './evaluate.js';
export { stdlibFunctions } from './stdlib.js';
export { expressionSource, rangeSource } from './source.js';
export { SourceRange } from './positions.js';
export { toJsonProjection, ProjectionConflictError } from './projection.js';
export { closest, didYouMean, editDistance } from './suggest.js';
export { typeName, toStringValue, toNumberValue, toBoolValue, valuesEqual, numberToString } from './convert.js';
export { CODES, CODE_TABLE } from './codes.js';
export type { HclCode } from './codes.js';
export * from './ast.js';
export * from './diagnostic.js';
export * from './value.js';
