/**
 * @huggingface/jinja's parser nodes into our typed tree (ast.ts), once per template compile. The
 * package's nodes are classes typed `type: string` with untyped fields; this walk checks every node
 * type and field as it copies, so that the compiler can narrow on `type` without casts, and so that a
 * node type a newer parser adds (or a field it renames) fails the compile with its name instead of
 * reaching the compiler unnoticed.
 */
import { ChatwireError } from "../errors.js";
import type * as A from "./ast.js";
import { TRAILING_COMMA } from "./lexer.js";

type Raw = Readonly<Record<string, unknown>>;
type Built<K extends A.Node["type"]> = Extract<A.Node, { type: K }>;

export function adaptProgram(raw: unknown): A.Program {
  const program = adaptNode(raw);
  if (program.type !== "Program") throw malformed("Program", "type");
  return program;
}

/** One builder per node type: a type added to ast.ts without a builder here fails the typecheck. */
const BUILDERS: { readonly [K in A.Node["type"]]: (r: Raw) => Built<K> } = {
  Program: (r) => ({ type: "Program", body: statements(r, "body") }),
  If: (r) => ({ type: "If", test: expression(r, "test"), body: statements(r, "body"), alternate: statements(r, "alternate") }),
  For: (r) => ({
    type: "For",
    loopvar: loopTarget(r),
    iterable: expression(r, "iterable"),
    body: statements(r, "body"),
    defaultBlock: statements(r, "defaultBlock"),
  }),
  Break: () => ({ type: "Break" }),
  Continue: () => ({ type: "Continue" }),
  Set: (r) => ({ type: "Set", assignee: expression(r, "assignee"), value: r["value"] === null ? null : expression(r, "value"), body: statements(r, "body") }),
  Macro: (r) => ({ type: "Macro", name: identifier(r, "name"), args: parameters(r, "args"), body: statements(r, "body") }),
  CallStatement: (r) => ({
    type: "CallStatement",
    call: callExpression(r, "call"),
    callerArgs: r["callerArgs"] === null ? null : parameters(r, "callerArgs"),
    body: statements(r, "body"),
  }),
  FilterStatement: (r) => ({ type: "FilterStatement", filter: expression(r, "filter"), body: statements(r, "body") }),
  Comment: (r) => ({ type: "Comment", value: text(r, "value") }),
  Identifier: (r) => ({ type: "Identifier", value: text(r, "value") }),
  IntegerLiteral: (r) => ({ type: "IntegerLiteral", value: num(r, "value") }),
  FloatLiteral: (r) => ({ type: "FloatLiteral", value: num(r, "value") }),
  StringLiteral: (r) => ({ type: "StringLiteral", value: text(r, "value") }),
  ArrayLiteral: (r) => ({ type: "ArrayLiteral", value: list(r, "value").map(toExpression) }),
  TupleLiteral: (r) => ({ type: "TupleLiteral", value: list(r, "value").map(toExpression).filter((n) => !(n.type === "Identifier" && n.value === TRAILING_COMMA)) }),
  ObjectLiteral: (r) => {
    const map = r["value"];
    if (!(map instanceof Map)) throw malformed("ObjectLiteral", "value");
    return { type: "ObjectLiteral", value: [...(map as Map<unknown, unknown>)].map(([k, v]) => [toExpression(k), toExpression(v)] as const) };
  },
  MemberExpression: (r) => {
    const object = expression(r, "object");
    const computed = flag(r, "computed");
    const property = adaptNode(child(r, "property"));
    // The parser makes a slice only inside brackets (`a[1:]`); the compiler relies on it.
    if (property.type === "SliceExpression" && computed) return { type: "MemberExpression", object, property, computed };
    return { type: "MemberExpression", object, property: asExpression(property), computed };
  },
  CallExpression: (r) => ({ type: "CallExpression", callee: expression(r, "callee"), args: list(r, "args").map(toArgument) }),
  BinaryExpression: (r) => ({ type: "BinaryExpression", operator: operator(r), left: expression(r, "left"), right: expression(r, "right") }),
  UnaryExpression: (r) => ({ type: "UnaryExpression", operator: operator(r), argument: expression(r, "argument") }),
  FilterExpression: (r) => ({ type: "FilterExpression", operand: expression(r, "operand"), filter: expression(r, "filter") }),
  TestExpression: (r) => ({ type: "TestExpression", operand: expression(r, "operand"), negate: flag(r, "negate"), test: identifier(r, "test") }),
  Ternary: (r) => ({ type: "Ternary", condition: expression(r, "condition"), trueExpr: expression(r, "trueExpr"), falseExpr: expression(r, "falseExpr") }),
  SelectExpression: (r) => ({ type: "SelectExpression", lhs: expression(r, "lhs"), test: expression(r, "test") }),
  SliceExpression: (r) => ({ type: "SliceExpression", start: sliceBound(r, "start"), stop: sliceBound(r, "stop"), step: sliceBound(r, "step") }),
  KeywordArgumentExpression: (r) => ({ type: "KeywordArgumentExpression", key: identifier(r, "key"), value: expression(r, "value") }),
  SpreadExpression: (r) => ({ type: "SpreadExpression", argument: expression(r, "argument") }),
  KeywordSpreadExpression: (r) => ({ type: "KeywordSpreadExpression", argument: expression(r, "argument") }),
};

