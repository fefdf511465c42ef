/**
 * The back end: turns @huggingface/jinja's AST into a tree of JS closures, once per template. Rendering
 * runs the closures; nothing is interpreted by walking the AST per render, and no JS source is ever
 * generated (no eval / new Function: templates come from untrusted files).
 */
import { getAttr, getItem, getSlice } from "./access.js";
import * as A from "./ast.js";
import { FILTER_ALIASES, FILTERS } from "./filters.js";
import { Frame } from "./frame.js";
import { BIG_INT_PREFIX, CHAINED, GENERATION_FILTER, TRAILING_COMMA } from "./lexer.js";
import { pyAdd, pyConcat, pyFloorDiv, pyIn, pyMod, pyMul, pyNeg, pyPos, pyPow, pySub, pyTrueDiv } from "./ops.js";
import { TESTS } from "./tests.js";
import { NEGATED_TEST_PREFIX, TEST_PREFIX } from "./tests-syntax.js";
import {
  Callable,
  JinjaError,
  LoopInfo,
  Markup,
  Namespace,
  Undefined,
  floatValue,
  newDict,
  pyBool,
  pyCompare,
  pyEq,
  pyIter,
  pyStr,
  setDictItem,
  tuple,
  typeName,
  unwrap,
  type Kwargs,
} from "./values.js";

export type Expr = (f: Frame) => unknown;
/** A compiled statement; returns NORMAL, BREAK or CONTINUE so loops need no exceptions. */
export type Stmt = (f: Frame) => number;
const NORMAL = 0;
const BREAK = 1;
const CONTINUE = 2;

export class CompileError extends Error {}

/**
 * Jinja2 "soft frames": directly inside an `if` (or inline if), an unknown filter or test is not a
 * compile error; it fails only if that code runs ("No filter named 'x' found."). Loop, macro and block
 * bodies start hard again. Compilation is synchronous, so a module flag tracks it.
 */
let soft = false;
function withSoft<T>(value: boolean, fn: () => T): T {
  const saved = soft;
  soft = value;
  try {
    return fn();
  } finally {
    soft = saved;
  }
}

function missing(kind: "filter" | "test", name: string): never {
  throw new JinjaError("TemplateRuntimeError", `No ${kind} named '${name}' found.`);
}

const CONSTANTS: Readonly<Record<string, unknown>> = { true: true, True: true, false: false, False: false, none: null, None: null };

function nodeOf<T extends A.Node>(n: A.Node): T {
  return n as T;
}

/** Run a list of statements; stop early on break/continue and report it to the enclosing loop. */
function block(stmts: Stmt[]): Stmt {
  if (stmts.length === 0) return () => NORMAL;
  if (stmts.length === 1) return stmts[0]!;
  return (f) => {
    for (let i = 0; i < stmts.length; i++) {
      const r = stmts[i]!(f);
      if (r !== NORMAL) return r;
    }
    return NORMAL;
  };
}

export function compileProgram(program: A.ProgramNode): Stmt {
  return compileBody(program.body);
}

function compileBody(nodes: A.Node[]): Stmt {
  const stmts: Stmt[] = [];
  let text = "";
  const flush = (): void => {
    if (text === "") return;
    const t = text;
    stmts.push((f) => {
      f.emit(t);
      return NORMAL;
    });
    text = "";
  };
  for (const node of nodes) {
    if (node.type === "Comment") continue;
    // Template text arrives as top-level StringLiterals; merge neighbours into one emit.
    if (node.type === "StringLiteral") {
      text += nodeOf<A.LiteralNode<string>>(node).value;
      continue;
    }
    flush();
    stmts.push(compileStatement(node));
  }
  flush();
  return block(stmts);
}

function compileStatement(node: A.Node): Stmt {
  switch (node.type) {
    case "If":
      return compileIf(nodeOf<A.IfNode>(node));
    case "For":
      return compileFor(nodeOf<A.ForNode>(node));
    case "Break":
      return () => BREAK;
    case "Continue":
      return () => CONTINUE;
    case "Set":
      return compileSet(nodeOf<A.SetNode>(node));
    case "Macro":
      return compileMacro(nodeOf<A.MacroNode>(node));
    case "CallStatement":
      return compileCallBlock(nodeOf<A.CallStatementNode>(node));
    case "FilterStatement":
      return compileFilterBlock(nodeOf<A.FilterStatementNode>(node));
    default: {
      const expr = compileExpr(node);
      return (f) => {
        f.rt.budget.step();
        const v = expr(f);
        f.emit(typeof v === "string" ? v : pyStr(v));
        return NORMAL;
      };
    }
  }
}

