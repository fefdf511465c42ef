/**
 * Where an offset falls in a text, as editors and compilers show it: 1-based line and column (columns
 * count code points, so an emoji or a CJK character is one). Errors that point into text a user wrote
 * (a template, request JSON, a schema) say `line:column`, which an editor can jump to; an offset alone
 * cannot be found by hand.
 */
export interface LineColumn {
  line: number;
  column: number;
}

export function lineColumn(text: string, offset: number): LineColumn {
  const end = Math.max(0, Math.min(offset, text.length));
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < end; i = text.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: [...text.slice(lineStart, end)].length + 1 };
}
