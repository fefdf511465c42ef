/**
 * Expressions into closures, once per template (compile.ts does the statements). Each case narrows the
 * typed tree (ast.ts) on `type`; calls.ts binds the calls, filters and tests.
 */
import { attrReader, getItem, getSlice, strMethodCaller } from "./access.js";
import type * as A from "./ast.js";
import { bindFilter, bindTest, callValue, evalArgs, type CompiledArgs } from "./calls.js";
import { CompileError, softness, type CompileContext, type Expr } from "./closures.js";
import { BIG_INT_PREFIX, CHAINED, EMPTY_TUPLE } from "./lexer.js";
import { pyAdd, pyConcat, pyFloorDiv, pyIn, pyMod, pyMul, pyNeg, pyPos, pyPow, pySub, pyTrueDiv } from "./ops.js";
import { Undefined, floatValue, newDict, newKwargs, pyBool, pyCompare, pyEq, tuple, type Kwargs } from "./values.js";
import type { Frame } from "./frame.js";

const CONSTANTS: Readonly<Record<string, unknown>> = { true: true, True: true, false: false, False: false, none: null, None: null };

export function compileExpr(node: A.Expression, cx: CompileContext): Expr {
  switch (node.type) {
    case "Identifier":
      return compileName(node.value);
    case "IntegerLiteral": {
      const v = node.value;
      return () => v;
    }
    case "FloatLiteral": {
      const v = floatValue(node.value);
      return () => v;
    }
    case "StringLiteral": {
      const v = node.value;
      return () => v;
    }
    case "ArrayLiteral": {
      const items = node.value.map((n) => compileExpr(n, cx));
      return (f) => items.map((e) => e(f));
    }
    case "TupleLiteral": {
      const items = node.value.map((n) => compileExpr(n, cx));
      return (f) => tuple(items.map((e) => e(f)));
    }
    case "ObjectLiteral": {
      const entries = node.value.map(([k, v]) => [compileExpr(k, cx), compileExpr(v, cx)] as const);
      return (f) => {
        const d = newDict();
        for (const [k, v] of entries) {
          d.set(k(f), v(f));
        }
        return d;
      };
    }
    case "MemberExpression":
      return compileMember(node, cx);
    case "CallExpression":
      return compileCall(node, null, cx);
    case "BinaryExpression":
      return compileBinary(node, cx);
    case "UnaryExpression": {
      const arg = compileExpr(node.argument, cx);
      if (node.operator === "not") return (f) => !pyBool(arg(f));
      if (node.operator === "-") return (f) => pyNeg(arg(f));
      return (f) => pyPos(arg(f));
    }
    case "FilterExpression": {
      const operand = compileExpr(node.operand, cx);
      const apply = compileFilter(node.filter, cx);
      return (f) => apply(f, operand(f));
    }
    case "TestExpression":
      return bindTest(node.test.value, node.negate, compileExpr(node.operand, cx), cx.soft);
    case "Ternary": {
      const inner = softness(cx, true);
      const cond = compileExpr(node.condition, inner);
      const yes = compileExpr(node.trueExpr, inner);
      const no = compileExpr(node.falseExpr, inner);
      return (f) => (pyBool(cond(f)) ? yes(f) : no(f));
    }
    case "SelectExpression": {
      const inner = softness(cx, true);
      const value = compileExpr(node.lhs, inner);
      const test = compileExpr(node.test, inner);
      const missing = new Undefined(undefined, undefined, "the inline if-expression evaluated to false and no else section was defined.");
      return (f) => (pyBool(test(f)) ? value(f) : missing);
    }
  }
}

/** Whether compileName reads `name` from the frames (not a constant or one of the lexer's placeholders). */
function isVariable(name: string): boolean {
  return !Object.prototype.hasOwnProperty.call(CONSTANTS, name) && name !== EMPTY_TUPLE && !name.startsWith(BIG_INT_PREFIX);
}

/** A name: a constant, one of the lexer's placeholders, or a variable looked up when it runs. */
function compileName(name: string): Expr {
  if (Object.prototype.hasOwnProperty.call(CONSTANTS, name)) {
    const c = CONSTANTS[name];
    return () => c;
  }
  if (name === EMPTY_TUPLE) return () => tuple([]);
  if (name.startsWith(BIG_INT_PREFIX)) {
    const big = BigInt(name.slice(BIG_INT_PREFIX.length));
    return () => big;
  }
  return (f) => f.lookup(name);
}

function compileMember(node: A.MemberExpression, cx: CompileContext): Expr {
  const object = compileExpr(node.object, cx);
  const prop = node.property;
  // adapt.ts lets a slice through only in brackets.
  if (prop.type === "SliceExpression") {
    const none: Expr = () => null;
    const start = prop.start ? compileExpr(prop.start, cx) : none;
    const stop = prop.stop ? compileExpr(prop.stop, cx) : none;
    const step = prop.step ? compileExpr(prop.step, cx) : none;
    return (f) => getSlice(object(f), start(f), stop(f), step(f));
  }
  if (!node.computed && prop.type === "Identifier") {
    const read = attrReader(prop.value);
    // `message.role`: the variable read here, one closure call less on the commonest expression.
    if (node.object.type === "Identifier" && isVariable(node.object.value)) {
      const name = node.object.value;
      return (f) => read(f.lookup(name));
    }
    return (f) => read(object(f));
  }
  const key = compileExpr(prop, cx);
  return (f) => getItem(object(f), key(f));
}