function compileIf(node: A.IfNode): Stmt {
  const [test, body, alternate] = withSoft(true, () => [compileExpr(node.test), compileBody(node.body), compileBody(node.alternate)] as const);
  return (f) => {
    f.rt.budget.step();
    return pyBool(test(f)) ? body(f) : alternate(f);
  };
}

/** Bind a loop target (`x` or `a, b`) in frame f. */
function compileTarget(target: A.Node): (f: Frame, value: unknown) => void {
  if (target.type === "Identifier") {
    const name = nodeOf<A.IdentifierNode>(target).value;
    return (f, v) => f.set(name, v);
  }
  if (target.type === "TupleLiteral") {
    const parts = tupleItems(target).map(compileTarget);
    return (f, v) => {
      const items = pyIter(v);
      if (items.length < parts.length) {
        throw new JinjaError("ValueError", `not enough values to unpack (expected ${parts.length}, got ${items.length})`);
      }
      if (items.length > parts.length) throw new JinjaError("ValueError", `too many values to unpack (expected ${parts.length})`);
      for (let i = 0; i < parts.length; i++) parts[i]!(f, items[i]);
    };
  }
  throw new CompileError(`cannot assign to ${target.type}`);
}

/** A tuple's items without the lexer's trailing-comma placeholder. */
function tupleItems(node: A.Node): A.Node[] {
  return nodeOf<A.LiteralNode<A.Node[]>>(node).value.filter(
    (n) => !(n.type === "Identifier" && nodeOf<A.IdentifierNode>(n).value === TRAILING_COMMA),
  );
}

function compileFor(node: A.ForNode): Stmt {
  let iterableNode = node.iterable;
  let filter: Expr | null = null;
  // `{% for x in xs if cond %}`: the parser reads `xs if cond` as a select expression.
  if (iterableNode.type === "SelectExpression") {
    const sel = nodeOf<A.SelectNode>(iterableNode);
    iterableNode = sel.lhs;
    filter = compileExpr(sel.test);
  }
  const iterable = compileExpr(iterableNode);
  const bind = compileTarget(node.loopvar);
  const body = withSoft(false, () => compileBody(node.body));
  const otherwise = withSoft(false, () => compileBody(node.defaultBlock));
  return (f) => {
    const budget = f.rt.budget;
    budget.step();
    let items = pyIter(iterable(f));
    if (filter !== null) {
      const kept: unknown[] = [];
      for (const item of items) {
        budget.step();
        const probe = new Frame(f.rt, f);
        bind(probe, item);
        if (pyBool(filter(probe))) kept.push(item);
      }
      items = kept;
    }
    if (items.length === 0) return otherwise(f);
    const loop = new LoopInfo(items, 0);
    for (let i = 0; i < items.length; i++) {
      budget.step();
      loop.index0 = i;
      const inner = new Frame(f.rt, f);
      bind(inner, items[i]);
      inner.set("loop", loop);
      if (body(inner) === BREAK) break;
    }
    return NORMAL;
  };
}

function compileSet(node: A.SetNode): Stmt {
  const value: Expr =
    node.value !== null
      ? compileExpr(node.value)
      : ((): Expr => {
          const body = withSoft(false, () => compileBody(node.body));
          // A set block's body is its own scope: sets inside it do not leak.
          return (f) => f.capture(() => void body(new Frame(f.rt, f)));
        })();
  const assignee = node.assignee;
  if (assignee.type === "MemberExpression") {
    const member = nodeOf<A.MemberNode>(assignee);
    const object = compileExpr(member.object);
    if (member.computed || member.property.type !== "Identifier") throw new CompileError("can't assign to this expression");
    const attr = nodeOf<A.IdentifierNode>(member.property).value;
    return (f) => {
      f.rt.budget.step();
      const ns = object(f);
      if (!(ns instanceof Namespace)) throw new JinjaError("TemplateRuntimeError", "cannot assign attribute on non-namespace object");
      ns.attrs[attr] = value(f);
      return NORMAL;
    };
  }
  const bind = compileTarget(assignee);
  return (f) => {
    f.rt.budget.step();
    bind(f, value(f));
    return NORMAL;
  };
}

