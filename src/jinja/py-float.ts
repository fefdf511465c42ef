/**
 * A Python float whose value is integral (`1.0`). JavaScript has one number type, so a JSON `1.0`
 * would print as `1`; the JSON reader used for requests wraps such literals in PyFloat so templates print
 * them the way Python does (`1.0`, and `tojson` gives `1.0`). Non-integral numbers are floats already.
 */
export class PyFloat {
  constructor(readonly value: number) {}
  valueOf(): number {
    return this.value;
  }
}
