/**
 * Finds the types written on v1 values: where a value the flow (or, once some types are known,
 * the checker) says is a resource, an array of resources or an envelope meets a written type, that
 * type describes such a value. Sites: casts, annotated variables and parameters, declared return
 * types, parameters a value is passed to, and the type arguments of recognised calls.
 */
import { ts } from 'ts-morph';
import { CALLBACK_OVER_ELEMENTS, type DataFlow, type Shape } from './data-flow.js';
import { isProjectSource, type ResourceTypes, type TypeShape } from './resource-types.js';
import { functionOf, unwrap } from './static-text.js';
import type { V1Call } from './v1-calls.js';
import { nodesOf } from './file-nodes.js';

const TYPED_SHAPES = new Set<Shape['kind']>(['resource', 'array', 'envelope']);

function bodyShape(call: V1Call): TypeShape | undefined {
  if (call.operation === 'list' || call.operation === 'get-by-list') return 'envelope';
  if (call.operation === 'create' || call.operation === 'update') return 'resource';
  return undefined;
}

function returnTypeOf(node: ts.Node): ts.TypeNode | undefined {
  for (let n = node.parent; n; n = n.parent) {
    if (ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n) || ts.isArrowFunction(n) || ts.isFunctionExpression(n) || ts.isGetAccessorDeclaration(n)) return n.type ?? (inScript(n) ? ts.getJSDocReturnType(n) : undefined);
  }
  return undefined;
}

/** Whether a node is of a JavaScript file, whose types are written in JSDoc. */
function inScript(node: ts.Node): boolean {
  return (node.flags & ts.NodeFlags.JavaScriptFile) !== 0;
}

/** The type written on a declaration: in its syntax, or in a JavaScript file's JSDoc (`@type`, `@param`). */
function writtenType(declaration: ts.VariableDeclaration | ts.ParameterDeclaration | ts.PropertyDeclaration): ts.TypeNode | undefined {
  return declaration.type ?? (inScript(declaration) ? ts.getJSDocType(declaration) : undefined);
}

/** A wrapper `f<T>(...): Promise<T>` (or with no declared return type, returning the body): its type argument is the body's type. */
function typeArgumentIsBody(fn: ts.SignatureDeclaration): boolean {
  const parameter = fn.typeParameters?.[0]?.name.text;
  if (!parameter) return false;
  if (!fn.type) return true;
  const inner = ts.isTypeReferenceNode(fn.type) && fn.type.typeName.getText() === 'Promise' ? fn.type.typeArguments?.[0] : fn.type;
  return Boolean(inner && ts.isTypeReferenceNode(inner) && inner.typeName.getText() === parameter);
}

function isFunctionValue(e: ts.Expression): boolean {
  const n = unwrap(e);
  return ts.isArrowFunction(n) || ts.isFunctionExpression(n);
}

export class TypeEvidence {
  constructor(
    private readonly checker: ts.TypeChecker,
    private readonly types: ResourceTypes,
    private readonly declarationOf: (n: ts.Node) => ts.Declaration | undefined,
  ) {}

  /** The type argument of a call: axios.get<{ items: Group[] }>(...) and a wrapper's get<T>(...) returning Promise<T> type the body. */
  gatherCall(call: V1Call): void {
    // list<Group>(path) of a list reader: the type argument is the records' type.
    if (call.via?.records && call.via.fn?.typeParameters?.length && call.call.typeArguments?.[0]) {
      this.types.attach(call.call.typeArguments[0], 'resource', call.resource);
      return;
    }
    const body = bodyShape(call);
    // axios.get<T>, got.get<T>, ky.get<T> and ofetch<T> type the body (got's response.body, ky's .json()); fetch and undici take none.
    const typesBody = call.via ? (call.via.fn ? typeArgumentIsBody(call.via.fn) : call.via.returns === 'body') : call.client === 'axios' || call.client === 'got' || call.client === 'ky' || call.client === 'ofetch';
    if (body && typesBody && call.call.typeArguments?.[0]) this.types.attach(call.call.typeArguments[0], body, call.resource);
  }