interface Param {
  name: string;
  fallback: Expr | null;
}

function compileParams(args: A.Node[]): Param[] {
  return args.map((a) => {
    if (a.type === "Identifier") return { name: nodeOf<A.IdentifierNode>(a).value, fallback: null };
    const kw = nodeOf<A.KeywordArgumentNode>(a);
    return { name: kw.key.value, fallback: compileExpr(kw.value) };
  });
}

/** A macro (or a call block's `caller`) as a Callable closing over its defining frame. */
function makeMacro(name: string, params: Param[], body: Stmt, bodyNodes: A.Node[], defining: Frame): Callable {
  const usesVarargs = A.mentionsName(bodyNodes, "varargs");
  const usesKwargs = A.mentionsName(bodyNodes, "kwargs");
  const usesCaller = A.mentionsName(bodyNodes, "caller");
  return new Callable(
    name,
    (args, kwargs) => {
      const rt = defining.rt;
      rt.budget.enter();
      rt.budget.step();
      try {
        const f = new Frame(rt, defining);
        const rest: Kwargs = kwargs === null ? null : Object.assign(newDict(), kwargs);
        for (let i = 0; i < params.length; i++) {
          const p = params[i]!;
          if (i < args.length) {
            if (rest !== null && p.name in rest) {
              throw new JinjaError("TypeError", `macro '${name}' got multiple values for argument '${p.name}'`);
            }
            f.set(p.name, args[i]);
          } else if (rest !== null && p.name in rest) {
            f.set(p.name, rest[p.name]);
            delete rest[p.name];
          } else if (p.fallback !== null) {
            f.set(p.name, p.fallback(f));
          } else {
            f.set(p.name, new Undefined(p.name, undefined, `parameter ${JSON.stringify(p.name).replace(/"/g, "'")} was not provided`));
          }
        }
        if (rest !== null && "caller" in rest) {
          if (!usesCaller) throw new JinjaError("TypeError", `macro '${name}' takes no keyword argument 'caller'`);
          f.set("caller", rest["caller"]);
          delete rest["caller"];
        }
        const extra = args.length > params.length ? args.slice(params.length) : [];
        if (usesVarargs) f.set("varargs", tuple(extra));
        else if (extra.length > 0) {
          throw new JinjaError("TypeError", `macro '${name}' takes not more than ${params.length} argument(s)`);
        }
        const restKeys = rest === null ? [] : Object.keys(rest);
        if (usesKwargs) f.set("kwargs", rest ?? newDict());
        else if (restKeys.length > 0) throw new JinjaError("TypeError", `macro '${name}' takes no keyword argument '${restKeys[0]}'`);
        return f.capture(() => void body(f));
      } finally {
        rt.budget.leave();
      }
    },
    "macro",
  );
}

function compileMacro(node: A.MacroNode): Stmt {
  const name = node.name.value;
  const params = compileParams(node.args);
  const body = withSoft(false, () => compileBody(node.body));
  return (f) => {
    f.set(name, makeMacro(name, params, body, node.body, f));
    return NORMAL;
  };
}

function compileCallBlock(node: A.CallStatementNode): Stmt {
  const call = compileCall(node.call, (f) => makeMacro("caller", callerParams, body, node.body, f));
  const callerParams = compileParams(node.callerArgs ?? []);
  const body = withSoft(false, () => compileBody(node.body));
  return (f) => {
    f.rt.budget.step();
    f.emit(pyStr(call(f)));
    return NORMAL;
  };
}

/** `{% filter name %}...{% endfilter %}` (and `{% generation %}`): the body runs in its own scope. */
function compileFilterBlock(node: A.FilterStatementNode): Stmt {
  const body = withSoft(false, () => compileBody(node.body));
  const isGeneration = node.filter.type === "Identifier" && nodeOf<A.IdentifierNode>(node.filter).value === GENERATION_FILTER;
  const apply = isGeneration ? null : compileFilterCall(node.filter);
  return (f) => {
    const inner = new Frame(f.rt, f);
    const text = f.capture(() => void body(inner));
    if (isGeneration) f.rt.generation?.record(text.length);
    f.emit(apply === null ? text : pyStr(apply(f, text)));
    return NORMAL;
  };
}

