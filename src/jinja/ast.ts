/**
 * The shapes of @huggingface/jinja's AST nodes as our compiler reads them. The package does not export
 * its node classes, so we describe them structurally and switch on `type`.
 */
export interface Token {
  value: string;
  type: string;
}

export interface Node {
  type: string;
}

export interface ProgramNode extends Node {
  body: Node[];
}
export interface IfNode extends Node {
  test: Node;
  body: Node[];
  alternate: Node[];
}
export interface ForNode extends Node {
  loopvar: Node;
  iterable: Node;
  body: Node[];
  defaultBlock: Node[];
}
export interface SetNode extends Node {
  assignee: Node;
  value: Node | null;
  body: Node[];
}
export interface MacroNode extends Node {
  name: IdentifierNode;
  args: Node[];
  body: Node[];
}
export interface MemberNode extends Node {
  object: Node;
  property: Node;
  computed: boolean;
}
export interface CallNode extends Node {
  callee: Node;
  args: Node[];
}
export interface IdentifierNode extends Node {
  value: string;
}
export interface LiteralNode<T> extends Node {
  value: T;
}
export interface BinaryNode extends Node {
  operator: Token;
  left: Node;
  right: Node;
}
export interface FilterNode extends Node {
  operand: Node;
  filter: Node;
}
export interface FilterStatementNode extends Node {
  filter: Node;
  body: Node[];
}
export interface SelectNode extends Node {
  lhs: Node;
  test: Node;
}
export interface TestNode extends Node {
  operand: Node;
  negate: boolean;
  test: IdentifierNode;
}
export interface UnaryNode extends Node {
  operator: Token;
  argument: Node;
}
export interface SliceNode extends Node {
  start?: Node;
  stop?: Node;
  step?: Node;
}
export interface KeywordArgumentNode extends Node {
  key: IdentifierNode;
  value: Node;
}
export interface SpreadNode extends Node {
  argument: Node;
}
export interface CallStatementNode extends Node {
  call: CallNode;
  callerArgs: Node[] | null;
  body: Node[];
}
export interface TernaryNode extends Node {
  condition: Node;
  trueExpr: Node;
  falseExpr: Node;
}

/** True when the subtree mentions the identifier `name` (used for macro `varargs`/`kwargs`/`caller`). */
export function mentionsName(node: unknown, name: string): boolean {
  if (Array.isArray(node)) return node.some((n) => mentionsName(n, name));
  if (node === null || typeof node !== "object") return false;
  if (node instanceof Map) {
    for (const [k, v] of node) if (mentionsName(k, name) || mentionsName(v, name)) return true;
    return false;
  }
  const n = node as Record<string, unknown>;
  if (n["type"] === "Identifier" && n["value"] === name) return true;
  for (const key of Object.keys(n)) {
    if (key !== "type" && key !== "operator" && mentionsName(n[key], name)) return true;
  }
  return false;
}
