/**
 * Runs once before any test file: writes the format registry (src/formats/families.generated.ts,
 * git-ignored) from the family files, so `npx vitest run test/x.test.ts` works on a fresh clone and
 * sees a family added since the last build.
 */
import { writeFamilies } from "../scripts/gen-families.mjs";

export default function setup(): void {
  writeFamilies();
}
