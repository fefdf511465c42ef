/**
 * The back end: turns the typed Jinja tree (ast.ts, adapted from @huggingface/jinja's parser by adapt.ts)
 * into a tree of JS closures, once per template. Rendering runs the closures; nothing is interpreted by
 * walking the tree per render, and no JS source is ever generated (no eval / new Function: templates
 * come from untrusted files). This file does the statements; compile-expr.ts the expressions.
 */
import * as A from "./ast.js";
import { BREAK, CONTINUE, CompileError, NORMAL, TOP_LEVEL, softness, type CompileContext, type Expr, type Stmt } from "./closures.js";
import { compileCall, compileExpr, compileFilter } from "./compile-expr.js";
import { Frame } from "./frame.js";
import { GENERATION_FILTER } from "./lexer.js";
import { makeMacro, type MacroShape, type Param } from "./macro.js";
import { pyAdd } from "./ops.js";
import { Namespace, JinjaError, pyBool, pyIter, pyStr } from "./values.js";
import { LoopInfo } from "./loop.js";
import { withMemos, type AttrMemos } from "./attr-memo.js";

export { CompileError, type Stmt } from "./closures.js";

/** A for loop's body: hard again, and break/continue allowed. */
const LOOP_BODY: CompileContext = { soft: false, inLoop: true };

/** Run a list of statements; stop early on break/continue and report it to the enclosing loop. */
function block(stmts: Stmt[]): Stmt {
  if (stmts.length === 0) return () => NORMAL;
  if (stmts.length === 1) return stmts[0]!;
  // Two statements (an if's output and set, a loop body's two outputs): no array to walk.
  if (stmts.length === 2) {
    const [a, b] = stmts as [Stmt, Stmt];
    return (f) => {
      const r = a(f);
      return r !== NORMAL ? r : b(f);
    };
  }
  if (stmts.length === 3) {
    const [a, b, c] = stmts as [Stmt, Stmt, Stmt];
    return (f) => {
      let r = a(f);
      if (r !== NORMAL) return r;
      r = b(f);
      return r !== NORMAL ? r : c(f);
    };
  }
  return (f) => {
    for (let i = 0; i < stmts.length; i++) {
      const r = stmts[i]!(f);
      if (r !== NORMAL) return r;
    }
    return NORMAL;
  };
}

/** `memos` receives the attribute memos the program's reads use (attr-memo.ts). */
export function compileProgram(program: A.Program, memos: AttrMemos): Stmt {
  return withMemos(memos, () => compileBody(program.body, TOP_LEVEL));
}

function compileBody(nodes: A.Statement[], cx: CompileContext): Stmt {
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
      text += node.value;
      continue;
    }
    flush();
    stmts.push(compileStatement(node, cx));
  }
  flush();
  return block(stmts);
}

function compileStatement(node: Exclude<A.Statement, A.Comment>, cx: CompileContext): Stmt {
  switch (node.type) {
    case "If":
      return compileIf(node, cx);
    case "For":
      return compileFor(node, cx);
    // Jinja2 compiles these to Python's break/continue, which Python rejects outside a loop.
    case "Break":
      if (!cx.inLoop) throw new CompileError("'break' outside loop");
      return () => BREAK;
    case "Continue":
      if (!cx.inLoop) throw new CompileError("'continue' not properly in loop");
      return () => CONTINUE;
    case "Set":
      return compileSet(node, cx);
    case "Macro":
      return compileMacro(node, cx);
    case "CallStatement":
      return compileCallBlock(node, cx);
    case "FilterStatement":
      return compileFilterBlock(node, cx);
    default: {
      if (node.type === "BinaryExpression" && node.operator === "+") return compileOutputSum(node, cx);
      const expr = compileExpr(node, cx);
      return (f) => {
        f.rt.budget.step();
        const v = expr(f);
        f.emit(typeof v === "string" ? v : pyStr(v));
        return NORMAL;
      };
    }
  }
}

/**
 * `{{ a + b + c }}`, the commonest output statement (`'<|im_start|>' + message.role + '\n' + ...`). While
 * the operands are strings, each is written as a piece of its own instead of being concatenated first:
 * the same text, the same length checks in the same order (pyAdd checks each partial sum), one output
 * charge for the whole; but no rope to build and then walk again when the output is joined. An operand
 * that is not a string ends that: the pieces so far are taken back as the left operand and pyAdd goes on
 * as it would have. Not with `{% generation %}` tracking, which reads the top-level pieces as they come
 * (a macro in an operand could record a span while pieces are pending).
 */
