/**
 * The inspector's HTML (one page, styles inline, script `inspector.js` beside it: a classic script,
 * so the static build also works opened from disk). `chatwire inspect` serves it; `chatwire inspect
 * --out DIR` writes it with the script for offline use.
 */
const STYLE = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 0; color: #1d1d1f; background: #fafafa; }
header { padding: 8px 16px; background: #243b53; color: #fff; display: flex; gap: 16px; align-items: baseline; }
header h1 { font-size: 16px; margin: 0; }
main { display: grid; grid-template-columns: minmax(320px, 1fr) minmax(420px, 1.4fr); gap: 12px; padding: 12px; }
section { background: #fff; border: 1px solid #d9d9de; border-radius: 6px; padding: 8px 12px; min-width: 0; }
h2 { font-size: 13px; text-transform: uppercase; letter-spacing: .04em; color: #52606d; margin: 4px 0 8px; }
textarea { width: 100%; box-sizing: border-box; font: 12px/1.35 ui-monospace, monospace; }
pre, .mono { font: 12px/1.45 ui-monospace, monospace; white-space: pre-wrap; word-break: break-word; margin: 0; }
#prompt { border: 1px solid #eee; padding: 6px; max-height: 480px; overflow: auto; }
.seg.template { color: #334e68; }
.seg.data { background: #fff3c4; color: #5c4300; }
.seg.special { background: #d3e4fd; color: #0b3d91; font-weight: 600; border-radius: 3px; }
.seg.special-in-data { background: #ffd6d6; color: #8a0000; font-weight: 600; outline: 1px dashed #c00; }
.seg.added { background: #e6e0fb; color: #3c1f8a; border-radius: 3px; }
.seg.added-in-data { background: #e6e0fb; color: #3c1f8a; outline: 1px dashed #63c; }
.legend span { padding: 0 4px; margin-right: 6px; }
#tokens { display: flex; flex-wrap: wrap; gap: 2px; max-height: 260px; overflow: auto; }
.tok { border: 1px solid #ccd; border-radius: 3px; padding: 0 2px; font: 11px ui-monospace, monospace; white-space: pre; }
.tok.special { background: #d3e4fd; }
.tok.added { background: #e6e0fb; }
.tok sub { color: #829ab1; margin-left: 2px; }
.line.added { background: #e3fcef; color: #05603a; }
.line.removed { background: #fde8e8; color: #9b1c1c; }
.error { color: #b00020; white-space: pre-wrap; }
table { border-collapse: collapse; width: 100%; } td { border-top: 1px solid #eee; padding: 2px 4px; font: 12px ui-monospace, monospace; }
.row { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; margin: 4px 0; }
`;

function templatePicker(side: "a" | "b", label: string): string {
  return `<div class="row"><label>${label} <select id="template-${side}"></select></label>
  <label>bos <input id="bos-${side}" size="10"></label><label>eos <input id="eos-${side}" size="10"></label></div>
  <textarea id="template-${side}-text" rows="4" placeholder="Jinja chat template text (choose &quot;pasted below&quot;)"></textarea>`;
}

export function inspectorHtml(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>chatwire prompt inspector</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>${STYLE}</style></head>
<body>
<header><h1>chatwire prompt inspector</h1><span>the exact prompt a model sees, and what its output parses to</span></header>
<main>
<div>
<section><h2>Template</h2>${templatePicker("a", "template")}</section>
<section><h2>Request</h2><textarea id="request-a" rows="14"></textarea>
<div class="row"><label><input type="checkbox" id="generation-prompt" checked> add generation prompt</label>
<label>polyfill <select id="polyfill"><option>auto</option><option>always</option><option>never</option></select></label>
<button id="render-button">render</button></div></section>
<section><h2>Completion</h2><textarea id="completion" rows="8" placeholder="paste the model's raw output"></textarea>
<div class="row"><button id="parse-button">parse</button><button id="stream-button">stream</button>
<label>chunk <input id="chunk-size" type="number" value="4" min="1" size="3"></label><span id="stream-summary"></span></div>
<div id="parse-error" class="error"></div></section>
<section><h2>Diff</h2><div class="row"><label>compare <select id="diff-mode"><option value="templates">template A vs template B (same request)</option><option value="requests">request A vs request B (same template)</option></select></label><button id="diff-button">diff</button><span id="diff-summary"></span></div>
${templatePicker("b", "template B")}
<textarea id="request-b" rows="6"></textarea><div id="diff-error" class="error"></div></section>
</div>
<div>
<section><h2>Prompt</h2><div class="legend"><span class="seg template">template</span><span class="seg data">request data</span><span class="seg special">special token</span><span class="seg added">added token (not special)</span><span class="seg special-in-data">special-token text in data</span><span class="seg added-in-data">added-token text in data</span><span id="marks-note" class="mono"></span></div>
<div class="row">format: <b id="format"></b></div><div id="provenance-note"></div><div id="render-error" class="error"></div>
<pre id="prompt"></pre></section>
<section><h2>Tokens <span id="token-count"></span></h2><div id="tokens"><span class="mono">token ids need a tokenizer: chatwire inspect --template SRC --tokenizer tokenizer.json</span></div></section>
<section><h2>Parsed message <span id="finish-reason"></span></h2><pre id="parsed"></pre>
<table><tbody id="tool-calls"></tbody></table><ul id="parse-errors"></ul><ol id="deltas" class="mono"></ol></section>
<section><h2>Prompt diff</h2><div id="diff" class="mono"></div></section>
<section><h2>Caps</h2><pre id="caps"></pre></section>
</div>
</main>
<script src="inspector.js"></script>
</body></html>
`;
}
