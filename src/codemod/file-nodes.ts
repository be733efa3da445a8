/**
 * The nodes of a parsed file, listed once in the order a walk visits them (the file, then each node
 * before its children, as `ts.forEachChild` gives them), and by kind. The analysis's passes and the
 * transforms read these lists instead of walking the tree again each.
 */
import { ts } from 'ts-morph';

export class FileNodes {
  /** Every node, the file first, in walk order. */
  readonly all: readonly ts.Node[];
  private readonly kinds = new Map<ts.SyntaxKind, ts.Node[]>();
  private readonly mixes = new Map<string, readonly ts.Node[]>();

  constructor(sf: ts.SourceFile) {
    const all: ts.Node[] = [];
    const visit = (node: ts.Node): void => {
      all.push(node);
      ts.forEachChild(node, visit);
    };
    visit(sf);
    this.all = all;
  }

  /** The nodes of one kind, in walk order. The first ask sorts every node by kind in one pass: the passes ask for a dozen kinds, and a pass over a 2.5 MB file's 1.5 million nodes for each took 0.6 s. */
  of<T extends ts.Node>(kind: T['kind']): readonly T[] {
    if (this.kinds.size === 0) {
      for (const node of this.all) {
        const list = this.kinds.get(node.kind);
        if (list) list.push(node);
        else this.kinds.set(node.kind, [node]);
      }
    }
    return (this.kinds.get(kind) ?? NONE) as T[];
  }

  /**
   * The nodes of any of these kinds, in walk order: for a pass whose learning follows the order of
   * the file but reads a few kinds only (most nodes are names and accesses it would test and skip).
   */
  ofKinds(...kinds: ts.SyntaxKind[]): readonly ts.Node[] {
    const key = kinds.join();
    let list = this.mixes.get(key);
    if (!list) {
      const wanted = new Uint8Array(ts.SyntaxKind.Count);
      for (const kind of kinds) wanted[kind] = 1;
      this.mixes.set(key, (list = this.all.filter((node) => wanted[node.kind] === 1)));
    }
    return list;
  }
}

const NONE: readonly ts.Node[] = [];

const listed = new WeakMap<ts.SourceFile, FileNodes>();

/** A file's nodes, listed at the first ask. */
export function nodesOf(sf: ts.SourceFile): FileNodes {
  let nodes = listed.get(sf);
  if (!nodes) listed.set(sf, (nodes = new FileNodes(sf)));
  return nodes;
}
