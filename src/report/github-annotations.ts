/**
 * GitHub workflow commands for annotations (`--format github`): `::warning file=F,line=L::message`.
 * The runner reads them line by line from the step's output, so a message may not carry a line
 * break and a property may not carry the `,` and `:` that separate properties, escaped as the
 * Actions toolkit does (`%` first, so an escape is never escaped twice).
 */

export type AnnotationLevel = 'error' | 'warning' | 'notice';

export interface Annotation {
  level: AnnotationLevel;
  message: string;
  /** Relative to the repository root, as GitHub places annotations on a pull request's files. */
  file?: string;
  line?: number;
  title?: string;
}

export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** One annotation as the line the runner reads. */
export function workflowCommand(a: Annotation): string {
  const properties = [
    ...(a.file !== undefined ? [`file=${escapeProperty(a.file)}`] : []),
    ...(a.line !== undefined ? [`line=${a.line}`] : []),
    ...(a.title !== undefined ? [`title=${escapeProperty(a.title)}`] : []),
  ];
  return `::${a.level}${properties.length > 0 ? ` ${properties.join(',')}` : ''}::${escapeData(a.message)}\n`;
}
