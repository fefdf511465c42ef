// Renders one template (argv[2], or a generated one for "macros:N") with the bundled runtime (argv[3]) and
// prints {code?, message?, ok?, ms} as one JSON line. Run by hostile.test.ts in a child process so that a
// template that hangs or exhausts memory fails the test instead of killing the test runner.
const [, , template, bundle] = process.argv;
const { compileTemplate } = await import(bundle);
let source = template;
if (template.startsWith("macros:")) {
  source = "";
  for (let i = 0; i < Number(template.slice(7)); i++) source += `{% macro m${i}(a) %}{{ a }}{% endmacro %}`;
}
const t0 = Date.now();
const out = {};
try {
  out.ok = compileTemplate(source).render({}).length;
} catch (e) {
  out.code = e.code ?? e.name;
  out.message = String(e.message).slice(0, 200);
}
out.ms = Date.now() - t0;
console.log(JSON.stringify(out));
