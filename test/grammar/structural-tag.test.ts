/**
 * The structural-tag kind: for every format whose calls are JSON arguments between fixed text, the
 * text `begin + arguments + end` of each tool parses (our parser) into exactly that call, and the
 * trigger starts the begin text; the other formats are refused with a reason.
 */
import { describe, expect, it } from "vitest";
import { ChatwireError } from "../../src/errors.js";
import { listFormats } from "../../src/formats/index.js";
import { buildStructuralTag } from "../../src/grammar/index.js";
import { parseCompletion } from "../../src/parse/index.js";
import { RICH_TOOLS } from "./tools.js";

/** One valid arguments object per tool, with characters that need care in JSON and tags. */
const ARGS: Record<string, unknown> = {
  get_weather: { city: "Oslo </b> \"x\"", days: 2 },
  write_file: { path: "a.txt", content: "line 1\nline 2 {", mode: null },
  plan: { steps: [{ title: "one", sub: [] }], ratio: 0.5 },
  get_time: {},
  set_value: { v: true, w: [1, 2] },
};

describe("structural tags read back as the calls they frame", () => {
  let fitted = 0;
  for (const format of listFormats()) {
    it(format.id, () => {
      let tag;
      try {
        tag = buildStructuralTag(format, { tools: RICH_TOOLS });
      } catch (err) {
        expect(err).toBeInstanceOf(ChatwireError);
        expect((err as Error).message).toMatch(/not JSON arguments between fixed text/);
        return;
      }
      fitted++;
      expect(tag.structures.map((s) => s.begin.startsWith(tag.triggers[0]!))).toEqual(tag.structures.map(() => true));
      for (const [i, s] of tag.structures.entries()) {
        const name = RICH_TOOLS[i]!.function.name;
        expect(s.schema).toEqual(RICH_TOOLS[i]!.function.parameters);
        const text = `${s.begin}${JSON.stringify(ARGS[name])}${s.end}`;
        const parsed = parseCompletion(format.id, text, { tools: RICH_TOOLS });
        expect(parsed.errors, text).toEqual([]);
        expect(parsed.message.tool_calls?.map((c) => [c.function.name, JSON.parse(c.function.arguments)]), text).toEqual([[name, ARGS[name]]]);
      }
    });
  }
  it("fits the JSON families", () => expect(fitted).toBeGreaterThanOrEqual(15));
});
