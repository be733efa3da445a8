/**
 * What a transform is and what it gets: the parsed file, the v1 calls in it, the data flow from
 * their responses, and a sink for edits and manual-review notes. Transforms never edit text
 * themselves: the engine applies every edit of a file in one pass.
 */
import { ts } from 'ts-morph';
import type { DataFlow } from '../codemod/data-flow.js';
import { todoEdit, type SourceText, type TextEdit } from '../codemod/source-text.js';
import type { StaticText, V1Call } from '../codemod/v1-calls.js';

export interface Transform {
  name: string;
  description: string;
  apply(ctx: TransformContext): void;
}

export interface Todo {
  position: number;
  why: string;
  transform: string;
}

export class TransformContext {
  readonly edits: TextEdit[] = [];
  readonly todos: Todo[] = [];
  private readonly claimed: [number, number][] = [];
  transform = '';

  constructor(
    readonly sf: ts.SourceFile,
    readonly source: SourceText,
    readonly calls: readonly V1Call[],
    readonly unplaced: readonly ts.CallExpression[],
    readonly flow: DataFlow,
    readonly text: StaticText,
  ) {}

  /** True when an earlier transform took a range that overlaps the node. */
  isClaimed(node: ts.Node): boolean {
    const start = node.getStart(this.sf);
    return this.claimed.some(([s, e]) => start < e && node.end > s);
  }

  claim(node: ts.Node): void {
    this.claimed.push([node.getStart(this.sf), node.end]);
  }

  replace(node: ts.Node, text: string): void {
    this.edit(node.getStart(this.sf), node.end, text);
  }

  /** Two transforms touching the same text is a bug in them: the file is reported, not half-migrated. */
  edit(start: number, end: number, text: string): void {
    const clash = this.edits.find((e) => start < e.end && end > e.start);
    if (clash) throw new Error(`${this.transform}: an edit at ${start}-${end} overlaps one at ${clash.start}-${clash.end}`);
    this.edits.push({ start, end, text });
  }

  /** A manual-review note above the statement that holds the node. */
  todo(node: ts.Node, why: string): void {
    let statement: ts.Node = node;
    while (statement.parent && !ts.isSourceFile(statement.parent) && !ts.isBlock(statement.parent) && !ts.isClassElement(statement) && !ts.isCaseClause(statement.parent)) statement = statement.parent;
    const position = statement.getStart(this.sf);
    if (this.todos.some((t) => t.position === position && t.why === why)) return;
    this.todos.push({ position, why, transform: this.transform });
    const edit = todoEdit(this.source, position, why);
    if (edit) this.edits.push(edit);
  }

  /** Source text of a node. */
  textOf(node: ts.Node): string {
    return node.getText(this.sf);
  }
}