  /** One pass over a file: attaches every written type that meets a known value. */
  gather(sf: ts.SourceFile, flow: DataFlow, staysOnV1: (call: V1Call) => boolean): void {
    const shapeOf = (e: ts.Expression): Shape | undefined => flow.shapeOf(e);
    const attach = (type: ts.TypeNode | undefined, shape: Shape | undefined): void => {
      if (!type || !shape || !TYPED_SHAPES.has(shape.kind)) return;
      const call = 'call' in shape ? shape.call : undefined;
      this.types.within(call, call ? staysOnV1(call) : false, () => this.types.attach(type, shape.kind as TypeShape, (shape as Extract<Shape, { resource: unknown }>).resource));
    };
    for (const [declaration, shape] of flow.declarations()) {
      // A value seen only in the URL of a call that stays on v1 says nothing about what its type holds on v2.
      if ('weak' in shape && shape.weak && shape.call && staysOnV1(shape.call)) continue;
      const written = ts.isVariableDeclaration(declaration) || ts.isParameter(declaration) || ts.isPropertyDeclaration(declaration) ? writtenType(declaration) : undefined;
      if (written) attach(written, shape);
      // `(r) => r.id` over `T[]` of `class Resource<T extends { id: string }>`: the constraint is the type written for it.
      else if (ts.isParameter(declaration) && shape.kind === 'resource') attach(this.constraintOf(declaration), shape);
      // `isGroupList(x: unknown): x is { items: Group[] }`: the guard's predicate types what its parameter holds.
      const parameter = ts.isParameter(declaration) && ts.isIdentifier(declaration.name) ? declaration.name.text : undefined;
      const predicate = parameter ? (declaration.parent as ts.SignatureDeclaration).type : undefined;
      if (predicate && ts.isTypePredicateNode(predicate) && predicate.parameterName.getText() === parameter) attach(predicate.type, shape);
    }
    // A value's shape is asked only where a written type could take it: the checker is the cost.
    const typedPlaces = [ts.SyntaxKind.AsExpression, ts.SyntaxKind.SatisfiesExpression, ts.SyntaxKind.TypeAssertionExpression, ts.SyntaxKind.ParenthesizedExpression, ts.SyntaxKind.VariableDeclaration, ts.SyntaxKind.ReturnStatement, ts.SyntaxKind.ArrowFunction, ts.SyntaxKind.CallExpression];
    for (const node of nodesOf(sf).ofKinds(...typedPlaces)) {
      if ((ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isTypeAssertionExpression(node)) && !ts.isConstTypeReference(node.type)) attach(node.type, shapeOf(node.expression));
      // `/** @type {{ items: Group[] }} */ (await res.json())`: JavaScript's cast.
      else if (ts.isParenthesizedExpression(node)) {
        const cast = inScript(node) ? ts.getJSDocTypeTag(node)?.typeExpression.type : undefined;
        if (cast) attach(cast, shapeOf(node.expression));
      }
      else if (ts.isVariableDeclaration(node) && node.initializer) {
        const written = writtenType(node);
        if (written) attach(written, shapeOf(node.initializer));
      }
      else if (ts.isReturnStatement(node) && node.expression) {
        const declared = returnTypeOf(node);
        if (declared) attach(declared, shapeOf(node.expression));
      } else if (ts.isArrowFunction(node) && !ts.isBlock(node.body)) {
        if (node.type) attach(node.type, shapeOf(node.body));
      } else if (ts.isCallExpression(node)) this.atCall(node, shapeOf, attach);
    }
  }

