/**
 * Hostile templates of a few dozen bytes (issue 9): each must stop with `limit_exceeded` at the default
 * limits without taking the process down. Each runs in its own child process with a 1 GB heap and a
 * hang-level timeout, so a regression (a hang, an uncatchable V8 "invalid size" abort, running out of
 * memory) fails its test instead of killing the runner. The runtime is bundled from src/ with esbuild.
 *
 * No test here depends on the machine's speed (issue 19). Each case runs twice:
 * - under a virtual clock (Date.now advances 1 ms per reading), where which limit stops the render
 *   depends only on the work charged: every case must end in `limit_exceeded`;
 * - under the real clock, where a fast machine may legitimately finish work that a slow one stops at
 *   the time budget: the render ends in `limit_exceeded` or, for a case whose work is finite and legal,
 *   with its correct answer (the length of its output), never anything else.
 * What is never asserted: a duration, or which of two limits trips first.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const here = fileURLToPath(new URL(".", import.meta.url));
let dir = "";
let bundle = "";

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "chatwire-hostile-"));
  bundle = join(dir, "jinja.mjs");
  buildSync({ entryPoints: [join(here, "../../src/jinja/index.ts")], bundle: true, platform: "node", format: "esm", outfile: bundle, logLevel: "error" });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Outcome {
  code?: string;
  message?: string;
  ok?: number;
}

type Clock = "virtual" | "real";

/** A hang-level bound for one child (a render's budget is 1 s of clock): not a speed target. */
const HANG_MS = 60_000;

function runChild(template: string, clock: Clock): Outcome {
  const r = spawnSync(process.execPath, ["--max-old-space-size=1024", join(here, "hostile/child.mjs"), template, bundle, clock], {
    encoding: "utf8",
    timeout: HANG_MS,
  });
  if (r.error) throw r.error;
  const line = r.stdout.trim().split("\n").pop() ?? "";
  if (r.status !== 0 || line === "") throw new Error(`child died (status ${r.status}, signal ${r.signal}): ${r.stderr.slice(-500)}`);
  return JSON.parse(line) as Outcome;
}


/**
 * [name, template, answer]: `answer` is the output's length for a case whose work is finite and legal
 * (measured with the time budget lifted), so that a machine fast enough to finish it within the budget
 * must give exactly that; a case without one is stopped by a limit on every machine.
 */
type Case = readonly [string, string, number?];

const LIMITED: ReadonlyArray<Case> = [
  ["upper() of a 50 MB string in a loop", "{% set s = 'a' * 50000000 %}{% for i in range(100000) %}{% set t = s.upper() %}{% endfor %}"],
  ["count() of a 50 MB string in a loop", "{% set s = 'a' * 50000000 %}{% for i in range(100000) %}{% set t = s.count('b') %}{% endfor %}"],
  ["|replace of a 50 MB string in a loop", "{% set s = 'a' * 50000000 %}{% for i in range(100000) %}{% set t = s|replace('a', 'b') %}{% endfor %}"],
  ["|replace with no match in a loop", "{% set s = 'a' * 50000000 %}{% for i in range(100000) %}{% set t = s|replace('x', 'b') %}{% endfor %}"],
  ["batch(10**10, fill)", "{{ [1,2,3]|batch(10**10, 'x')|list|length }}"],
  ["tojson of tojson of 60 M quotes", "{{ (('\"' * 60000000)|tojson)|tojson|length }}"],
  ["200 upper-cased 60 MB strings in a list", "{% set s = 'a' * 60000000 %}{% set ns = namespace(l=[]) %}{% for i in range(200) %}{% set ns.l = ns.l + [s.upper()] %}{% endfor %}{{ ns.l|length }}"],
  ["strftime_now of a 20 MB format", "{{ strftime_now('%Y' * 10**7)|length }}", 8],
  ["|title of 30 MB of words", "{{ ('ab ' * 10**7)|title|length }}", 8],
  ["str.title() of 30 MB of words", "{{ ('ab ' * 10**7).title()|length }}", 8],
  ["split into 50 M parts", "{% set s = 'a' * 50000000 %}{{ s.split('a')|length }}"],
  ["a 50 MB string as a list", "{% set s = 'a' * 50000000 %}{{ s|list|length }}"],
  ["a stepped slice of 50 MB", "{% set s = 'ab' * 25000000 %}{{ s[::2]|length }}"],
  ["split() of 25 M words", "{% set s = ' a' * 25000000 %}{{ s.split()|length }}"],
  ["splitlines() of 50 M lines", "{% set s = '\\n' * 50000000 %}{{ s.splitlines()|length }}"],
  ["wordcount of 25 M words", "{% set s = 'a ' * 25000000 %}{{ s|wordcount }}", 8],
  ["escape of 60 M '<'", "{% set s = '<' * 60000000 %}{{ (s|e)|length }}"],
  ["tojson of 200 copies of 30 M quotes", "{% set q = '\"' * 30000000 %}{{ ([q] * 200)|tojson|length }}"],
  ["tojson of 200 copies of a 60 MB string", "{% set s = 'a' * 60000000 %}{{ ([s] * 200)|tojson|length }}"],
  ["repr of 200 copies of a 60 MB string", "{% set s = 'a' * 60000000 %}{{ ([s] * 200)|string|length }}"],
  ["repr of 30 M control characters", "{% set s = '\\x01' * 30000000 %}{{ ([s]|string)|length }}"],
  ["center(10**9)", "{{ 'x'.center(10**9) }}"],
  ["a 10**9 format width", "{{ '{:>1000000000}'.format(1) }}"],
  ["a 10**9 printf width", "{{ '%1000000000s' % 1 }}"],
  ["indexing a 50 MB string in a loop", "{% set s = 'a' * 50000000 %}{% for i in range(100000) %}{{ s[0] }}{% endfor %}"],
  ["isupper of a 50 MB string in a loop", "{% set s = 'a' * 50000000 %}{% for i in range(100000) %}{% if s is upper %}{% endif %}{% endfor %}"],
  ["strip() of a fresh 50 MB concatenation in a loop", "{% set s = 'a' * 50000000 %}{% for i in range(100000) %}{% set t = s ~ 'x' %}{% set u = t.strip() %}{% endfor %}"],
  ["swapcase() of 30 M non-ASCII letters in a loop", "{% set s = 'é' * 30000000 %}{% for i in range(100000) %}{% set t = s.swapcase() %}{% endfor %}"],
  ["nested range loops", "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}"],
  ["sorting 100k items in a loop", "{% set l = range(100000)|list %}{% for i in range(100000) %}{% set t = l|sort %}{% endfor %}"],
  ["reverse of a 50 MB string", "{% set s = 'a' * 50000000 %}{{ s|reverse|length }}"],
  ["10 M printf directives", "{{ ('%s' * 10000000) % ((1,) * 10000000) }}", 10000000],
  ["30 M '%%'", "{% set s = '%%' * 30000000 %}{{ (s % ())|length }}", 8],
  ["an int of 2**24 bits", "{{ (3 ** (10 ** 7)) > 0 }}"],
  ["100k macro definitions (compile)", "macros:100000"],
  ["upper() of 30 M non-ASCII letters in a loop", "{% set s = 'é' * 30000000 %}{% for i in range(100000) %}{% set t = s.upper() %}{% endfor %}"],
];