export function compileArgs(args: A.Argument[], cx: CompileContext): CompiledArgs {
  const out: CompiledArgs = { positional: [], spread: null, keywords: [], kwSpread: null };
  for (const a of args) {
    if (a.type === "KeywordArgumentExpression") out.keywords.push([a.key.value, compileExpr(a.value, cx)]);
    else if (a.type === "SpreadExpression") out.spread = compileExpr(a.argument, cx);
    else if (a.type === "KeywordSpreadExpression") out.kwSpread = compileExpr(a.argument, cx);
    else out.positional.push(compileExpr(a, cx));
  }
  return out;
}

/** A call; a call block passes its body as `caller`, made when the call runs. */
export function compileCall(node: A.CallExpression, caller: Expr | null, cx: CompileContext): Expr {
  const c = node.callee;
  if (caller === null && c.type === "MemberExpression" && !c.computed && c.property.type === "Identifier") {
    const strMethod = strMethodCaller(c.property.value);
    if (strMethod !== null) return compileMethodCall(compileExpr(c.object, cx), attrReader(c.property.value), strMethod, compileArgs(node.args, cx));
  }
  const callee = compileExpr(node.callee, cx);
  const args = compileArgs(node.args, cx);
  return (f) => {
    const fn = callee(f);
    const [a, k] = evalArgs(args, f);
    let kwargs = k;
    if (caller !== null) {
      kwargs ??= newKwargs();
      kwargs["caller"] = caller(f);
    }
    return callValue(fn, a, kwargs);
  };
}

/**
 * `x.name(args)` where str has a method `name` (`content.strip()`): on a str it is called at once, on
 * anything else the attribute is read and called as any callee is (the same order: object, attribute,
 * arguments, call).
 */
function compileMethodCall(
  object: Expr,
  read: (obj: unknown) => unknown,
  strMethod: (s: string, args: unknown[], kwargs: Kwargs) => unknown,
  args: CompiledArgs,
): Expr {
  return (f) => {
    const obj = object(f);
    if (typeof obj === "string") {
      const [a, k] = evalArgs(args, f);
      return strMethod(obj, a, k);
    }
    const fn = read(obj);
    const [a, k] = evalArgs(args, f);
    return callValue(fn, a, k);
  };
}

/** `| name` or `| name(args)` (also a filter block's head): the filter bound to its arguments. */
export function compileFilter(node: A.Expression, cx: CompileContext): (f: Frame, value: unknown) => unknown {
  if (node.type === "Identifier") return bindFilter(node.value, { positional: [], spread: null, keywords: [], kwSpread: null }, cx.soft);
  if (node.type === "CallExpression" && node.callee.type === "Identifier") return bindFilter(node.callee.value, compileArgs(node.args, cx), cx.soft);
  throw new CompileError("invalid filter");
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
function compileChain(node: A.BinaryExpression, cx: CompileContext): Expr {
  const operands: A.Expression[] = [];
  const ops: string[] = [];
  let n: A.Expression = node;
  while (n.type === "BinaryExpression" && n.operator.startsWith(CHAINED)) {
    operands.unshift(n.right);
    ops.unshift(n.operator.slice(CHAINED.length));
    n = n.left;
  }
  // The chain's head is the unmarked comparison the lexer saw first.
  if (n.type !== "BinaryExpression") throw new CompileError("unsupported comparison chain");
  operands.unshift(n.left, n.right);
  ops.unshift(n.operator);
  const exprs = operands.map((e) => compileExpr(e, cx));
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

function compileBinary(node: A.BinaryExpression, cx: CompileContext): Expr {
  const op = node.operator;
  if (op.startsWith(CHAINED)) return compileChain(node, cx);
  const left = compileExpr(node.left, cx);
  const right = compileExpr(node.right, cx);
  if ((op === "==" || op === "!=") && node.right.type === "StringLiteral") {
    // `message.role == 'user'`: a str compared with a str is ===, anything else goes through pyEq.
    const text = node.right.value;
    const equal = op === "==";
    return (f) => {
      const l = left(f);
      return (typeof l === "string" ? l === text : pyEq(l, text)) === equal;
    };
  }
  if (Object.prototype.hasOwnProperty.call(COMPARE, op)) {
    const test = COMPARE[op]!;
    return (f) => test(left(f), right(f));
  }
  // One closure per operator, not a table: each call site then sees one function, which V8 inlines.
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
    case "in":
      return (f) => pyIn(left(f), right(f));
    case "not in":
      return (f) => !pyIn(left(f), right(f));
  }
  throw new CompileError(`unsupported operator ${op}`);
}