function compileOutputSum(node: A.BinaryExpression, cx: CompileContext): Stmt {
  const operands: A.Expression[] = [node.right];
  let left: A.Expression = node.left;
  while (left.type === "BinaryExpression" && left.operator === "+") {
    operands.unshift(left.right);
    left = left.left;
  }
  operands.unshift(left);
  const parts = operands.map((e) => compileExpr(e, cx));
  return (f) => {
    const rt = f.rt;
    const budget = rt.budget;
    budget.step();
    const first = parts[0]!(f);
    let sum: unknown;
    let next = 1;
    if (typeof first === "string" && rt.generation === undefined) {
      // Macros called by an operand capture their output into arrays of their own and put `out` back.
      const out = rt.out;
      const start = out.length;
      let total = first.length;
      if (total > 0) out.push(first);
      for (; next < parts.length; next++) {
        const v = parts[next]!(f);
        if (typeof v !== "string") {
          sum = pyAdd(out.splice(start).join(""), v);
          next++;
          break;
        }
        total += v.length;
        budget.length(total);
        if (v.length > 0) out.push(v);
      }
      if (next === parts.length && sum === undefined) {
        budget.emit(total);
        return NORMAL;
      }
    } else {
      sum = first;
    }
    for (; next < parts.length; next++) sum = pyAdd(sum, parts[next]!(f));
    f.emit(typeof sum === "string" ? sum : pyStr(sum));
    return NORMAL;
  };
}

function compileIf(node: A.If, cx: CompileContext): Stmt {
  const inner = softness(cx, true);
  const test = compileExpr(node.test, inner);
  const body = compileBody(node.body, inner);
  const alternate = compileBody(node.alternate, inner);
  return (f) => {
    f.rt.budget.step();
    return pyBool(test(f)) ? body(f) : alternate(f);
  };
}

/** Bind a loop target (`x` or `a, b`) in frame f. */
function compileTarget(target: A.Expression): (f: Frame, value: unknown) => void {
  if (target.type === "Identifier") {
    const name = target.value;
    return (f, v) => f.set(name, v);
  }
  if (target.type === "TupleLiteral") {
    const parts = target.value.map(compileTarget);
    return (f, v) => {
      const items = unpacked(v, parts.length);
      for (let i = 0; i < parts.length; i++) parts[i]!(f, items[i]);
    };
  }
  throw new CompileError(`cannot assign to ${target.type}`);
}

function compileFor(node: A.For, cx: CompileContext): Stmt {
  let iterableNode = node.iterable;
  let filter: Expr | null = null;
  // `{% for x in xs if cond %}`: the parser reads `xs if cond` as a select expression.
  if (iterableNode.type === "SelectExpression") {
    filter = compileExpr(iterableNode.test, cx);
    iterableNode = iterableNode.lhs;
  }
  const iterable = compileExpr(iterableNode, cx);
  const bind = compileTarget(node.loopvar);
  const frameNames = loopFrameNames(node.loopvar);
  const single = node.loopvar.type === "Identifier";
  const body = compileBody(node.body, LOOP_BODY);
  // The else block is outside the loop's body: a break there is the enclosing loop's.
  const otherwise = compileBody(node.defaultBlock, softness(cx, false));
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
      let inner: Frame;
      if (frameNames !== null) {
        // The frame bind and set would make, built at once around the compiler's names.
        // A copy: pyIter may hand back the item itself, and the frame's values grow by `loop`. A single
        // name's values are made at their size: a push onto `[item]` grew it to 17 slots, a third of
        // what a render of the bench's agent request allocated in its loops (issue 19).
        let values: unknown[];
        if (single) values = [items[i], loop];
        else {
          values = unpacked(items[i], frameNames.length - 1).slice();
          values.push(loop);
        }
        inner = new Frame(f.rt, f, frameNames, values);
      } else {
        inner = new Frame(f.rt, f);
        bind(inner, items[i]);
        inner.set("loop", loop);
      }
      if (body(inner) === BREAK) break;
    }
    return NORMAL;
  };
}

/**
 * The names a loop frame starts with: the target's (`x`, or a flat `a, b`) then `loop`, when they are
 * all distinct (else null: bind and set, in that order, decide which value a repeated name keeps).
 */
