/** The report as text for a terminal: a header, one line per conversation, then findings by severity. */
import type { CheckReport, Finding } from "./types.js";

const MARK: Record<Finding["severity"], string> = { error: "FAIL", warning: "warn", info: "note" };

export function formatReport(report: CheckReport): string {
  const t = report.template;
  const lines = [
    `chatwire check: ${t.origin}`,
    `format: ${t.format ?? "none detected (json-block is the fallback)"}; tools: ${t.caps.supportsTools ? "yes" : "no"}; system: ${t.caps.supportsSystem ? "yes" : "no"}` +
      `${t.caps.reasoning ? `; reasoning: ${t.caps.reasoning.start[0]}...${t.caps.reasoning.end[0]}` : ""}` +
      `${t.caps.variables.length ? `; variables: ${t.caps.variables.join(", ")}` : ""}`,
    ...(t.polyfill === undefined ? [] : [`polyfill: ${t.polyfill.note}`]),
    "",
    "conversations:",
    ...report.conversations.map((c) => `  ${c.error === undefined ? "ok    " : "raises"} ${c.name}${c.error === undefined ? ` (${c.chars} chars)` : `: ${c.error}`}`),
    "",
  ];
  const order: Finding["severity"][] = ["error", "warning", "info"];
  const findings = [...report.findings].sort((a, b) => order.indexOf(a.severity) - order.indexOf(b.severity));
  if (findings.length === 0) lines.push("findings: none");
  else lines.push("findings:");
  for (const f of findings) {
    lines.push(`  ${MARK[f.severity]} [${f.check}]${f.conversation ? ` (${f.conversation})` : ""} ${f.message}`);
    if (f.bytes !== undefined) {
      lines.push(`       at ${f.bytes.offset ?? "-"}: ${JSON.stringify(f.bytes.context)}`);
      if (f.bytes.expected !== undefined) lines.push(`       expected: ${JSON.stringify(f.bytes.expected)}`);
    }
  }
  const s = report.summary;
  lines.push("", `${s.errors} failed, ${s.warnings} warnings, ${s.infos} notes (checks: ${s.checks.join(", ")})`);
  return lines.join("\n") + "\n";
}
