// The AST of HCL native syntax. Every node carries the source range it was parsed from, so every
// later diagnostic (schema, reference, graph) can point at the exact characters the user wrote.
// Modelled on hashicorp/hcl's hclsyntax package; names follow it where it helps readers who know it.

import type { Range } from './diagnostic.js';

export interface Body {
  kind: 'Body';
  /** Attributes in source order. */
  attributes: Attribute[];
  /** Blocks in source order. */
  blocks: Block[];
  range: Range;
}

export interface Attribute {
  kind: 'Attribute';
  name: string;
  nameRange: Range;
  expr: Expression;
  /** From the name to the end of the expression. */
  range: Range;
}

export interface Block {
  kind: 'Block';
  type: string;
  typeRange: Range;
  /** Label values (quoted labels unquoted, identifier labels as written). */
  labels: string[];
  labelRanges: Range[];
  body: Body;
  openBraceRange: Range;
  closeBraceRange: Range;
  /** From the type keyword to the closing brace. */
  range: Range;
}

export type Expression =
  | LiteralExpr
  | TemplateExpr
  | ScopeTraversalExpr
  | RelativeTraversalExpr
  | FunctionCallExpr
  | TupleExpr
  | ObjectExpr
  | UnaryExpr
  | BinaryExpr
  | ConditionalExpr
  | ForExpr
  | SplatExpr
  | IndexExpr
  | ParenthesesExpr;

/** `1`, `2.5e3`, `true`, `false`, `null`. (Quoted strings are TemplateExpr.) */
export interface LiteralExpr {
  kind: 'Literal';
  value: string | number | boolean | null;
  /**
   * Set on the placeholder the parser leaves where an expression could not be parsed (a missing
   * value, `a.` without a name, nesting too deep). The syntax error is already reported, so the
   * placeholder evaluates to unknown and nothing downstream reports it again. `value` is null.
   */
  invalid?: true;
  range: Range;
}

/** Whether an expression is the parser's placeholder for one that failed to parse. */
export function isInvalidExpr(e: Expression): boolean {
  return e.kind === 'Literal' && e.invalid === true;
}

/**
 * A quoted string or a heredoc. A string without interpolations or directives has exactly one
 * Literal part (or none when empty). `"${x}"` alone (a single interpolation, no text) evaluates to
 * x's own value, not its string form, as in HCL's TemplateWrapExpr.
 */
export interface TemplateExpr {
  kind: 'Template';
  parts: TemplatePart[];
  /** Present for `<<EOT` / `<<-EOT` heredocs. */
  heredoc?: { marker: string; indented: boolean };
  range: Range;
}

export type TemplatePart = TemplateLiteral | TemplateInterpolation | TemplateIf | TemplateFor;

export interface TemplateLiteral {
  kind: 'TemplateLiteral';
  /** The text after escape processing (`\n`, `\"`, `$${`, `%%{` …) and strip markers. */
  value: string;
  range: Range;
}

export interface TemplateInterpolation {
  kind: 'TemplateInterpolation';
  expr: Expression;
  range: Range;
}

export interface TemplateIf {
  kind: 'TemplateIf';
  condition: Expression;
  then: TemplatePart[];
  else?: TemplatePart[];
  range: Range;
}

export interface TemplateFor {
  kind: 'TemplateFor';
  keyVar?: string;
  valueVar: string;
  collection: Expression;
  body: TemplatePart[];
  range: Range;
}

export type TraversalStep =
  | { kind: 'GetAttr'; name: string; range: Range }
  /** `[expr]` or the legacy `.0` form; `key` is a Literal for constant indexes. */
  | { kind: 'Index'; key: Expression; range: Range };

/** A variable reference with optional steps: `vars.region`, `models.anthropic.claude_sonnet_4`, `x[0].y`. */
export interface ScopeTraversalExpr {
  kind: 'ScopeTraversal';
  root: string;
  rootRange: Range;
  steps: TraversalStep[];
  range: Range;
}

/** Steps applied to the result of another expression: `f(x).y`, `(a)[0]`. */
export interface RelativeTraversalExpr {
  kind: 'RelativeTraversal';
  source: Expression;
  steps: TraversalStep[];
  range: Range;
}

export interface FunctionCallExpr {
  kind: 'FunctionCall';
  name: string;
  nameRange: Range;
  args: Expression[];
  /** True when the last argument is followed by `...` (expand a tuple into arguments). */
  expandFinal: boolean;
  range: Range;
}

export interface TupleExpr {
  kind: 'Tuple';
  items: Expression[];
  range: Range;
}

export interface ObjectItem {
  /** For a bare identifier key (`{ foo = 1 }`) this is a ScopeTraversal with no steps and `keyIsIdentifier` is true. */
  key: Expression;
  keyIsIdentifier: boolean;
  value: Expression;
  range: Range;
}

export interface ObjectExpr {
  kind: 'Object';
  items: ObjectItem[];
  range: Range;
}

export interface UnaryExpr {
  kind: 'Unary';
  op: '!' | '-';
  operand: Expression;
  range: Range;
}

export type BinaryOp = '||' | '&&' | '==' | '!=' | '<' | '>' | '<=' | '>=' | '+' | '-' | '*' | '/' | '%';

export interface BinaryExpr {
  kind: 'Binary';
  op: BinaryOp;
  left: Expression;
  right: Expression;
  range: Range;
}

export interface ConditionalExpr {
  kind: 'Conditional';
  condition: Expression;
  trueExpr: Expression;
  falseExpr: Expression;
  range: Range;
}

/** `[for k, v in coll : expr if cond]` and `{for k, v in coll : kexpr => vexpr... if cond}`. */
export interface ForExpr {
  kind: 'For';
  keyVar?: string;
  valueVar: string;
  collection: Expression;
  /** Only for object `for` expressions. */
  keyExpr?: Expression;
  valueExpr: Expression;
  condition?: Expression;
  /** `...` after the value expression of an object `for` (group values by key). */
  grouping: boolean;
  isObject: boolean;
  range: Range;
}

/** `list[*].name` (full splat) or `list.*.name` (attribute-only splat). */
export interface SplatExpr {
  kind: 'Splat';
  source: Expression;
  /** Steps applied to each element after the splat operator. */
  each: TraversalStep[];
  /**
   * Set instead of `each` when the per-element expression is more than plain steps (a nested
   * splat such as `a[*].b[*].c`, or a dynamic index `a[*][k]`). Inside it, the element is the
   * ScopeTraversal whose `root` is the empty string.
   */
  eachExpr?: Expression;
  full: boolean;
  range: Range;
}

/** `coll[key]` when the collection is not a plain traversal root (e.g. after a call or a tuple). */
export interface IndexExpr {
  kind: 'Index';
  collection: Expression;
  key: Expression;
  range: Range;
}

export interface ParenthesesExpr {
  kind: 'Parentheses';
  expr: Expression;
  range: Range;
}

/** A parsed file: its body plus the exact text, kept so diagnostics can show the source line. */
export interface File {
  name: string;
  source: string;
  body: Body;
}