function loopFrameNames(target: A.Expression): readonly string[] | null {
  const names =
    target.type === "Identifier"
      ? [target.value]
      : target.type === "TupleLiteral" && target.value.every((t) => t.type === "Identifier")
        ? target.value.map((t) => (t as A.Identifier).value)
        : null;
  if (names === null) return null;
  names.push("loop");
  // Not frozen: slicing a frozen array takes V8's slow path, and frames copy it when a set adds a name.
  return new Set(names).size === names.length ? names : null;
}

/** The `count` values a tuple target takes from `item` (Python's errors when it holds another number). */
function unpacked(item: unknown, count: number): readonly unknown[] {
  const items = pyIter(item);
  if (items.length < count) throw new JinjaError("ValueError", `not enough values to unpack (expected ${count}, got ${items.length})`);
  if (items.length > count) throw new JinjaError("ValueError", `too many values to unpack (expected ${count})`);
  return items;
}

function compileSet(node: A.SetStatement, cx: CompileContext): Stmt {
  const value: Expr =
    node.value !== null
      ? compileExpr(node.value, cx)
      : ((): Expr => {
          const body = compileBody(node.body, softness(cx, false));
          // A set block's body is its own scope: sets inside it do not leak. A break or continue in it
          // leaves the enclosing loop at once, and nothing is assigned (as in Jinja2's generated code).
          return (f) => {
            let status = NORMAL;
            const text = f.capture(() => void (status = body(new Frame(f.rt, f))));
            if (status !== NORMAL) throw new LoopExit(status);
            return text;
          };
        })();
  if (node.value === null) {
    const stmt = compileAssignment(node, value, cx);
    return (f) => {
      try {
        return stmt(f);
      } catch (e) {
        if (e instanceof LoopExit) return e.status;
        throw e;
      }
    };
  }
  return compileAssignment(node, value, cx);
}

/** Carries a break/continue out of a set block's body, through the expression that captures it. */
class LoopExit {
  constructor(readonly status: number) {}
}

function compileAssignment(node: A.SetStatement, value: Expr, cx: CompileContext): Stmt {
  const assignee = node.assignee;
  if (assignee.type === "MemberExpression") {
    const object = compileExpr(assignee.object, cx);
    if (assignee.computed || assignee.property.type !== "Identifier") throw new CompileError("can't assign to this expression");
    const attr = assignee.property.value;
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

function compileParams(args: A.Parameter[], cx: CompileContext): Param[] {
  return args.map((a) =>
    a.type === "Identifier" ? { name: a.value, fallback: null } : { name: a.key.value, fallback: compileExpr(a.value, cx) },
  );
}

/** A macro's parameters and body, compiled once; whether the body names varargs/kwargs/caller too. */
function compileMacroShape(params: A.Parameter[], body: A.Statement[], cx: CompileContext): MacroShape {
  return {
    params: compileParams(params, cx),
    body: compileBody(body, TOP_LEVEL),
    usesVarargs: A.mentionsName(body, "varargs"),
    usesKwargs: A.mentionsName(body, "kwargs"),
    usesCaller: A.mentionsName(body, "caller"),
  };
}

function compileMacro(node: A.Macro, cx: CompileContext): Stmt {
  const name = node.name.value;
  const shape = compileMacroShape(node.args, node.body, cx);
  return (f) => {
    f.set(name, makeMacro(name, shape, f));
    return NORMAL;
  };
}

function compileCallBlock(node: A.CallStatement, cx: CompileContext): Stmt {
  const call = compileCall(node.call, (f) => makeMacro("caller", caller, f), cx);
  const caller = compileMacroShape(node.callerArgs ?? [], node.body, cx);
  return (f) => {
    f.rt.budget.step();
    f.emit(pyStr(call(f)));
    return NORMAL;
  };
}

/** `{% filter name %}...{% endfilter %}` (and `{% generation %}`): the body runs in its own scope. */
function compileFilterBlock(node: A.FilterStatement, cx: CompileContext): Stmt {
  const body = compileBody(node.body, softness(cx, false));
  const isGeneration = node.filter.type === "Identifier" && node.filter.value === GENERATION_FILTER;
  const apply = isGeneration ? null : compileFilter(node.filter, cx);
  return (f) => {
    const inner = new Frame(f.rt, f);
    let status = NORMAL;
    const text = f.capture(() => void (status = body(inner)));
    // A break/continue inside leaves the loop before the filtered text is written, as in Jinja2.
    if (status !== NORMAL) return status;
    if (isGeneration) f.rt.generation?.record(text.length);
    f.emit(apply === null ? text : pyStr(apply(f, text)));
    return NORMAL;
  };
}