// ---------------------------------------------------------------------------------------------------
// Expressions

function compileExpr(node: A.Node): Expr {
  switch (node.type) {
    case "Identifier": {
      const name = nodeOf<A.IdentifierNode>(node).value;
      if (Object.prototype.hasOwnProperty.call(CONSTANTS, name)) {
        const c = CONSTANTS[name];
        return () => c;
      }
      if (name.startsWith(BIG_INT_PREFIX)) {
        const big = BigInt(name.slice(BIG_INT_PREFIX.length));
        return () => big;
      }
      return (f) => f.lookup(name);
    }
    case "IntegerLiteral": {
      const v = nodeOf<A.LiteralNode<number>>(node).value;
      return () => v;
    }
    case "FloatLiteral": {
      const v = floatValue(nodeOf<A.LiteralNode<number>>(node).value);
      return () => v;
    }
    case "StringLiteral": {
      const v = nodeOf<A.LiteralNode<string>>(node).value;
      return () => v;
    }
    case "ArrayLiteral": {
      const items = nodeOf<A.LiteralNode<A.Node[]>>(node).value.map(compileExpr);
      return (f) => items.map((e) => e(f));
    }
    case "TupleLiteral": {
      const items = tupleItems(node).map(compileExpr);
      return (f) => tuple(items.map((e) => e(f)));
    }
    case "ObjectLiteral": {
      const entries = [...nodeOf<A.LiteralNode<Map<A.Node, A.Node>>>(node).value].map(([k, v]) => [compileExpr(k), compileExpr(v)] as const);
      return (f) => {
        const d = newDict();
        for (const [k, v] of entries) {
          setDictItem(d, k(f), v(f));
        }
        return d;
      };
    }
    case "MemberExpression":
      return compileMember(nodeOf<A.MemberNode>(node));
    case "CallExpression":
      return compileCall(nodeOf<A.CallNode>(node), null);
    case "BinaryExpression":
      return compileBinary(nodeOf<A.BinaryNode>(node));
    case "UnaryExpression": {
      const u = nodeOf<A.UnaryNode>(node);
      const arg = compileExpr(u.argument);
      if (u.operator.value === "not") return (f) => !pyBool(arg(f));
      if (u.operator.value === "-") return (f) => pyNeg(arg(f));
      return (f) => pyPos(arg(f));
    }
    case "FilterExpression": {
      const fe = nodeOf<A.FilterNode>(node);
      const operand = compileExpr(fe.operand);
      const apply = compileFilterCall(fe.filter);
      return (f) => apply(f, operand(f));
    }
    case "TestExpression":
      return compileTest(nodeOf<A.TestNode>(node));
    case "Ternary": {
      const t = nodeOf<A.TernaryNode>(node);
      const [cond, yes, no] = withSoft(true, () => [compileExpr(t.condition), compileExpr(t.trueExpr), compileExpr(t.falseExpr)] as const);
      return (f) => (pyBool(cond(f)) ? yes(f) : no(f));
    }
    case "SelectExpression": {
      const s = nodeOf<A.SelectNode>(node);
      const [value, test] = withSoft(true, () => [compileExpr(s.lhs), compileExpr(s.test)] as const);
      const missing = new Undefined(undefined, undefined, "the inline if-expression evaluated to false and no else section was defined.");
      return (f) => (pyBool(test(f)) ? value(f) : missing);
    }
  }
  throw new CompileError(`unsupported expression: ${node.type}`);
}

function compileMember(node: A.MemberNode): Expr {
  const object = compileExpr(node.object);
  const prop = node.property;
  if (node.computed && prop.type === "SliceExpression") {
    const s = nodeOf<A.SliceNode>(prop);
    const none: Expr = () => null;
    const start = s.start ? compileExpr(s.start) : none;
    const stop = s.stop ? compileExpr(s.stop) : none;
    const step = s.step ? compileExpr(s.step) : none;
    return (f) => getSlice(object(f), start(f), stop(f), step(f));
  }
  if (!node.computed && prop.type === "Identifier") {
    const name = nodeOf<A.IdentifierNode>(prop).value;
    return (f) => getAttr(object(f), name);
  }
  const key = compileExpr(prop);
  return (f) => getItem(object(f), key(f));
}