/** The node types that may stand where a value is read; the table makes the list exhaustive. */
const EXPRESSION_TYPES: { readonly [K in A.Expression["type"]]: true } = {
  Identifier: true,
  IntegerLiteral: true,
  FloatLiteral: true,
  StringLiteral: true,
  ArrayLiteral: true,
  TupleLiteral: true,
  ObjectLiteral: true,
  MemberExpression: true,
  CallExpression: true,
  BinaryExpression: true,
  UnaryExpression: true,
  FilterExpression: true,
  TestExpression: true,
  Ternary: true,
  SelectExpression: true,
};
const STATEMENT_TYPES: { readonly [K in Exclude<A.Statement["type"], A.Expression["type"]>]: true } = {
  If: true,
  For: true,
  Break: true,
  Continue: true,
  Set: true,
  Macro: true,
  CallStatement: true,
  FilterStatement: true,
  Comment: true,
};

function adaptNode(raw: unknown): A.Node {
  if (raw === null || typeof raw !== "object") throw new ChatwireError("invalid_template", "the Jinja parser produced something that is not a node");
  const r = raw as Raw;
  const type = r["type"];
  if (!isNodeType(type)) throw new ChatwireError("invalid_template", `the Jinja parser produced a node type chatwire does not know: ${String(type)}`);
  return BUILDERS[type](r);
}

function isNodeType(type: unknown): type is A.Node["type"] {
  return typeof type === "string" && Object.prototype.hasOwnProperty.call(BUILDERS, type);
}

function isExpression(n: A.Node): n is A.Expression {
  return Object.prototype.hasOwnProperty.call(EXPRESSION_TYPES, n.type);
}

/** The compiler's message for a node where a value is read (it was thrown there before this check). */
function asExpression(n: A.Node): A.Expression {
  if (!isExpression(n)) throw new ChatwireError("invalid_template", `unsupported expression: ${n.type}`);
  return n;
}
const toExpression = (raw: unknown): A.Expression => asExpression(adaptNode(raw));

function isStatementOnly(n: A.Node): n is Exclude<A.Statement, A.Expression> {
  return Object.prototype.hasOwnProperty.call(STATEMENT_TYPES, n.type);
}

function toStatement(raw: unknown): A.Statement {
  const n = adaptNode(raw);
  return isStatementOnly(n) ? n : asExpression(n);
}

function toArgument(raw: unknown): A.Argument {
  const n = adaptNode(raw);
  if (n.type === "KeywordArgumentExpression" || n.type === "SpreadExpression" || n.type === "KeywordSpreadExpression") return n;
  return asExpression(n);
}

function toParameter(raw: unknown): A.Parameter {
  const n = adaptNode(raw);
  if (n.type === "Identifier" || n.type === "KeywordArgumentExpression") return n;
  throw new ChatwireError("invalid_template", `a macro parameter must be a name or name=default, not ${n.type}`);
}

function malformed(type: string, field: string): ChatwireError {
  return new ChatwireError("invalid_template", `the Jinja parser produced a ${type} node without a valid '${field}'`);
}

const typeOf = (r: Raw): string => r["type"] as string;

/** A field that must hold a node (checked further by adaptNode). */
function child(r: Raw, field: string): object {
  const v = r[field];
  if (v === null || typeof v !== "object") throw malformed(typeOf(r), field);
  return v;
}

function list(r: Raw, field: string): unknown[] {
  const v = r[field];
  if (!Array.isArray(v) || !v.every((n) => n !== null && typeof n === "object")) throw malformed(typeOf(r), field);
  return v;
}
const statements = (r: Raw, field: string): A.Statement[] => list(r, field).map(toStatement);
const parameters = (r: Raw, field: string): A.Parameter[] => list(r, field).map(toParameter);
const expression = (r: Raw, field: string): A.Expression => toExpression(child(r, field));

function identifier(r: Raw, field: string): A.Identifier {
  const n = adaptNode(child(r, field));
  if (n.type !== "Identifier") throw malformed(typeOf(r), field);
  return n;
}

function callExpression(r: Raw, field: string): A.CallExpression {
  const n = adaptNode(child(r, field));
  if (n.type !== "CallExpression") throw malformed(typeOf(r), field);
  return n;
}

function loopTarget(r: Raw): A.Identifier | A.TupleLiteral {
  const n = adaptNode(child(r, "loopvar"));
  if (n.type === "Identifier" || n.type === "TupleLiteral") return n;
  throw new ChatwireError("invalid_template", `cannot assign to ${n.type}`);
}

function sliceBound(r: Raw, field: string): A.Expression | undefined {
  return r[field] === undefined ? undefined : expression(r, field);
}

function text(r: Raw, field: string): string {
  const v = r[field];
  if (typeof v !== "string") throw malformed(typeOf(r), field);
  return v;
}

function num(r: Raw, field: string): number {
  const v = r[field];
  if (typeof v !== "number") throw malformed(typeOf(r), field);
  return v;
}

function flag(r: Raw, field: string): boolean {
  const v = r[field];
  if (typeof v !== "boolean") throw malformed(typeOf(r), field);
  return v;
}

/** The parser keeps the operator's token; the compiler needs its text. */
function operator(r: Raw): string {
  const token = r["operator"];
  if (token === null || typeof token !== "object" || typeof (token as Raw)["value"] !== "string") throw malformed(typeOf(r), "operator");
  return (token as Raw)["value"] as string;
}
