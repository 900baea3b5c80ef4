// A config's problems as values and as text: the `Diagnostic` every load and check returns, rendered
// the one way every surface shows them (`file:line:col: error[CODE]: message`, the source line and a
// caret, the hint), as their `--json` form, sorted, counted and capped per file.

export type { Diagnostic, RelatedLocation, Severity } from '../config/diagnostics.js';
export { capDiagnostics, countSummary, diagnosticToJson, renderDiagnostics, sortDiagnostics, sourceReaderFor } from '../config/diagnostics.js';
