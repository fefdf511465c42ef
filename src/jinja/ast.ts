/**
 * The Jinja tree the compiler reads: a discriminated union on `type`, built once per template by
 * adapt.ts from @huggingface/jinja's parser nodes (which are classes typed `type: string`, not exported).
 * The node names and fields are the parser's, so the two stay easy to compare; what differs is that
 * every field is typed to the nodes the parser can put there, and adapt.ts checks that it did.
 */

/** A node in expression position. */
export type Expression =
  | Identifier
  | IntegerLiteral
  | FloatLiteral
  | StringLiteral
  | ArrayLiteral
  | TupleLiteral
  | ObjectLiteral
  | MemberExpression
  | CallExpression
  | BinaryExpression
  | UnaryExpression
  | FilterExpression
  | TestExpression
  | Ternary
  | SelectExpression;

/** A node in a template body: a statement, or an expression whose value is written out. */
export type Statement = If | For | Break | Continue | SetStatement | Macro | CallStatement | FilterStatement | Comment | Expression;

/** A call argument; a macro or caller parameter is the first two only. */
export type Argument = Expression | KeywordArgumentExpression | SpreadExpression | KeywordSpreadExpression;
export type Parameter = Identifier | KeywordArgumentExpression;

/** Every node type, so that adapt.ts can be checked to build each one. */
export type Node = Program | Statement | Argument | SliceExpression;

export interface Program {
  type: "Program";
  body: Statement[];
}
export interface If {
  type: "If";
  test: Expression;
  body: Statement[];
  alternate: Statement[];
}
export interface For {
  type: "For";
  loopvar: Identifier | TupleLiteral;
  iterable: Expression;
  body: Statement[];
  defaultBlock: Statement[];
}
export interface Break {
  type: "Break";
}
export interface Continue {
  type: "Continue";
}
export interface SetStatement {
  type: "Set";
  assignee: Expression;
  value: Expression | null;
  body: Statement[];
}
export interface Macro {
  type: "Macro";
  name: Identifier;
  args: Parameter[];
  body: Statement[];
}
export interface CallStatement {
  type: "CallStatement";
  call: CallExpression;
  callerArgs: Parameter[] | null;
  body: Statement[];
}
export interface FilterStatement {
  type: "FilterStatement";
  filter: Expression;
  body: Statement[];
}
export interface Comment {
  type: "Comment";
  value: string;
}

export interface Identifier {
  type: "Identifier";
  value: string;
}
export interface IntegerLiteral {
  type: "IntegerLiteral";
  value: number;
}
export interface FloatLiteral {
  type: "FloatLiteral";
  value: number;
}
export interface StringLiteral {
  type: "StringLiteral";
  value: string;
}
export interface ArrayLiteral {
  type: "ArrayLiteral";
  value: Expression[];
}
/** Without the lexer's trailing-comma placeholder (adapt.ts drops it): `(a,)` has one item. */
export interface TupleLiteral {
  type: "TupleLiteral";
  value: Expression[];
}
/** The parser's Map of key to value, as pairs in source order. */
export interface ObjectLiteral {
  type: "ObjectLiteral";
  value: Array<readonly [Expression, Expression]>;
}
export interface MemberExpression {
  type: "MemberExpression";
  object: Expression;
  /** A SliceExpression only when computed (`a[1:2]`). */
  property: Expression | SliceExpression;
  computed: boolean;
}
export interface CallExpression {
  type: "CallExpression";
  callee: Expression;
  args: Argument[];
}
export interface BinaryExpression {
  type: "BinaryExpression";
  /** The operator's text; a chained comparison's carries the lexer's CHAINED prefix. */
  operator: string;
  left: Expression;
  right: Expression;
}
export interface UnaryExpression {
  type: "UnaryExpression";
  operator: string;
  argument: Expression;
}
export interface FilterExpression {
  type: "FilterExpression";
  operand: Expression;
  /** A name or a call of one, as the parser reads `x | name` and `x | name(...)`. */
  filter: Expression;
}
export interface TestExpression {
  type: "TestExpression";
  operand: Expression;
  negate: boolean;
  test: Identifier;
}
export interface Ternary {
  type: "Ternary";
  condition: Expression;
  trueExpr: Expression;
  falseExpr: Expression;
}
/** `a if b` without an else, and `for x in xs if cond`. */
export interface SelectExpression {
  type: "SelectExpression";
  lhs: Expression;
  test: Expression;
}
export interface SliceExpression {
  type: "SliceExpression";
  start: Expression | undefined;
  stop: Expression | undefined;
  step: Expression | undefined;
}
export interface KeywordArgumentExpression {
  type: "KeywordArgumentExpression";
  key: Identifier;
  value: Expression;
}
export interface SpreadExpression {
  type: "SpreadExpression";
  argument: Expression;
}
export interface KeywordSpreadExpression {
  type: "KeywordSpreadExpression";
  argument: Expression;
}

/**
 * True when the subtree mentions the identifier `name` anywhere (used for macro `varargs`/`kwargs`/
 * `caller`): a generic walk over the plain tree, so that a new field is covered without a change here.
 */
export function mentionsName(node: unknown, name: string): boolean {
  if (Array.isArray(node)) return node.some((n) => mentionsName(n, name));
  if (node === null || typeof node !== "object") return false;
  const n = node as Record<string, unknown>;
  if (n["type"] === "Identifier" && n["value"] === name) return true;
  for (const key of Object.keys(n)) if (mentionsName(n[key], name)) return true;
  return false;
}
