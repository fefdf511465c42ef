// Renders one template (argv[2], or a generated one for "macros:N") with the bundled runtime (argv[3]) and
// prints {code?, message?, ok?} as one JSON line. Run by hostile.test.ts in a child process so that a
// template that hangs or exhausts memory fails the test instead of killing the test runner.
// argv[4] = "virtual" replaces the clock the render budget reads (Date.now) with one that advances 1 ms
// per reading, so which limit stops a render depends only on the work done, never on the machine's speed.
// argv[5], when given, is a JSON object of render limits.
const [, , template, bundle, clock, limits] = process.argv;
if (clock === "virtual") {
  let t = Date.now();
  Date.now = () => (t += 1);
}
const { compileTemplate } = await import(bundle);
let source = template;
if (template.startsWith("macros:")) {
  source = "";
  for (let i = 0; i < Number(template.slice(7)); i++) source += `{% macro m${i}(a) %}{{ a }}{% endmacro %}`;
}
const out = {};
try {
  const opts = limits ? { limits: JSON.parse(limits, (_, v) => (v === "Infinity" ? Infinity : v)) } : {};
  out.ok = compileTemplate(source).render({}, opts).length;
} catch (e) {
  out.code = e.code ?? e.name;
  out.message = String(e.message).slice(0, 200);
}
console.log(JSON.stringify(out));
