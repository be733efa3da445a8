/** GitHub's step summary: the markdown report appended to the file Actions names, within what it takes. */
import { appendFileSync } from 'node:fs';
import { UsageError } from '../errors.js';

/** GitHub takes 1 MiB of step summary from a step; a UTF-16 unit is at most 3 bytes of UTF-8. */
export const STEP_SUMMARY_MAX_CHARS = Math.floor((1024 * 1024) / 3);

/** Appends `render(bound)` when Actions set GITHUB_STEP_SUMMARY: the report's own bound, or less where GitHub takes less. */
export function appendStepSummary(env: NodeJS.ProcessEnv, reportMaxChars: number, render: (maxChars: number) => string): void {
  const path = env['GITHUB_STEP_SUMMARY'];
  if (!path) return;
  try {
    appendFileSync(path, render(Math.min(reportMaxChars, STEP_SUMMARY_MAX_CHARS)));
  } catch (error) {
    throw new UsageError(`cannot write GITHUB_STEP_SUMMARY ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}
