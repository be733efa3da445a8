/** Markdown pieces shared by the reports: escaped cells, tables, collapsible sections, code fences. */

export function cell(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? '';
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

export function code(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? 'undefined';
  return `\`${cell(text).replace(/`/g, "'")}\``;
}

/** Code inside HTML, where markdown is not rendered: a `<summary>`, say. */
export function htmlCode(text: string): string {
  return `<code>${text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</code>`;
}

/** A table's header and delimiter row, each line ending in a newline. */
export function tableHead(header: readonly string[]): string {
  return `| ${header.join(' | ')} |\n|${header.map(() => '---').join('|')}|\n`;
}

export function tableRow(cells: readonly string[]): string {
  return `| ${cells.join(' | ')} |\n`;
}

export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return `${tableHead(header)}${rows.map(tableRow).join('')}`.trimEnd();
}

export function detailsOpen(summary: string): string {
  return `<details><summary>${summary}</summary>\n\n`;
}

export const DETAILS_CLOSE = '\n</details>';

export function details(summary: string, body: string): string {
  return `${detailsOpen(summary)}${body}\n${DETAILS_CLOSE}`;
}

/** A fenced code block; the fence is longer than any run of backticks in the text, which would otherwise end it. */
export function fenced(language: string, text: string): string {
  const longest = (text.match(/`+/g) ?? []).reduce((most, run) => Math.max(most, run.length), 0);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${language}\n${text}\n${fence}`;
}
