/**
 * What a transform is and what it gets: the parsed file, the analysis of the whole program (calls,
 * decisions, resource types, path plan), and a sink for edits and manual-review notes. Transforms
 * never edit text themselves, and never decide alone: they act on the calls the analysis migrates.
 */
import { ts } from 'ts-morph';
import type { Analysis, FileAnalysis } from '../codemod/analysis.js';
import type { Shape } from '../codemod/data-flow.js';
import { todoEdit, type SourceText, type TextEdit } from '../codemod/source-text.js';
import type { V1Call } from '../codemod/v1-calls.js';

export interface Transform {
  name: string;
  description: string;
  apply(ctx: TransformContext): void;
  /** For a JSON file a test loads as recorded answers (data-files.ts): the same context, over the parsed JSON. */
  applyData?(ctx: TransformContext): void;
}

export interface Todo {
  position: number;
  why: string;
  transform: string;
}

export class TransformContext {
  readonly edits: TextEdit[] = [];
  readonly todos: Todo[] = [];
  /** Helpers written into this file by this run, by name. */
  readonly helpers = new Set<string>();
  /** Claimed ranges, sorted by start, for a binary search. */
  private readonly claimed: [number, number][] = [];
  private longestClaim = 0;
  private readonly noted = new Set<string>();
  /** The v1 calls of this file that migrate. */
  readonly calls: readonly V1Call[];
  transform = '';

  constructor(
    readonly sf: ts.SourceFile,
    readonly source: SourceText,
    readonly file: FileAnalysis,
    readonly analysis: Analysis,
  ) {
    this.calls = file.calls.filter((c) => analysis.plan.migrates(c));
  }

  /** The shape of a value, when it comes from a call that migrates (or has a migrating type). */
  shapeOf(expression: ts.Expression): Shape | undefined {
    return this.analysis.migrating(this.file.flow.shapeOf(expression));
  }

  patternShape(pattern: ts.ObjectBindingPattern): Shape | undefined {
    return this.analysis.migrating(this.file.flow.patternShape(pattern));
  }

  /** True when an earlier transform took a range that overlaps the node. */
  isClaimed(node: ts.Node): boolean {
    if (this.claimed.length === 0) return false;
    const start = node.getStart(this.sf);
    // Claims sorted by start: only those starting before the node ends, and not further back than the longest claim, can overlap it.
    for (let i = this.firstStartingAtOrAfter(node.end) - 1; i >= 0; i--) {
      const [s, e] = this.claimed[i]!;
      if (s < start - this.longestClaim) break;
      if (start < e && node.end > s) return true;
    }
    return false;
  }

  claim(node: ts.Node): void {
    const range: [number, number] = [node.getStart(this.sf), node.end];
    this.claimed.splice(this.firstStartingAtOrAfter(range[0]), 0, range);
    this.longestClaim = Math.max(this.longestClaim, range[1] - range[0]);
  }

  private firstStartingAtOrAfter(position: number): number {
    let lo = 0;
    let hi = this.claimed.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.claimed[mid]![0] < position) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  replace(node: ts.Node, text: string): void {
    this.edit(node.getStart(this.sf), node.end, text);
  }

  /** Edits are checked for clashes once, when the engine sorts them: two transforms touching the same text is a bug in them. */
  edit(start: number, end: number, text: string): void {
    this.edits.push({ start, end, text, by: this.transform });
  }

  /** A manual-review note above the statement that holds the node. */
  todo(node: ts.Node, text: string): void {
    // A note is one comment line: source text it quotes (`Promise.resolve()\n  .then`) is put on one line.
    const why = text.replace(/\s*\n\s*(?=\.)/g, '').replace(/\s*\n\s*/g, ' ');
    let statement: ts.Node = node;
    while (statement.parent && !ts.isSourceFile(statement.parent) && !ts.isBlock(statement.parent) && !ts.isClassElement(statement) && !ts.isCaseClause(statement.parent)) statement = statement.parent;
    const position = statement.getStart(this.sf);
    const key = `${position}\u0000${why}`;
    if (this.noted.has(key)) return;
    this.noted.add(key);
    this.todos.push({ position, why, transform: this.transform });
    const edit = todoEdit(this.source, position, why);
    if (edit) this.edits.push(edit);
  }

  /** A literal's text as the path plan rewrites it (its source text when the plan leaves it). */
  plannedText(literal: ts.Node): string {
    return this.analysis.plan.rewrites.get(literal as never) ?? this.textOf(literal);
  }

  /** Source text of a node. */
  textOf(node: ts.Node): string {
    return node.getText(this.sf);
  }
}