interface CompiledArgs {
  positional: Expr[];
  spread: Expr | null;
  keywords: Array<readonly [string, Expr]>;
  kwSpread: Expr | null;
}

function compileArgs(args: A.Node[]): CompiledArgs {
  const out: CompiledArgs = { positional: [], spread: null, keywords: [], kwSpread: null };
  for (const a of args) {
    if (a.type === "KeywordArgumentExpression") {
      const kw = nodeOf<A.KeywordArgumentNode>(a);
      out.keywords.push([kw.key.value, compileExpr(kw.value)]);
    } else if (a.type === "SpreadExpression") out.spread = compileExpr(nodeOf<A.SpreadNode>(a).argument);
    else if (a.type === "KeywordSpreadExpression") out.kwSpread = compileExpr(nodeOf<A.SpreadNode>(a).argument);
    else out.positional.push(compileExpr(a));
  }
  return out;
}

function evalArgs(c: CompiledArgs, f: Frame): [unknown[], Kwargs] {
  const args = c.positional.map((e) => e(f));
  if (c.spread !== null) args.push(...pyIter(c.spread(f)));
  let kwargs: Kwargs = null;
  if (c.keywords.length > 0 || c.kwSpread !== null) {
    kwargs = newDict();
    for (const [k, e] of c.keywords) kwargs[k] = e(f);
    if (c.kwSpread !== null) {
      const extra = c.kwSpread(f);
      if (extra !== null && typeof extra === "object" && !Array.isArray(extra)) Object.assign(kwargs, extra);
    }
  }
  return [args, kwargs];
}

export function callValue(callee: unknown, args: unknown[], kwargs: Kwargs): unknown {
  if (callee instanceof Callable) return callee.fn(args, kwargs);
  if (callee instanceof Undefined) callee.fail();
  throw new JinjaError("TypeError", `'${typeName(callee)}' object is not callable`);
}

function compileCall(node: A.CallNode, caller: Expr | null): Expr {
  const callee = compileExpr(node.callee);
  const args = compileArgs(node.args);
  return (f) => {
    const fn = callee(f);
    const [a, k] = evalArgs(args, f);
    let kwargs = k;
    if (caller !== null) {
      kwargs ??= newDict();
      kwargs["caller"] = caller(f);
    }
    return callValue(fn, a, kwargs);
  };
}

function compileFilterCall(filterNode: A.Node): (f: Frame, value: unknown) => unknown {
  let name: string;
  let args: CompiledArgs = { positional: [], spread: null, keywords: [], kwSpread: null };
  if (filterNode.type === "Identifier") name = nodeOf<A.IdentifierNode>(filterNode).value;
  else if (filterNode.type === "CallExpression" && nodeOf<A.CallNode>(filterNode).callee.type === "Identifier") {
    const call = nodeOf<A.CallNode>(filterNode);
    name = nodeOf<A.IdentifierNode>(call.callee).value;
    args = compileArgs(call.args);
  } else throw new CompileError("invalid filter");
  if (name.startsWith(TEST_PREFIX) || name.startsWith(NEGATED_TEST_PREFIX)) return compileTestCall(name, args);
  const resolved = FILTER_ALIASES[name] ?? name;
  const known = Object.prototype.hasOwnProperty.call(FILTERS, resolved) ? FILTERS[resolved]! : null;
  if (known === null && !soft) throw new CompileError(`No filter named '${name}'.`);
  const filter = known ?? ((): never => missing("filter", name));
  const noArgs = args.positional.length === 0 && args.keywords.length === 0 && args.spread === null && args.kwSpread === null;
  // Only safe/escape look at Markup-ness; every other filter sees the text.
  const keepsMarkup = resolved === "safe" || resolved === "escape";
  return (f, input) => {
    const value = keepsMarkup || !(input instanceof Markup) ? input : input.text;
    if (noArgs) return filter(value, [], null, f.rt.env);
    const [a, k] = evalArgs(args, f);
    return filter(value, a, k, f.rt.env);
  };
}