  /**
   * `class Groups extends Resource<Group>` where `abstract class Resource<T extends { id: string }>`:
   * a record type handed to a base class's type parameter and its constraint take one set of names
   * (renamed alone, Group would no longer satisfy it), so the constraint is seen on every call the
   * record type is seen on, each as it migrates or stays: where one stays, neither is renamed, and
   * the calls that would migrate are kept with it (markSharedTypes). Asked once every file's written
   * types are known: the record type may be learned in another file.
   */
  gatherHeritage(sf: ts.SourceFile, staysOnV1: (call: V1Call) => boolean): void {
    for (const node of nodesOf(sf).of<ts.ClassDeclaration>(ts.SyntaxKind.ClassDeclaration)) this.atHeritage(node, staysOnV1);
  }

  private atHeritage(node: ts.ClassDeclaration, staysOnV1: (call: V1Call) => boolean): void {
    for (const type of node.heritageClauses?.flatMap((c) => c.types) ?? []) {
      if (!type.typeArguments?.length) continue;
      let symbol = this.checker.getSymbolAtLocation(type.expression);
      if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = this.checker.getAliasedSymbol(symbol);
      const base = symbol?.declarations?.find(ts.isClassDeclaration);
      if (!base || !isProjectSource(base.getSourceFile())) continue;
      type.typeArguments.forEach((arg, i) => {
        const constraint = base.typeParameters?.[i]?.constraint;
        const container = constraint && ts.isTypeReferenceNode(arg) ? this.types.containerOf(arg.typeName) : undefined;
        const resource = container && this.types.containers.get(container)?.find((r) => r.shape === 'resource')?.resource;
        if (!resource) return;
        const calls = [...(this.types.seenOn.get(container!) ?? [])] as V1Call[];
        // A record type that keeps v1's names for data of the program's own keeps its constraint's too.
        if (calls.length === 0) this.types.within(undefined, this.types.pinned.has(container!), () => this.types.attach(constraint, 'resource', resource));
        for (const call of calls) this.types.within(call, staysOnV1(call), () => this.types.attach(constraint, 'resource', resource));
      });
    }
  }

  /** The constraint written on the type parameter an untyped parameter's type is (`T` of `class Resource<T extends { id: string }>`). */
  private constraintOf(parameter: ts.ParameterDeclaration): ts.TypeNode | undefined {
    const type = this.checker.getTypeAtLocation(parameter.name);
    if (!(type.flags & ts.TypeFlags.TypeParameter)) return undefined;
    const declaration = type.symbol?.declarations?.[0];
    return declaration && ts.isTypeParameterDeclaration(declaration) && isProjectSource(declaration.getSourceFile()) ? declaration.constraint : undefined;
  }

  /**
   * Whether a call may resolve to a function declared in the program's own sources: only such a
   * function's generic helper can be handed values that are no API records. Asked of the callee's
   * type, which costs far less than resolving the call (a library's overloads, callbacks inferred).
   */
  private mayBeProjectFunction(call: ts.CallExpression): boolean {
    const signatures = this.checker.getSignaturesOfType(this.checker.getTypeAtLocation(call.expression), ts.SignatureKind.Call);
    if (signatures.length === 0) return true;
    return signatures.some((s) => !s.declaration || isProjectSource(s.declaration.getSourceFile()));
  }

