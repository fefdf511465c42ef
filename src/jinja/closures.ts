/**
 * What the compiler (compile.ts for statements, compile-expr.ts for expressions) turns nodes into, and
 * the context it carries down the tree while it does.
 */
import type { Frame } from "./frame.js";

export type Expr = (f: Frame) => unknown;
/** A compiled statement; returns NORMAL, BREAK or CONTINUE so loops need no exceptions. */
export type Stmt = (f: Frame) => number;
export const NORMAL = 0;
export const BREAK = 1;
export const CONTINUE = 2;

/** A template the compiler refuses; compileTemplate reports it as invalid_template. */
export class CompileError extends Error {}

/** Where in the template the node being compiled sits; each compile function passes it down. */
export interface CompileContext {
  /**
   * Jinja2 "soft frames": directly inside an `if` (or inline if), an unknown filter or test is not a
   * compile error; it fails only if that code runs ("No filter named 'x' found."). Loop, macro and block
   * bodies start hard again.
   */
  readonly soft: boolean;
  /** Inside a for loop body, where break/continue are allowed. */
  readonly inLoop: boolean;
}

export const TOP_LEVEL: CompileContext = { soft: false, inLoop: false };

/** The context with `soft` set as given (the same object when it already is). */
export function softness(cx: CompileContext, soft: boolean): CompileContext {
  return cx.soft === soft ? cx : { soft, inLoop: cx.inLoop };
}