/** A test with arguments, which the front end rewrote into a filter call (see tests-syntax.ts). */
function compileTestCall(filterName: string, args: CompiledArgs): (f: Frame, value: unknown) => unknown {
  const negate = filterName.startsWith(NEGATED_TEST_PREFIX);
  const name = filterName.slice(negate ? NEGATED_TEST_PREFIX.length : TEST_PREFIX.length);
  const known = Object.prototype.hasOwnProperty.call(TESTS, name) ? TESTS[name]! : null;
  if (known === null && !soft) throw new CompileError(`No test named '${name}'.`);
  const test = known ?? ((): never => missing("test", name));
  return (f, value) => {
    const [a] = evalArgs(args, f);
    return test(unwrap(value), a) !== negate;
  };
}

function compileTest(node: A.TestNode): Expr {
  const operand = compileExpr(node.operand);
  const name = node.test.value;
  const known = Object.prototype.hasOwnProperty.call(TESTS, name) ? TESTS[name]! : null;
  if (known === null && !soft) throw new CompileError(`No test named '${name}'.`);
  const test = known ?? ((): never => missing("test", name));
  const negate = node.negate;
  return (f) => test(unwrap(operand(f)), []) !== negate;
}

const COMPARE: Readonly<Record<string, (a: unknown, b: unknown) => boolean>> = {
  "==": (a, b) => pyEq(a, b),
  "!=": (a, b) => !pyEq(a, b),
  "<": (a, b) => pyCompare(a, b, "<") < 0,
  "<=": (a, b) => pyCompare(a, b, "<=") <= 0,
  ">": (a, b) => pyCompare(a, b, ">") > 0,
  ">=": (a, b) => pyCompare(a, b, ">=") >= 0,
};

/** `a < b < c` is `a < b and b < c` with b evaluated once (the lexer marked the chained operators). */
function compileChain(node: A.BinaryNode): Expr {
  const operands: A.Node[] = [];
  const ops: string[] = [];
  let n: A.Node = node;
  while (n.type === "BinaryExpression" && nodeOf<A.BinaryNode>(n).operator.value.startsWith(CHAINED)) {
    const b = nodeOf<A.BinaryNode>(n);
    operands.unshift(b.right);
    ops.unshift(b.operator.value.slice(CHAINED.length));
    n = b.left;
  }
  const head = nodeOf<A.BinaryNode>(n);
  operands.unshift(head.left, head.right);
  ops.unshift(head.operator.value);
  const exprs = operands.map(compileExpr);
  const tests = ops.map((op) => COMPARE[op]!);
  return (f) => {
    let left = exprs[0]!(f);
    for (let i = 0; i < tests.length; i++) {
      const right = exprs[i + 1]!(f);
      if (!tests[i]!(left, right)) return false;
      left = right;
    }
    return true;
  };
}

function compileBinary(node: A.BinaryNode): Expr {
  if (node.operator.value.startsWith(CHAINED)) return compileChain(node);
  const left = compileExpr(node.left);
  const right = compileExpr(node.right);
  const op = node.operator.value;
  switch (op) {
    case "and":
      return (f) => {
        const l = left(f);
        return pyBool(l) ? right(f) : l;
      };
    case "or":
      return (f) => {
        const l = left(f);
        return pyBool(l) ? l : right(f);
      };
    case "+":
      return (f) => pyAdd(left(f), right(f));
    case "-":
      return (f) => pySub(left(f), right(f));
    case "*":
      return (f) => pyMul(left(f), right(f));
    case "/":
      return (f) => pyTrueDiv(left(f), right(f));
    case "//":
      return (f) => pyFloorDiv(left(f), right(f));
    case "%":
      return (f) => pyMod(left(f), right(f));
    case "**":
      return (f) => pyPow(left(f), right(f));
    case "~":
      return (f) => pyConcat(left(f), right(f));
    case "==":
      return (f) => pyEq(left(f), right(f));
    case "!=":
      return (f) => !pyEq(left(f), right(f));
    case "<":
      return (f) => pyCompare(left(f), right(f), "<") < 0;
    case "<=":
      return (f) => pyCompare(left(f), right(f), "<=") <= 0;
    case ">":
      return (f) => pyCompare(left(f), right(f), ">") > 0;
    case ">=":
      return (f) => pyCompare(left(f), right(f), ">=") >= 0;
    case "in":
      return (f) => pyIn(left(f), right(f));
    case "not in":
      return (f) => !pyIn(left(f), right(f));
  }
  throw new CompileError(`unsupported operator ${op}`);
}
