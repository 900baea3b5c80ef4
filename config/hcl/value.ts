// Runtime values produced by evaluating HCL expressions. JSON-like, plus `Unknown`, which stands for
// a value that is only known later (a mission input at load time): operations on it yield Unknown,
// so a template can be checked before its inputs exist.

import type { Diagnostic, Range } from './diagnostic.js';

export class UnknownValue {
  static readonly instance = new UnknownValue();
  /**
   * A private brand makes the class nominal: without it, arrays and objects (which also have
   * toString) would structurally match UnknownValue, and `!isUnknown(v)` would narrow them away.
   */
  declare private readonly brand: 'unknown';
  private constructor() {}
  toString(): string {
    return '(known after start)';
  }
}

export const unknown = UnknownValue.instance;

export type Value = null | string | number | boolean | Value[] | ObjectValue | UnknownValue;

export interface ObjectValue {
  [key: string]: Value;
}

export function isUnknown(v: Value): v is UnknownValue {
  return v instanceof UnknownValue;
}

export function isObjectValue(v: Value): v is ObjectValue {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof UnknownValue);
}

/** A thrown FunctionError becomes a diagnostic at the call site ("Call to function "x" failed: …"). */
export class FunctionError extends Error {
  constructor(
    message: string,
    /** Index of the offending argument, to narrow the diagnostic range. */
    readonly argIndex?: number,
  ) {
    super(message);
  }
}

export interface FunctionCallContext {
  /** Range of the whole call expression. */
  range: Range;
  /** Ranges of each argument expression. */
  argRanges: Range[];
}

export interface HclFunction {
  /** Minimum and maximum argument counts (max undefined = variadic). */
  minArgs: number;
  maxArgs?: number;
  /** When true, Unknown arguments are passed in; otherwise any Unknown argument short-circuits to Unknown. */
  acceptsUnknown?: boolean;
  call(args: Value[], ctx: FunctionCallContext): Value;
}

export interface EvalContext {
  /** Root variables: `vars`, `inputs`, `item`, … Anything absent is an "Unknown variable" error. */
  variables: Record<string, Value>;
  functions: Record<string, HclFunction>;
  /**
   * Marked values (marks.ts): root → the names under it that are secret (`vars` → {token}). What is
   * computed from them is reported in EvalResult.sensitive.
   */
  sensitive?: Readonly<Record<string, ReadonlySet<string>>>;
}

/** A string computed from a secret: `name` is the secret it was read from (`vars.token`). */
export interface SensitiveString {
  name: string;
  value: string;
}

export interface EvalResult {
  value: Value;
  diagnostics: Diagnostic[];
  /** With EvalContext.sensitive: every string computed from a marked value (the marked values read too). */
  sensitive?: SensitiveString[];
}
