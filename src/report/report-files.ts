/** Report files a run writes (`--report a.md --report a.json`), each in the format its name says. */
import { writeAtomically } from '../atomic-write.js';

export interface ReportFile {
  path: string;
  format: 'md' | 'json';
}

/** The JSON report among them: the markdown names it as the place that holds everything it leaves out. */
export function jsonReport(files: readonly ReportFile[]): string | undefined {
  return files.find((f) => f.format === 'json')?.path;
}

/** Writes each file atomically: JSON whole, markdown as rendered (within its bound). Returns the paths written. */
export function writeReports(files: readonly ReportFile[], render: { json: () => string; markdown: () => string }): string[] {
  for (const f of files) writeAtomically(f.path, f.format === 'json' ? render.json() : render.markdown());
  return files.map((f) => f.path);
}
