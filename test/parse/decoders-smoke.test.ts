import { it, expect } from "vitest";
import { taggedDecoder } from "../../src/parse/decoders/tagged.js";
import { QWEN3_CODER_SYNTAX, GLM_SYNTAX, MINIMAX_SYNTAX, DSML_SYNTAX } from "../../src/parse/decoders/tagged-syntaxes.js";
import { contextOf, decodeEverySplit, callsOf } from "./decoders-harness.js";
it("smoke", () => {
  const q = taggedDecoder(QWEN3_CODER_SYNTAX);
  const r = decodeEverySplit(q, contextOf({ f: { type: "object", properties: { n: { type: "integer" }, code: { type: "string" } } } }),
    "\n<function=f>\n<parameter=n>\n42\n</parameter>\n<parameter=code>\nx = '</parameter>'\n</parameter>\n</function>\n");
  console.log(JSON.stringify(r));
  const g = decodeEverySplit(taggedDecoder(GLM_SYNTAX), contextOf(), "get_weather\n<arg_key>city</arg_key>\n<arg_value>Beijing</arg_value>\n<arg_key>n</arg_key><arg_value>3</arg_value>\n");
  console.log(JSON.stringify(g));
  const m = decodeEverySplit(taggedDecoder(MINIMAX_SYNTAX), contextOf(), '<invoke name="test_func"><parameter name="content">This text contains </parameter> in it</parameter></invoke><invoke name="g"></invoke>');
  console.log(JSON.stringify(m));
  const d = decodeEverySplit(taggedDecoder(DSML_SYNTAX), contextOf(), '\n<｜DSML｜invoke name="get_weather">\n<｜DSML｜parameter name="location" string="true">SF</｜DSML｜parameter><｜DSML｜parameter name="n" string="false">[1, 2.0]</｜DSML｜parameter>\n</｜DSML｜invoke>\n');
  console.log(JSON.stringify(d));
});