/**
 * One big native call (or one stepped pass over millions of items) that used to run for seconds after
 * the budget's clock had been looked at. Whether it fits in the budget depends on the machine: on an
 * idle one it may finish in 0.8 s, on a loaded one it must be refused or stopped.
 */
const BUDGETED: ReadonlyArray<Case> = [
  ["|replace with 12 M matches, once", "{% set s = 'ab' * 12000000 %}{{ (s|replace('a', 'x'))|length }}", 8],
  ["replace(a, b, count) with 10 M matches, once", "{% set s = 'ab' * 12000000 %}{{ s.replace('a', 'x', 10000000)|length }}", 8],
  ["escape of 10 M '<', once", "{% set s = '<' * 10000000 %}{{ (s|e)|length }}", 8],
  ["tojson of 20 M control characters, once", "{% set s = '\\x01' * 20000000 %}{{ (s|tojson)|length }}"],
  ["repr of a 10 M-item list", "{% set l = ['ab'] * 10000000 %}{{ (l|string)|length }}", 8],
  ["tojson of a 10 M-item list", "{% set l = range(100000)|list %}{{ (l * 100)|tojson|length }}"],
  ["case-insensitive sort of ten 30 M non-ASCII strings", "{% set s = 'É' * 30000000 %}{{ ([s, s, s, s, s, s, s, s, s, s]|sort)|length }}"],
];

function expectStopped(r: Outcome): void {
  expect(r, JSON.stringify(r)).toMatchObject({ code: "limit_exceeded" });
}

/** Under the real clock: stopped by a limit, or (finite legal work on a fast machine) its exact answer. */
function expectStoppedOrAnswered(r: Outcome, answer: number | undefined): void {
  if (r.code === undefined && answer !== undefined) expect(r, JSON.stringify(r)).toEqual({ ok: answer });
  else expectStopped(r);
}

describe("hostile templates stop with limit_exceeded and the process lives", () => {
  for (const [name, template, answer] of [...LIMITED, ...BUDGETED]) {
    it(`${name} (virtual clock)`, () => expectStopped(runChild(template, "virtual")), HANG_MS * 2);
    it(`${name} (real clock)`, () => expectStoppedOrAnswered(runChild(template, "real"), answer), HANG_MS * 2);
  }
});

describe("big but legal work still renders", () => {
  // Under the virtual clock, so what is checked is the work charged (small), not the machine's speed.
  it("3000 macro definitions compile and render", () => {
    expect(runChild("macros:3000", "virtual")).toEqual({ ok: 0 });
  }, HANG_MS * 2);
  it("encodes a 100k-item list 1000 times (cached)", () => {
    const r = runChild("{% set l = range(100000)|list %}{% for i in range(1000) %}{% set t = l|tojson %}{% endfor %}ok", "virtual");
    expect(r).toEqual({ ok: 2 });
  }, HANG_MS * 2);
});
