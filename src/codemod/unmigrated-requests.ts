/**
 * v1 requests that no recognised call makes: a v1 path written where no call migrate-v2 recognises
 * reads it (a wrapper taking one options object, an SDK of the team's own), and recognised calls
 * whose URL or method cannot be placed. Both stay on v1, so the types written on their answers
 * describe v1 records: those keep v1's names, whatever other calls they are seen on.
 */
import { ts } from 'ts-morph';
import { hasV1Path } from '../contract/index.js';
import { nodesOf } from './file-nodes.js';
import { PATH_LITERAL_KINDS, type PathLiteral } from './static-text.js';
import { usesOf } from './syntax.js';

/** v1 path literals of a file that no recognised call or test double reads. */
export function strayV1Literals(sf: ts.SourceFile, known: (literal: PathLiteral) => boolean): PathLiteral[] {
  const literals = nodesOf(sf).ofKinds(...PATH_LITERAL_KINDS) as PathLiteral[];
  return literals.filter((node) => hasV1Path(node.text) && !known(node) && !inType(node));
}

/** `paths['/iam/v1/groups']`, a key of openapi-typescript's `paths` interface: a path named in a type, which no request reads. */
function inType(node: ts.Node): boolean {
  for (let n = node.parent; n && !ts.isStatement(n) && !ts.isSourceFile(n); n = n.parent) if (ts.isTypeNode(n) || ts.isTypeElement(n)) return true;
  return false;
}

/** A type written on the answer of a request that stays on v1, with the request it types. */
export interface UnmigratedAnswerType {
  type: ts.TypeNode;
  request: ts.Node;
}

/**
 * The types a program writes on the answers of `requests`: in the statement that makes the request
 * (`api<{ items: Group[] }>({ path })`, `as Group[]`, `(g: Group) => ...`), in the statements that
 * read the variable it is held in (`(await res.json()) as Group[]`), and the declared return type of
 * the function that returns it. Written nearby, not followed through the program: a record type
 * met there keeps its names, which only keeps calls on v1 with a note.
 */
export function answerTypesOf(sf: ts.SourceFile, requests: readonly ts.Node[], declarationOf: (n: ts.Node) => ts.Declaration | undefined, acrossCallbacks = false): UnmigratedAnswerType[] {
  const out: UnmigratedAnswerType[] = [];
  for (const request of requests) {
    const statement = holdingStatement(request, acrossCallbacks);
    const statements = [statement, ...readersOfHeld(sf, statement, request, declarationOf)];
    for (const s of statements) {
      for (const type of typesWrittenIn(s)) out.push({ type, request });
      const returned = ts.isReturnStatement(s) || (ts.isArrowFunction(s.parent) && s.parent.body === s) ? returnTypeOf(s) : undefined;
      if (returned) out.push({ type: returned, request });
    }
  }
  return out;
}

/**
 * The statement or class member a request is written in: the smallest unit that holds its answer.
 * `acrossCallbacks`: past an arrow function's body (`withRetry(() => fetch(url))`), to the
 * statement its answer comes out in.
 */
function holdingStatement(node: ts.Node, acrossCallbacks = false): ts.Node {
  let n = node;
  while (n.parent && !ts.isSourceFile(n.parent) && !ts.isBlock(n.parent) && !ts.isClassLike(n.parent) && !ts.isCaseOrDefaultClause(n.parent) && (acrossCallbacks || !(ts.isArrowFunction(n.parent) && n.parent.body === n))) n = n.parent;
  return n;
}

/** `const res = await send('/iam/v1/groups')`: the statements of its scope that read `res`. */
function readersOfHeld(sf: ts.SourceFile, statement: ts.Node, request: ts.Node, declarationOf: (n: ts.Node) => ts.Declaration | undefined): ts.Node[] {
  if (!ts.isVariableStatement(statement)) return [];
  const held = statement.declarationList.declarations.find((d) => d.initializer && request.pos >= d.initializer.pos && request.end <= d.initializer.end);
  if (!held || !ts.isIdentifier(held.name) || held.type) return [];
  return [...new Set(usesOf(sf, held, declarationOf).map((u) => holdingStatement(u)))].filter((s) => s !== statement);
}

/**
 * The outermost type nodes written in a statement (`as const` is no type of the answer's); of an
 * instantiation (`listOf<Group>` handed as a fetcher), its type arguments.
 */
function typesWrittenIn(statement: ts.Node): ts.TypeNode[] {
  const out: ts.TypeNode[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isExpressionWithTypeArguments(node) && !ts.isHeritageClause(node.parent)) {
      out.push(...(node.typeArguments ?? []));
      return;
    }
    if (ts.isTypeNode(node)) {
      if (!ts.isConstTypeReference(node)) out.push(node);
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(statement);
  return out;
}

/** The declared return type of the function a statement returns from. */
function returnTypeOf(statement: ts.Node): ts.TypeNode | undefined {
  for (let n = statement.parent; n; n = n.parent) if (ts.isFunctionLike(n)) return n.type;
  return undefined;
}
