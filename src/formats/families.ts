/**
 * Every family, one line each (the order does not matter: the registry sorts them by name and by the
 * `detect.before` constraints their files declare). `FormatId` is inferred from these exports.
 */
export { apertus } from "./apertus.js";
export { apriel } from "./apriel.js";
export { commandR7b } from "./command-r7b.js";
export { deepseekR1 } from "./deepseek-r1.js";
export { deepseekV31 } from "./deepseek-v3.1.js";
export { deepseekV32 } from "./deepseek-v3.2.js";
export { firefunctionV2 } from "./firefunction-v2.js";
export { functionaryV31 } from "./functionary-v3.1.js";
export { functionaryV32 } from "./functionary-v3.2.js";
export { gemma4 } from "./gemma4.js";
export { gigachat3 } from "./gigachat3.js";
export { glm45 } from "./glm-4.5.js";
export { granite } from "./granite.js";
export { harmony } from "./harmony.js";
export { hermes } from "./hermes.js";
export { jsonBlock } from "./json-block.js";
export { kimiK2 } from "./kimi-k2.js";
export { lfm2 } from "./lfm2.js";
export { llama3Json } from "./llama3-json.js";
export { minimaxM2 } from "./minimax-m2.js";
export { mistral } from "./mistral.js";
export { nemotronV2 } from "./nemotron-v2.js";
export { phi4Mini } from "./phi4-mini.js";
export { pythonic } from "./pythonic.js";
export { qwen3Coder } from "./qwen3-coder.js";
export { seedOss } from "./seed-oss.js";
export { taggedPythonic } from "./tagged-pythonic.js";
export { minimaxM3 } from "./minimax-m3.js";
export { minimaxM1 } from "./minimax-m1.js";
export { museGlimmer } from "./muse-glimmer.js";
export { hunyuanV3 } from "./hunyuan-v3.js";
export { minicpm5 } from "./minicpm5.js";
export { olmo3 } from "./olmo3.js";
export { hunyuanA13b } from "./hunyuan-a13b.js";
export { internlm2 } from "./internlm2.js";
export { granite20bFc } from "./granite-20b-fc.js";
export { commandRPlus } from "./command-r-plus.js";
export { xlam } from "./xlam.js";
export { kimiK3 } from "./kimi-k3.js";
export { jamba } from "./jamba.js";
export { step3 } from "./step3.js";
export { dots } from "./dots.js";
export { ernie45 } from "./ernie45.js";
export { longcat } from "./longcat.js";