  /**
   * `bindings.sort(byCreatedAt)`, `notices.sort(byCreatedAt)`: a function of the program handed an
   * array's elements. Its parameters' written types meet them as a call's arguments would: records
   * attach the type; values of the program's own mark it foreign, so that a comparator typed in place
   * for both keeps its names and the records' call stays with it.
   */
  private atElementCallback(node: ts.CallExpression, shapeOf: (e: ts.Expression) => Shape | undefined, attach: (type: ts.TypeNode | undefined, shape: Shape | undefined) => void): void {
    const callee = node.expression;
    const handed = node.arguments[0] && unwrap(node.arguments[0]);
    if (!ts.isPropertyAccessExpression(callee) || !CALLBACK_OVER_ELEMENTS.has(callee.name.text) || !handed || !(ts.isIdentifier(handed) || ts.isPropertyAccessExpression(handed))) return;
    const fn = functionOf(handed, this.declarationOf);
    if (!fn || !isProjectSource(fn.getSourceFile())) return;
    const sorts = callee.name.text === 'sort' || callee.name.text === 'toSorted';
    const types = fn.parameters.slice(0, sorts ? 2 : 1).flatMap((p) => writtenType(p) ?? []);
    if (types.length === 0) return;
    const over = shapeOf(callee.expression);
    if (over?.kind === 'array') for (const type of types) attach(type, { kind: 'resource', resource: over.resource, ...(over.call ? { call: over.call } : {}) });
    if ((over?.kind === 'array' && over.call) || this.types.containers.size === 0) return;
    const element = this.checker.getIndexTypeOfType(this.checker.getTypeAtLocation(callee.expression), ts.IndexKind.Number);
    if (!element || element.flags & (ts.TypeFlags.TypeParameter | ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return;
    // Records known by their type alone (a list of another module's): the calls seen on that type reach the parameters, as at a call.
    if (this.types.holdsRecord(element)) for (const type of types) this.types.noteFed(type, element);
    else for (const type of types) this.types.markForeignArgument(type);
  }

  private atCall(node: ts.CallExpression, shapeOf: (e: ts.Expression) => Shape | undefined, attach: (type: ts.TypeNode | undefined, shape: Shape | undefined) => void): void {
    this.atElementCallback(node, shapeOf, attach);
    // got(...).json<T>() and ky(...).json<T>(): T is the body's type.
    if (ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'json' && node.typeArguments?.[0]) {
      const target = shapeOf(node.expression.expression);
      const body = target && (target.kind === 'response' || target.kind === 'stream') ? bodyShape(target.call) : undefined;
      if (body && target && 'call' in target && target.call) attach(node.typeArguments[0], bodyShape(target.call) === 'envelope' ? { kind: 'envelope', resource: target.call.resource, call: target.call } : { kind: 'resource', resource: target.call.resource, call: target.call });
    }
    let signature: ts.Signature | undefined;
    const parameterOf = (i: number): ts.ParameterDeclaration | undefined => {
      signature ??= this.checker.getResolvedSignature(node);
      const declaration = signature?.declaration;
      return declaration && !ts.isJSDocSignature(declaration) ? declaration.parameters[Math.min(i, declaration.parameters.length - 1)] : undefined;
    };
    let projectCallee: boolean | undefined;
    node.arguments.forEach((arg, i) => {
      const shape = ts.isSpreadElement(arg) ? undefined : shapeOf(unwrap(arg));
      if (!shape || !TYPED_SHAPES.has(shape.kind)) {
        // Only the checker can tell that a value is no API record (the flow alone knows too little).
        if (this.types.containers.size === 0 || ts.isSpreadElement(arg) || isFunctionValue(arg)) return;
        projectCallee ??= this.mayBeProjectFunction(node);
        // `this.toModel(r)` of `r: Raw` in a generic base: a value of a type parameter says nothing of what it holds; nor
        // does a record whose call the flow lost (`this.destroyAt(path, g)` of `g: Group`): it is no value of the program's own.
        const type = projectCallee ? this.checker.getTypeAtLocation(arg) : undefined;
        if (type && !(type.flags & ts.TypeFlags.TypeParameter) && !this.types.holdsRecord(type)) this.types.markForeignArgument(parameterOf(i)?.type);
        return;
      }
      const parameter = parameterOf(i);
      if (!parameter || parameter.dotDotDotToken) return;
      const type = writtenType(parameter);
      attach(type, shape);
      // A record the checker knows by its type alone: the calls seen on that type reach the parameter.
      const written = type && ts.isArrayTypeNode(type) ? type.elementType : type;
      if (written && ts.isTypeLiteralNode(written) && !('call' in shape && shape.call)) this.types.noteFed(type, this.checker.getTypeAtLocation(arg));
    });
  }
}
