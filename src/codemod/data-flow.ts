/**
 * Follows v1 responses through a file: the response of a v1 call, its JSON body (an envelope for
 * lists, a resource for creates and updates), the envelope's `items`, the elements of that array
 * (indexing, for-of, array callbacks, `reduce`), a role binding's `role` and `group`, variables,
 * assignments, class fields, destructuring, copies (spread, `structuredClone`), records held by key
 * (`Map` set/get, an object index, `Object.values`/`entries`/`fromEntries`) and the return values of
 * the file's functions and methods. Only values reached this way are API resources: a `.id`
 * anywhere else is somebody else's.
 */
import { ts } from 'ts-morph';
import { resourceOf, type ResourceContract } from '../contract/index.js';
import { isProjectSource, type ResourceTypes } from './resource-types.js';
import { exportedValue, functionOf, givesBackItsArgument, isConst, returnedExpressions, unwrap, type StaticText } from './static-text.js';
import type { V1Call } from './v1-calls.js';
import { answersBody, BODY_MEMBERS } from './answers.js';
import { nodesOf } from './file-nodes.js';
import { holdsDeclaredType, namesMaybeNarrowed, onlyPrimitives } from './narrowing.js';
import { hasModifier } from './module-shape.js';
import { collectionCall, NAMES_A_LIBRARY, type CollectionCall } from './collection-library.js';
import { assignedTo, holdsNothing, isAssignment, isNullish, usesOf } from './syntax.js';
import { placeholder, reachingSite } from './reaching-values.js';

export type Shape =
  | { kind: 'response'; call: V1Call }
  | { kind: 'stream'; call: V1Call }
  | { kind: 'envelope'; resource: ResourceContract; call?: V1Call }
  | { kind: 'array'; resource: ResourceContract; call?: V1Call }
  /** Arrays of records, one per something: `await Promise.all(repos.map((r) => listTags(r)))`. */
  | { kind: 'arrays'; resource: ResourceContract; call?: V1Call }
  /**
   * `weak`: known only from the value's `.id` in a URL; its own type, where the checker knows one, says more.
   * `hydrated`: a record another names (`binding.group`), which v2 gives with these fields only.
   */
  | { kind: 'resource'; resource: ResourceContract; call?: V1Call; weak?: true; hydrated?: readonly string[] }
  /** Records held by a key: a `Map` (`set`/`get`) or an object used as an index (`index[key] = record`). */
  | { kind: 'keyed'; resource: ResourceContract; call?: V1Call }
  /** `[key, record]`, and arrays of them (`Object.entries`, `items.map((r) => [r.id, r])`). */
  | { kind: 'pair'; resource: ResourceContract; call?: V1Call }
  | { kind: 'entries'; resource: ResourceContract; call?: V1Call }
  /** Records in groups by a key: an object of arrays (`_.groupBy(identities, (i) => i.name)`). */
  | { kind: 'groups'; resource: ResourceContract; call?: V1Call }
  /** `[key, records]`, and arrays of them (`Object.entries(groups)`). */
  | { kind: 'groupPair'; resource: ResourceContract; call?: V1Call }
  | { kind: 'groupEntries'; resource: ResourceContract; call?: V1Call };

export type Held = Extract<Shape, { resource: ResourceContract }>;

/** The same records as another kind of holder: `{ ...shape, kind }` keeps the call and drops `weak`. */
function as(shape: Held, kind: Held['kind']): Shape {
  return { kind, resource: shape.resource, ...(shape.call ? { call: shape.call } : {}) } as Shape;
}

const GATHERING = new Set(['push', 'unshift']);
/** `a ?? b`, `a || b`, and `(a[k] ??= [])`, which is `a[k]` from then on: one of the two values. */
const EITHER = new Set([ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionEqualsToken, ts.SyntaxKind.BarBarEqualsToken]);
export const ELEMENT_OF_ARRAY = new Set(['find', 'at', 'pop', 'shift', 'findLast']);
export const ARRAY_OF_ARRAY = new Set(['filter', 'slice', 'sort', 'reverse', 'concat', 'toSorted', 'toReversed']);
export const CALLBACK_OVER_ELEMENTS = new Set(['map', 'forEach', 'filter', 'find', 'some', 'every', 'flatMap', 'findIndex', 'findLast', 'sort', 'toSorted']);
/** Calls that answer a copy of their one argument: the copy holds the same records. */
const COPIES = new Set(['structuredClone', 'Array.from', 'Object.freeze', 'Object.assign']);

function bodyShape(call: V1Call): Shape | undefined {
  switch (call.operation) {
    case 'list':
    case 'get-by-list':
      return { kind: 'envelope', resource: call.resource, call };
    case 'create':
    case 'update':
      return { kind: 'resource', resource: call.resource, call };
    default:
      return undefined;
  }
}

/** The nodes a pass of the flow learns from (propagate): declarations, assignments, calls, loops, returns. */
const LEARNING_KINDS = [
  ts.SyntaxKind.VariableDeclaration,
  ts.SyntaxKind.PropertyDeclaration,
  ts.SyntaxKind.BinaryExpression,
  ts.SyntaxKind.CallExpression,
  ts.SyntaxKind.ForOfStatement,
  ts.SyntaxKind.ReturnStatement,
  ts.SyntaxKind.YieldExpression,
  ts.SyntaxKind.ArrowFunction,
];

export class DataFlow {
  private readonly declared = new Map<ts.Declaration, Shape>();
  /** `list.push({ ... })`, `map.set(key, { ... })` of an object literal: a row that is no API record, if the list or Map holds records. */
  readonly otherPushes: ts.CallExpression[] = [];
  /** Declarations known only from their `.id` in a URL: what the flow says of them wins. */
  private readonly weak = new Set<ts.Declaration>();
  private readonly patterns = new Map<ts.BindingPattern, Shape>();
  private readonly returns = new Map<ts.Node, Shape>();
  private readonly methodReturns = new Map<string, Shape>();
  private readonly callsByNode: Map<ts.CallExpression, V1Call>;
  private readonly shapes = new Map<ts.Node, Shape | null>();
  private readonly syntactic = new Map<ts.Node, Shape | null>();
  /** Names of class fields and other members a shape was learned for: only these ask the checker for a member's declaration. */
  private readonly members = new Set<string>();
  /** Names of the file's getters whose returns the flow knows: a cheap filter before asking the checker. */
  private readonly getters = new Set<string>();
  /** Parameters of the file's own functions whose type says nothing, with what each use of the function hands them (parameterFeeds). */
  private feeds?: Map<ts.ParameterDeclaration, Feeds>;
  /** What a variable is given at each place (its initialiser, assignments to it), undefined where no call's value: reaching-values.ts. */
  private readonly sites = new Map<ts.VariableDeclaration, Map<ts.Node, Shape | undefined>>();
  /** Parameters bound from what every use hands them, with the calls whose values meet there. */
  private readonly meetings = new Map<ts.ParameterDeclaration, { calls: V1Call[]; kind: Shape['kind'] }>();
  /** Whether the file names lodash or underscore: only then are its calls asked whether they are the library's (collection-library.ts). */
  private readonly library: boolean;
  /** What the checker said of a node's type: asked once per node, whatever is learned after (roles are what change). */
  private readonly checked = new Map<ts.Node, ts.Type>();

  constructor(
    private readonly sf: ts.SourceFile,
    private readonly checker: ts.TypeChecker,
    calls: readonly V1Call[],
    private readonly text: StaticText,
    private readonly types: ResourceTypes,
    /** Calls with a v1 path that the contract does not place: what they answer stays v1's. */
    private readonly unplaced: ReadonlySet<ts.Node> = new Set(),
    /** Names the file's test doubles answer with (reply-bodies.ts): records, lists and answers of calls they serve. */
    seeds: ReadonlyMap<ts.Declaration, Shape> = new Map(),
    /** What a function of another file returns, by that file's flow (values a test gets from the program it tests). */
    private readonly elsewhere: (fn: ts.Node) => Shape | undefined = () => undefined,
  ) {
    this.callsByNode = new Map(calls.map((c) => [c.call, c]));
    this.library = NAMES_A_LIBRARY.test(sf.text);
    for (const [declaration, shape] of seeds) this.declared.set(declaration, shape);
    // Shapes flow forward through declarations and functions: a few passes reach a fixed point.
    for (let pass = 0; pass < 4; pass++) {
      this.shapes.clear();
      this.syntactic.clear();
      if (!this.propagate()) break;
    }
  }

  /** Forgets shapes asked before more resource types were known (a member's shape builds on its object's, which the checker may give). */
  typesChanged(): void {
    this.shapes.clear();
    this.syntactic.clear();
  }

  /**
   * The analysis settled its types: from now on a name whose written type says nothing (`(g: any)`,
   * `const [first]: any[] = ...`) is bound, at its first read, to what the types say it is given
   * (hiddenShape). Asked at reads only: passes over the whole file that ask the checker at every
   * node cost the typed 5,000-file bench 12% more CPU.
   */
  typesSettled(): void {
    this.hiddenSites = new Set();
    this.typesChanged();
  }

  /** The sites hiddenShape has bound (or tried to), once the types are settled. */
  private hiddenSites?: Set<ts.Node>;

  /** What a name declared with a type that says nothing holds, read through the value its site is given. */
  private hiddenShape(declaration: ts.Node): Shape | undefined {
    const site = this.hiddenSites && bindingSite(declaration);
    // `const card = { ...repos[0], owner }` of records known by their type alone: the copy's own type names no record type.
    const copy = site && !site.type && ts.isVariableDeclaration(site) && site.initializer && isCopyOfSpread(site.initializer);
    if (!site || this.hiddenSites!.has(site) || (!copy && (!site.type || !saysNothing(site.type, (n) => this.declarationOf(n))))) return undefined;
    this.hiddenSites!.add(site);
    this.bindPattern(site.name, ts.isVariableDeclaration(site) ? site.initializer && this.shapeOf(site.initializer) : this.callbackShape(site));
    return isPattern(declaration) ? this.patterns.get(declaration) : this.declared.get(declaration as ts.Declaration);
  }

  /** What a callback's parameter is handed: an element of the records an array method walks, what a promise holds for `then`. */
  private callbackShape(parameter: ts.ParameterDeclaration): Shape | undefined {
    const call = parameter.parent.parent;
    return ts.isCallExpression(call) ? this.callbackBindings(call).find(([p]) => p === parameter)?.[1] : undefined;
  }

  /**
   * The parameters of a call's callback (its first argument) and what the call hands them:
   * `fetch(...).then((r) => r.json()).then((body) => ...)` the body the promise holds, an array
   * method over records each record (reduce's accumulator too).
   */
  private callbackBindings(call: ts.CallExpression): [ts.ParameterDeclaration, Shape][] {
    const argument = call.arguments[0] && unwrap(call.arguments[0]);
    // `items.map(fn)` of a parameter: the callback the one call of its function hands there.
    const handed = argument && ts.isIdentifier(argument) && ts.isParameter(this.declarationOf(argument) ?? argument);
    const callback = handed ? this.callbackOf(argument) : call.arguments[0];
    if (!callback || !(ts.isArrowFunction(callback) || ts.isFunctionExpression(callback)) || !ts.isPropertyAccessExpression(call.expression)) return [];
    const method = call.expression.name.text;
    if (handed && method === 'reduce') return [];
    if (method !== 'then' && method !== 'reduce' && !CALLBACK_OVER_ELEMENTS.has(method)) return [];
    const over = this.shapeOf(call.expression.expression);
    // `.then((res) => res.json() as Promise<GroupList>)`: a response too, so that what is read of it is known (its body's type).
    if (method === 'then') return over && callback.parameters[0] ? [[callback.parameters[0], over]] : [];
    return over && 'resource' in over ? callbackParameters(method, over, callback, call.arguments[1] && this.shapeOf(call.arguments[1])) : [];
  }

  private declarationOf(node: ts.Node): ts.Declaration | undefined {
    return this.text.declarationOf(node);
  }

  /** `Promise.all([fetch(a), fetch(b)]).then(([roles, groups]) => ...)`: each name holds its own call's value, as in `const [a, b] = await Promise.all(...)`. */
  private bindTupleHandler(call: ts.CallExpression): void {
    const handler = call.arguments[0] && unwrap(call.arguments[0]);
    const pattern = handler && (ts.isArrowFunction(handler) || ts.isFunctionExpression(handler)) ? handler.parameters[0]?.name : undefined;
    const tuple = pattern && ts.isArrayBindingPattern(pattern) && ts.isPropertyAccessExpression(call.expression) && call.expression.name.text === 'then' ? awaitedTuple(call.expression.expression) : undefined;
    if (!tuple || !pattern || !ts.isArrayBindingPattern(pattern)) return;
    pattern.elements.forEach((item, i) => {
      const value = tuple[i];
      if (ts.isBindingElement(item) && !item.dotDotDotToken && value && !ts.isSpreadElement(value)) this.bindPattern(item.name, this.shapeOf(value));
    });
  }

  /** Parameters of the file's functions that values of API calls reach, with those calls. */
  parameterMeetings(): IterableIterator<[ts.ParameterDeclaration, { calls: V1Call[]; kind: Shape['kind'] }]> {
    return this.meetings.entries();
  }

  /**
   * Parameters handed values of API calls that the flow could not bind: handed other values too (a
   * row of the program's own), or of a function used where the flow does not see (exported, or
   * handed on). What the calls hand them.
   */
  *mixedParameters(): Generator<[ts.ParameterDeclaration, Held[], boolean]> {
    for (const [parameter, { feeds, open }] of this.parameterFeeds()) {
      // A parameter with a shape of its own (its `.id` fills a v1 URL) has its reads renamed already.
      if (this.meetings.has(parameter) || this.declared.has(parameter)) continue;
      const held = feeds.flatMap((feed) => {
        const shape = feed?.();
        return shape && 'resource' in shape && shape.call && !('weak' in shape && shape.weak) ? [shape] : [];
      });
      if (held.length > 0) yield [parameter, held, open];
    }
  }

  /**
   * `function label(g) { return g.id }` called as `label(group)` or `groups.map(label)`: what
   * each use hands each parameter of the file's own functions whose type says nothing (saysNothing). A
   * function that another module may call (exported), or that is used other than so, is `open`.
   */
  private parameterFeeds(): Map<ts.ParameterDeclaration, Feeds> {
    if (this.feeds) return this.feeds;
    this.feeds = new Map();
    const functions = new Map<ts.Declaration, { fn: ts.SignatureDeclaration; uses: Use[]; open: boolean }>();
    for (const node of nodesOf(this.sf).ofKinds(ts.SyntaxKind.FunctionDeclaration, ts.SyntaxKind.VariableDeclaration, ts.SyntaxKind.ClassDeclaration)) {
      if (ts.isFunctionDeclaration(node) && node.name && node.body) functions.set(node, { fn: node, uses: [], open: hasModifier(node, ts.SyntaxKind.ExportKeyword) });
      // `new Teams(groups)`: what a class is made with reaches its constructor's parameters.
      if (ts.isClassDeclaration(node) && node.name) {
        const made = node.members.find((m): m is ts.ConstructorDeclaration => ts.isConstructorDeclaration(m) && m.body !== undefined);
        if (made) functions.set(node, { fn: made, uses: [], open: hasModifier(node, ts.SyntaxKind.ExportKeyword) });
      }
      if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer && (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer))) {
        functions.set(node, { fn: node.initializer, uses: [], open: hasModifier(node.parent.parent, ts.SyntaxKind.ExportKeyword) });
      }
      if (ts.isClassDeclaration(node)) for (const [member, fn] of methodsOf(node)) functions.set(member, { fn, uses: [], open: this.methodOpen(node, member as ts.ClassElement) });
      if (ts.isVariableDeclaration(node) && node.initializer && ts.isObjectLiteralExpression(unwrap(node.initializer))) {
        const exported = hasModifier(node.parent.parent, ts.SyntaxKind.ExportKeyword);
        for (const [member, fn] of methodsOf(unwrap(node.initializer) as ts.ObjectLiteralExpression)) functions.set(member, { fn, uses: [], open: exported });
      }
    }
    if (functions.size === 0) return this.feeds;
    const names = new Set([...functions.keys()].map((d) => (d as ts.NamedDeclaration).name!.getText(this.sf)));
    for (const id of nodesOf(this.sf).ofKinds(ts.SyntaxKind.Identifier, ts.SyntaxKind.PrivateIdentifier) as (ts.Identifier | ts.PrivateIdentifier)[]) {
      if (!names.has(id.text) || functions.has(id.parent as ts.Declaration)) continue;
      const declaration = this.declarationOf(id);
      const used = declaration && functions.get(declaration);
      if (!used) continue;
      const use = this.useOf(id);
      if (use) used.uses.push(use);
      else used.open = true;
    }
    for (const { fn, uses, open } of functions.values()) {
      if (uses.length === 0) continue;
      for (const [i, p] of fn.parameters.entries()) {
        if (saysNothing(p.type, (n) => this.declarationOf(n)) && !p.dotDotDotToken) this.feeds.set(p, { feeds: uses.map((use) => use(i)), open });
      }
    }
    return this.feeds;
  }

  /** The record `list.push(record)` gathers, or each record of `list.push(...records)`. */
  private gathered(push: ts.CallExpression): Shape | undefined {
    const first = push.arguments[0];
    if (!first) return undefined;
    if (!ts.isSpreadElement(first)) return this.shapeOf(first);
    const spread = this.shapeOf(first.expression);
    return spread?.kind === 'array' ? as(spread, 'resource') : undefined;
  }

  /**
   * An object of the program's own: a literal that is no record, or a parameter of the file's
   * function that one of its calls hands such a literal (`addLocal({ id: 'bot' })` putting `obj`
   * into a Map of records).
   */
  private ownObject(value: ts.Expression): boolean {
    const n = unwrap(value);
    if (ts.isObjectLiteralExpression(n)) return this.shapeOf(n)?.kind !== 'resource';
    const parameter = ts.isIdentifier(n) ? this.declarationOf(n) : undefined;
    if (!parameter || !ts.isParameter(parameter) || !ts.isFunctionLike(parameter.parent)) return false;
    const fn = parameter.parent;
    const i = fn.parameters.indexOf(parameter);
    const name = ts.isFunctionDeclaration(fn) ? fn.name : (ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) && ts.isVariableDeclaration(fn.parent) && ts.isIdentifier(fn.parent.name) ? fn.parent.name : undefined;
    const declaration = ts.isFunctionDeclaration(fn) ? fn : fn.parent;
    if (!name) return false;
    return nodesOf(this.sf).of<ts.CallExpression>(ts.SyntaxKind.CallExpression).some((call) => {
      const arg = call.arguments[i];
      return ts.isIdentifier(call.expression) && call.expression.text === name.text && this.declarationOf(call.expression) === declaration && arg !== undefined && ts.isObjectLiteralExpression(unwrap(arg)) && this.shapeOf(unwrap(arg))?.kind !== 'resource';
    });
  }

  /**
   * A class's method that code the flow does not see may call: one of an exported class that is not
   * private, or of a class that extends or is extended (an override may take the call).
   */
  private methodOpen(owner: ts.ClassDeclaration, member: ts.ClassElement): boolean {
    const hidden = (member.name !== undefined && ts.isPrivateIdentifier(member.name)) || hasModifier(member, ts.SyntaxKind.PrivateKeyword);
    const exported = hasModifier(owner, ts.SyntaxKind.ExportKeyword);
    const inherits = owner.heritageClauses !== undefined || hasModifier(owner, ts.SyntaxKind.AbstractKeyword) || nodesOf(this.sf).of<ts.ClassDeclaration>(ts.SyntaxKind.ClassDeclaration).some((c) => c !== owner && c.heritageClauses !== undefined);
    return (exported && !hidden) || inherits;
  }

  /** How a use of a function hands its parameters values: a call's arguments, or the elements of an array it is the callback of. */
  private useOf(named: ts.Identifier | ts.PrivateIdentifier): Use | undefined {
    // A method is used by its member read: `this.toModel(raw)`, `Team.fromApi(raw)`, `raws.map(this.toModel, this)`.
    const id: ts.Node = ts.isPropertyAccessExpression(named.parent) && named.parent.name === named ? named.parent : named;
    const parent = id.parent;
    if (ts.isNewExpression(parent) && parent.expression === id) {
      const args = parent.arguments ?? [];
      return (i) => (args[i] && !args.slice(0, i + 1).some(ts.isSpreadElement) ? () => this.shapeOf(args[i]!) : undefined);
    }
    if (!ts.isCallExpression(parent)) return undefined;
    if (parent.expression === id) {
      const args = parent.arguments;
      return (i) => (args[i] && !args.slice(0, i + 1).some(ts.isSpreadElement) ? () => this.shapeOf(args[i]!) : undefined);
    }
    // `inBatches(groups, 4, retag)`: handed to a function of the file that hands it on to one walk (`items.map(fn)`).
    const k = parent.arguments.indexOf(id as ts.Expression);
    const target = k >= 0 && !parent.arguments.slice(0, k + 1).some(ts.isSpreadElement) ? functionOf(parent.expression, (n) => this.declarationOf(n)) : undefined;
    const walks = target?.getSourceFile() === this.sf && target.parameters[k] ? this.walksOf(target.parameters[k]) : undefined;
    if (walks?.length === 1) return (i) => (i === 0 ? () => this.handedEach(walks[0]!) : undefined);
    const method = ts.isPropertyAccessExpression(parent.expression) ? parent.expression : undefined;
    if (!method || parent.arguments[0] !== id || !CALLBACK_OVER_ELEMENTS.has(method.name.text) || method.name.text === 'sort' || method.name.text === 'toSorted') return undefined;
    return (i) =>
      i === 0
        ? () => {
            const over = this.shapeOf(method.expression);
            return over && 'resource' in over ? elementFor(method.name.text, over) : undefined;
          }
        : undefined;
  }

  /** Destructuring patterns the flow reached, with what they take apart. */
  destructured(): IterableIterator<[ts.BindingPattern, Shape]> {
    return this.patterns.entries();
  }

  /** Whether the list body of a call is taken apart somewhere (`const { items } = await res.json()`). */
  takesApart(call: V1Call): boolean {
    for (const shape of this.patterns.values()) if (shape.kind === 'envelope' && shape.call === call) return true;
    return false;
  }

  /** Declarations the flow gave a shape, for the evidence their written types give. */
  declarations(): IterableIterator<[ts.Declaration, Shape]> {
    return this.declared.entries();
  }

  /** The variable that holds the response of a call (`const res = await fetch(...)`), if there is one. */
  responseVariable(call: V1Call): ts.Identifier | undefined {
    let found: ts.Identifier | undefined;
    for (const [declaration, shape] of this.declared) {
      if (shape.kind !== 'response' || shape.call !== call || !ts.isVariableDeclaration(declaration) || !ts.isIdentifier(declaration.name)) continue;
      // `const res = await withRetry(() => fetch(url))`: the variable made from the call, not the helper's own `res` that also holds it.
      const made = declaration.initializer !== undefined && declaration.initializer.pos <= call.call.pos && call.call.end <= declaration.initializer.end;
      if (made) return declaration.name;
      found ??= declaration.name;
    }
    return found;
  }

  /** The shape a destructuring pattern takes apart, when the flow reached it. */
  patternShape(pattern: ts.ObjectBindingPattern): Shape | undefined {
    return this.patterns.get(pattern) ?? this.hiddenShape(pattern);
  }

  shapeOf(expression: ts.Expression): Shape | undefined {
    const n = unwrap(expression);
    let shape = this.shapes.get(n);
    if (shape === undefined) {
      const flow = this.flowShape(n);
      shape = (flow && !('weak' in flow && flow.weak) ? flow : (this.checkedShape(n) ?? flow)) ?? null;
      this.shapes.set(n, shape);
    }
    return shape ?? undefined;
  }

  /** What the flow from v1 calls alone says about an expression, without the checker. */
  flowShape(expression: ts.Expression): Shape | undefined {
    const n = unwrap(expression);
    let shape = this.syntactic.get(n);
    if (shape === undefined) {
      shape = this.syntacticShape(n) ?? null;
      this.syntactic.set(n, shape);
    }
    return shape ?? undefined;
  }

  private syntacticShape(n: ts.Expression): Shape | undefined {
    if (ts.isCallExpression(n)) return this.callShape(n);
    if (ts.isNewExpression(n)) return this.heldBy(n);
    if (ts.isIdentifier(n)) {
      const declaration = this.declarationOf(n);
      if (declaration && this.holdsKinds(declaration)) return this.reaching(declaration as ts.VariableDeclaration, n);
      return declaration ? (this.declared.get(declaration) ?? this.hiddenShape(declaration)) : undefined;
    }
    if (ts.isPropertyAccessExpression(n)) return this.memberShape(this.shapeOf(n.expression), n.name.text) ?? this.iteratedValue(n) ?? this.fieldShape(n) ?? this.getterShape(n);
    if (ts.isElementAccessExpression(n)) {
      const target = this.shapeOf(n.expression);
      if (target?.kind === 'array' || target?.kind === 'keyed') return as(target, 'resource');
      if (target?.kind === 'entries') return as(target, 'pair');
      // `pair[1]` of `[key, record]`.
      if (target?.kind === 'pair' && ts.isNumericLiteral(n.argumentExpression) && n.argumentExpression.text === '1') return as(target, 'resource');
      if (target?.kind === 'arrays' || target?.kind === 'groups') return as(target, 'array');
      if (target?.kind === 'groupEntries') return as(target, 'groupPair');
      if (ts.isStringLiteral(n.argumentExpression)) return this.memberShape(target, n.argumentExpression.text);
      return undefined;
    }
    if (ts.isObjectLiteralExpression(n)) return this.copiedShape(n);
    if (ts.isArrayLiteralExpression(n)) return this.arrayLiteralShape(n);
    if (ts.isConditionalExpression(n)) return this.shapeOf(n.whenTrue) ?? this.shapeOf(n.whenFalse);
    if (ts.isBinaryExpression(n) && EITHER.has(n.operatorToken.kind)) {
      return this.shapeOf(n.left) ?? this.shapeOf(n.right);
    }
    return undefined;
  }

  /** `this.cache`, `service.all`: a class field (or other member) the flow learned a shape for. */
  private fieldShape(n: ts.PropertyAccessExpression): Shape | undefined {
    if (!this.members.has(n.name.text)) return undefined;
    const declaration = this.declarationOf(n.name);
    return declaration ? this.declared.get(declaration) : undefined;
  }

  /** `api.groups` of `get groups() { return this.#groups ??= ... }`: what a getter of the file returns. */
  private getterShape(n: ts.PropertyAccessExpression): Shape | undefined {
    const declaration = this.getters.has(n.name.text) ? this.declarationOf(n.name) : undefined;
    return declaration && ts.isGetAccessorDeclaration(declaration) ? this.returns.get(declaration) : undefined;
  }

  /** `{ ...group, label }`: a copy of a record with more members is still that record. */
  private copiedShape(n: ts.ObjectLiteralExpression): Shape | undefined {
    for (const p of n.properties) {
      if (!ts.isSpreadAssignment(p)) continue;
      const spread = this.shapeOf(p.expression);
      if (spread?.kind === 'resource') return as(spread, 'resource');
    }
    return undefined;
  }

  /** `[key, record]` is a pair; `[record]`, `[a, b]`, `[...records, record]` an array of records; `[seen, never]`, `[...chunks]` arrays of them. */
  private arrayLiteralShape(n: ts.ArrayLiteralExpression): Shape | undefined {
    const [first, second] = n.elements;
    if (n.elements.length === 2 && second && !ts.isSpreadElement(first!) && !ts.isSpreadElement(second)) {
      const value = this.shapeOf(second);
      if (value?.kind === 'resource' && this.shapeOf(first!)?.kind !== 'resource') return as(value, 'pair');
    }
    let held: Held | undefined;
    for (const e of n.elements) {
      const each = this.literalPart(e);
      if (!each || (held && (held.kind !== each.kind || held.resource !== each.resource))) return undefined;
      held ??= each;
    }
    return held;
  }

  /** What an element of an array literal makes the array: a record one of records, an array (or spread arrays) one of arrays, spread records one of records. */
  private literalPart(e: ts.Expression): Held | undefined {
    const shape = this.shapeOf(ts.isSpreadElement(e) ? e.expression : e);
    if (!shape || !('resource' in shape)) return undefined;
    // `[...byName]` of a Map of records: its `[key, record]` entries; `[...byGroup]` of a Map of lists, `[key, records]`.
    if (ts.isSpreadElement(e)) {
      if (shape.kind === 'array' || shape.kind === 'arrays' || shape.kind === 'entries' || shape.kind === 'groupEntries') return shape;
      return shape.kind === 'keyed' ? (as(shape, 'entries') as Held) : shape.kind === 'groups' ? (as(shape, 'groupEntries') as Held) : undefined;
    }
    return shape.kind === 'resource' ? (as(shape, 'array') as Held) : shape.kind === 'array' ? (as(shape, 'arrays') as Held) : undefined;
  }

  /** The checker's type of a node, asked once. */
  private typeAt(node: ts.Node): ts.Type {
    let type = this.checked.get(node);
    if (!type) this.checked.set(node, (type = this.checker.getTypeAtLocation(node)));
    return type;
  }

  /**
   * A variable's type where it is read, as shapes tell it: its declared type, asked once for all its
   * reads, when nothing in the file can narrow it, or when it is made of primitives, which narrowing
   * keeps so (narrowing.ts); else the checker's type at the read.
   */
  private referenceType(n: ts.Identifier): ts.Type {
    const declaration = this.declarationOf(n);
    if (!declaration || !(ts.isParameter(declaration) || ts.isVariableDeclaration(declaration)) || !ts.isIdentifier(declaration.name) || declaration.name === n) return this.typeAt(n);
    if (declaration.getSourceFile() !== this.sf) return this.typeAt(n);
    const declared = (ts.isParameter(declaration) && this.elementParameterType(declaration)) || this.typeAt(declaration.name);
    if (onlyPrimitives(declared)) return declared;
    if (namesMaybeNarrowed(this.sf).has(n.text)) return this.typeAt(n);
    return holdsDeclaredType(this.checker, declared) ? declared : this.typeAt(n);
  }

  /**
   * The element parameter of a callback over an array (`list.map((item) => ...)`, reduce's current
   * value): the array's element type, as every such method of Array and ReadonlyArray declares it.
   * Read from the array, it costs no resolution of the call (its overloads, the callback's return
   * inferred), the dearest question the field renames asked.
   */
  private elementParameterType(p: ts.ParameterDeclaration): ts.Type | undefined {
    const fn = p.parent;
    if (p.type || p.initializer || p.dotDotDotToken || !(ts.isArrowFunction(fn) || ts.isFunctionExpression(fn))) return undefined;
    const call = fn.parent;
    if (!ts.isCallExpression(call) || call.arguments[0] !== fn || !ts.isPropertyAccessExpression(call.expression)) return undefined;
    if (!elementParameters(call.expression.name.text, fn).includes(p)) return undefined;
    const over = call.expression.expression;
    const array = ts.isIdentifier(over) ? this.referenceType(over) : this.typeAt(over);
    return this.checker.isArrayType(array) ? this.checker.getTypeArguments(array as ts.TypeReference)[0] : undefined;
  }

  /** What the checker says of any node's type (a parameter, a binding pattern). */
  typedShape(node: ts.Node): Shape | undefined {
    const role = this.types.containers.size > 0 ? this.types.roleOf(this.typeAt(node)) : null;
    return role ? { kind: role.shape, resource: role.resource } : undefined;
  }

  /** What the checker says where the flow does not: a value whose type is a known resource or envelope type. */
  private checkedShape(n: ts.Expression): Shape | undefined {
    if (this.types.containers.size === 0) return undefined;
    if (!ts.isIdentifier(n) && !ts.isPropertyAccessExpression(n) && !ts.isCallExpression(n) && !ts.isElementAccessExpression(n)) return undefined;
    // `unwrap` took the await away: a promise's value is what was awaited.
    const type = ts.isIdentifier(n) ? this.referenceType(n) : this.typeAt(n);
    const role = this.types.roleOf(ts.isCallExpression(n) ? (this.checker.getAwaitedType(type) ?? type) : type);
    return role ? { kind: role.shape, resource: role.resource } : undefined;
  }

  /** `groups.values().next().value`, `byId.values().next().value`: the first record, through an iterator of the records. */
  private iteratedValue(n: ts.PropertyAccessExpression): Shape | undefined {
    const next = unwrap(n.expression);
    if (n.name.text !== 'value' || !ts.isCallExpression(next) || next.arguments.length > 0 || !ts.isPropertyAccessExpression(next.expression) || next.expression.name.text !== 'next') return undefined;
    const records = this.shapeOf(next.expression.expression);
    return records?.kind === 'array' ? as(records, 'resource') : undefined;
  }

  private memberShape(target: Shape | undefined, name: string): Shape | undefined {
    if (!target) return undefined;
    const call = target.call;
    if (target.kind === 'response') {
      if (name === BODY_MEMBERS[target.call.client]) return bodyShape(target.call);
      if (name === 'body') return target.call.client === 'undici' || target.call.client === 'fetch' ? { kind: 'stream', call: target.call } : bodyShape(target.call);
    }
    if (target.kind === 'envelope' && name === target.resource.v1.endpoints.list!.envelopeKey) return { kind: 'array', resource: target.resource, ...(call ? { call } : {}) };
    // `byName.ci` of an index of records (`Object.fromEntries`, a reduce): a record, as `byName['ci']` is; a Map's one member is its size.
    if (target.kind === 'keyed' && name !== 'size') return as(target, 'resource');
    if (target.kind === 'resource') {
      const field = target.resource.fields.find((f) => f.v1 === name && f.reference?.v1Form === 'object');
      if (field) return { kind: 'resource', resource: resourceOf(field.reference!.target), ...(call ? { call } : {}), hydrated: field.reference!.hydratedFields.map((f) => f.name) };
    }
    return undefined;
  }

  /**
   * Whether the flow follows what an array method hands a callback: one written in place, a function
   * of the file, or a method of the file's (`raws.map(this.toModel, this)`).
   */
  followsCallback(argument: ts.Expression): boolean {
    const a = unwrap(argument);
    if (this.callbackOf(a)) return true;
    const member = ts.isPropertyAccessExpression(a) ? this.declarationOf(a.name) : undefined;
    if (!member || member.getSourceFile() !== this.sf) return false;
    // `mappers.toGroup` of `{ toGroup: GroupFromJSON }` names a function of elsewhere: only one written here is followed.
    const value = ts.isPropertyDeclaration(member) || ts.isPropertyAssignment(member) ? member.initializer && unwrap(member.initializer) : member;
    return value !== undefined && (ts.isMethodDeclaration(value) || ts.isArrowFunction(value) || ts.isFunctionExpression(value));
  }

  /**
   * A callback written in place, or named: `ids.map(readGroup)` of a function of the file; or the
   * parameter of a function of the file called once, by the callback that call hands it
   * (`items.map(fn)` in `inBatches(items, size, fn)`, called as `inBatches(groups, 4, (g) => retag(g))`).
   */
  private callbackOf(argument: ts.Expression): ts.Node | undefined {
    const a = unwrap(argument);
    const written = this.writtenCallback(a);
    if (written || !ts.isIdentifier(a)) return written;
    const parameter = this.declarationOf(a);
    const handed = parameter && ts.isParameter(parameter) && this.walksOf(parameter) ? this.handedCallbacks(parameter) : undefined;
    return handed && !handed.open && handed.callbacks.length === 1 ? handed.callbacks[0] : undefined;
  }

  /**
   * The calls that hand a parameter of a function as their callback (`items.map(fn)`, `p.then(fn)`),
   * when that is all the function does with it: then those calls alone call what it is handed.
   */
  private walksOf(parameter: ts.ParameterDeclaration): ts.CallExpression[] | undefined {
    // Syntax alone: asked again on every pass, found once.
    if (this.walks.has(parameter)) return this.walks.get(parameter) ?? undefined;
    let walks: ts.CallExpression[] | null = [];
    for (const use of usesOf(this.sf, parameter, (n) => this.declarationOf(n))) {
      const call = use.parent;
      const method = ts.isCallExpression(call) && call.arguments[0] === use && ts.isPropertyAccessExpression(call.expression) ? call.expression.name.text : undefined;
      if (!method || !(method === 'then' || CALLBACK_OVER_ELEMENTS.has(method)) || method === 'sort' || method === 'toSorted') {
        walks = null;
        break;
      }
      walks.push(call as ts.CallExpression);
    }
    this.walks.set(parameter, walks);
    return walks ?? undefined;
  }

  private readonly walks = new Map<ts.ParameterDeclaration, ts.CallExpression[] | null>();

  /** What a walk (`items.map(fn)`, `p.then(fn)`) hands its callback first: each record, or what the promise holds. */
  private handedEach(walk: ts.CallExpression): Shape | undefined {
    const method = walk.expression as ts.PropertyAccessExpression;
    const over = this.shapeOf(method.expression);
    if (method.name.text === 'then') return over;
    return over && 'resource' in over ? elementFor(method.name.text, over) : undefined;
  }

  private writtenCallback(a: ts.Expression): ts.Node | undefined {
    if (ts.isArrowFunction(a) || ts.isFunctionExpression(a)) return a;
    const named = ts.isIdentifier(a) ? functionOf(a, (node) => this.declarationOf(node)) : undefined;
    return named?.getSourceFile() === this.sf ? named : undefined;
  }

  /**
   * What each call of a function of the file hands one of its parameters, as a callback (undefined
   * where it hands something else); `open` when the function is exported or used other than by a
   * call (`module.exports = { inBatches }`), where callers the flow does not see may hand others.
   */
  private handedCallbacks(parameter: ts.ParameterDeclaration): { callbacks: (ts.Node | undefined)[]; open: boolean } | undefined {
    if (!this.handed.has(parameter)) this.handed.set(parameter, this.callbacksHandedTo(parameter) ?? null);
    return this.handed.get(parameter) ?? undefined;
  }

  private readonly handed = new Map<ts.ParameterDeclaration, { callbacks: (ts.Node | undefined)[]; open: boolean } | null>();

  private callbacksHandedTo(parameter: ts.ParameterDeclaration): { callbacks: (ts.Node | undefined)[]; open: boolean } | undefined {
    const fn = parameter.parent;
    const owner = ts.isFunctionDeclaration(fn) ? fn : (ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) && ts.isVariableDeclaration(fn.parent) ? fn.parent : undefined;
    if (!owner?.name || !ts.isIdentifier(owner.name)) return undefined;
    const i = fn.parameters.indexOf(parameter);
    let open = hasModifier(ts.isFunctionDeclaration(owner) ? owner : owner.parent.parent, ts.SyntaxKind.ExportKeyword);
    const callbacks: (ts.Node | undefined)[] = [];
    for (const use of usesOf(this.sf, owner, (n) => this.declarationOf(n))) {
      const call = use.parent;
      if (!ts.isCallExpression(call) || call.expression !== use) {
        open = true;
        continue;
      }
      const handed = call.arguments.slice(0, i + 1).some(ts.isSpreadElement) ? undefined : call.arguments[i];
      callbacks.push(handed && this.writtenCallback(unwrap(handed)));
    }
    return { callbacks, open };
  }

  /** What `list.map(callback)` gives: an array of what the callback returns, when that is records, arrays or pairs of them. */
  private mapped(callback: ts.Node): Shape | undefined {
    const each = this.returns.get(callback);
    return each && arrayOf(each);
  }

  /** What `_.map(bindings, 'group')` gives: each record's field, when that field holds records (a reference v1 gives whole). */
  private plucked(collection: ts.Expression, field: string): Shape | undefined {
    const over = this.shapeOf(collection);
    const each = over && 'resource' in over ? memberOf(over) : undefined;
    const member = this.memberShape(each, field);
    return member && arrayOf(member);
  }

  /** What `list.flatMap(callback)` gives: one array of every record, where the callback returns records or one. */
  private flatMapped(callback: ts.Node): Shape | undefined {
    const each = this.returns.get(callback);
    return each?.kind === 'array' || each?.kind === 'resource' ? as(each, 'array') : undefined;
  }

  /** What `_.mapValues(collection, callback)` gives: the same keys, each holding what the callback returns. */
  private mappedValues(callback: ts.Node): Shape | undefined {
    const each = this.returns.get(callback);
    if (each?.kind === 'resource') return as(each, 'keyed');
    if (each?.kind === 'array') return as(each, 'groups');
    return undefined;
  }

  /** A call of lodash's or underscore's over a collection, which the flow follows (collection-library.ts); asked once per call, as each asks the checker where a name comes from. */
  collection(call: ts.CallExpression): CollectionCall | undefined {
    if (!this.library) return undefined;
    if (!this.collections.has(call)) this.collections.set(call, collectionCall(call, this.text));
    return this.collections.get(call);
  }
  private readonly collections = new Map<ts.CallExpression, CollectionCall | undefined>();

  /** `_.sortBy(groups, ...)`, `maxBy(identities, ...)`: what a library function over a collection gives, read as the array method it stands for. */
  private collectionShape(c: CollectionCall): Shape | undefined {
    if (c.gives === 'mapped' && c.pluck !== undefined) return this.plucked(c.collection, c.pluck);
    if (c.gives === 'mapped') return c.callbacks[0] && this.mapped(c.callbacks[0]);
    if (c.gives === 'mappedValues') return c.callbacks[0] && this.mappedValues(c.callbacks[0]);
    if (c.gives === 'flatMapped') return c.callbacks[0] && this.flatMapped(c.callbacks[0]);
    const over = this.shapeOf(c.collection);
    if (c.gives === 'copy') return over;
    const each = over && 'resource' in over ? memberOf(over) : undefined;
    if (!over || !each) return undefined;
    switch (c.gives) {
      case 'element':
        return each;
      case 'array':
      case 'values':
        return arrayOf(each);
      case 'keyed':
      case 'groups':
      case 'arrays':
        return each.kind === 'resource' ? as(each, c.gives) : undefined;
      case 'pairs':
        return over.kind === 'keyed' ? as(over, 'entries') : over.kind === 'groups' ? as(over, 'groupEntries') : undefined;
      default:
        return undefined;
    }
  }

  private callShape(n: ts.CallExpression): Shape | undefined {
    const library = this.collection(n);
    if (library) return this.collectionShape(library);
    const v1 = this.callsByNode.get(n);
    if (v1) {
      // axios resolves to a response with .data; got and ky with .json(); fetch and undici to a response; ofetch to the body.
      if (v1.via?.records) return { kind: v1.via.records.gives, resource: v1.resource, call: v1 };
      return answersBody(v1) ? bodyShape(v1) : { kind: 'response', call: v1 };
    }
    if (ts.isPropertyAccessExpression(n.expression)) {
      const method = n.expression.name.text;
      const target = this.shapeOf(n.expression.expression);
      const given = target && methodShape(target, method);
      if (given) return given;
      // `res.json().catch(() => ({}))`: the same answer, or a fallback with nothing in it to read by v1 names.
      if (target && (method === 'finally' || (method === 'catch' && emptyFallback(n.arguments[0])))) return target;
      if (method === 'parse' && ts.isIdentifier(n.expression.expression) && n.expression.expression.text === 'JSON' && n.arguments[0]) {
        const text = this.responseText(n.arguments[0]);
        if (text) return bodyShape(text.call);
      }
      if (target && method === 'then') {
        const callback = n.arguments[0];
        const literal = callback && (ts.isArrowFunction(callback) || ts.isFunctionExpression(callback)) ? callback : undefined;
        if (literal && target.kind === 'response' && /\.json\(\)/.test(literal.getText(this.sf))) return bodyShape(target.call);
        // `.then(function (data) { return data.items; })`: what the callback gives back (a promise it returns is unwrapped alike).
        if (literal) return this.returns.get(literal);
        // `.then(checkStatus)`: a function of the file that hands its argument back (or throws).
        if (callback && this.passesThrough(callback)) return target;
      }
      // Promise.all(ids.map((id) => readGroup(id))) and the like: an array of what each element gives.
      if (method === 'all' && ts.isIdentifier(n.expression.expression) && n.expression.expression.text === 'Promise' && n.arguments[0]) {
        const all = this.shapeOf(n.arguments[0]);
        return all?.kind === 'array' || all?.kind === 'arrays' ? all : undefined;
      }
      const callback = n.arguments[0] && this.callbackOf(n.arguments[0]);
      if (method === 'map' && callback) {
        const mapped = this.mapped(callback);
        if (mapped) return mapped;
      }
      // `tagLists.flat()`, `repos.flatMap((r) => r.tags)`: one array of every record.
      if (method === 'flat' && target?.kind === 'arrays') return as(target, 'array');
      if (method === 'flatMap' && callback) {
        const flat = this.flatMapped(callback);
        if (flat) return flat;
      }
      if (target?.kind === 'arrays' && ELEMENT_OF_ARRAY.has(method)) return as(target, 'array');
      if (target?.kind === 'arrays' && ARRAY_OF_ARRAY.has(method)) return target;
      if (target?.kind === 'array' && method === 'reduce') return this.callbackReturn(n.arguments[0]);
      // `for (const [i, g] of groups.entries())`: each an index and a record.
      if (target?.kind === 'array' && method === 'entries') return as(target, 'entries');
      // `groups.values()`: an iterator of the same records, iterated as the array is.
      if (target?.kind === 'array' && method === 'values' && n.arguments.length === 0) return target;
      if (target?.kind === 'keyed') return keyedMethod(target, method);
      if (target?.kind === 'groups') return groupsMethod(target, method);
      if ((target?.kind === 'entries' || target?.kind === 'groupEntries') && ARRAY_OF_ARRAY.has(method)) return target;
      if ((target?.kind === 'entries' || target?.kind === 'groupEntries') && ELEMENT_OF_ARRAY.has(method)) return memberOf(target);
      const held = this.heldBy(n);
      if (held) return held;
      const byName = this.methodReturns.get(method);
      const receiver = unwrap(n.expression.expression);
      if (byName && (receiver.kind === ts.SyntaxKind.ThisKeyword || ts.isIdentifier(receiver) || ts.isNewExpression(receiver))) return byName;
      // `client.groups.list()` of an object a factory of the file returns: the method the checker finds there.
      if (byName) {
        const method = this.declarationOf(n.expression.name);
        const fn = method && (ts.isPropertyAssignment(method) ? unwrap(method.initializer) : method);
        const given = fn && fn.getSourceFile() === this.sf ? this.returns.get(fn) : undefined;
        if (given) return given;
      }
    }
    if (ts.isIdentifier(n.expression)) {
      const copied = n.expression.text === 'structuredClone' ? this.heldBy(n) : undefined;
      if (copied) return copied;
      const declaration = this.declarationOf(n.expression);
      if (declaration && ts.isParameter(declaration)) return this.callbackGiven(declaration);
      const fn = declaration && (ts.isVariableDeclaration(declaration) ? declaration.initializer : (exportedValue(declaration) ?? declaration));
      // A function of another module of the program (a tsconfig lets the run read it) is read as one of the file is where it
      // hands back what it is given; a package's is left to callbackAnswer, by its declared type.
      const own = fn && (fn.getSourceFile() === this.sf ? (this.returns.get(fn) ?? this.handedAnswer(fn, n) ?? this.givenBack(fn, n)) : this.answerOfAnother(fn, n));
      if (own) return own;
    }
    return this.callbackAnswer(n);
  }

  /** What a function of another file answers: a test's view of the program's functions, or what a function of the program hands back. */
  private answerOfAnother(fn: ts.Node, call: ts.CallExpression): Shape | undefined {
    return this.elsewhere(fn) ?? (isProjectSource(fn.getSourceFile()) && returnsFromParameters(fn) ? (this.handedAnswer(fn, call) ?? this.givenBack(fn, call)) : undefined);
  }

  /**
   * `limit(() => call(...))`, `pRetry(() => listGroups())`, `queue.add(fn)`: a function the flow does
   * not see, handed a callback that returns records, answers them (assumed, as p-limit, p-retry and
   * their kin do); not where its answer is itself called (`memo(fn)` answers a function: the
   * analysis keeps such calls on v1).
   */
  private callbackAnswer(call: ts.CallExpression): Shape | undefined {
    for (const argument of call.arguments) {
      const callback = unwrap(argument);
      const shape = ts.isArrowFunction(callback) || ts.isFunctionExpression(callback) ? this.returns.get(callback) : undefined;
      // Asked last: it looks through the file's calls, and most calls hand no callback that returns records.
      if (shape && 'resource' in shape) return answersAFunction(call, (node) => this.declarationOf(node)) ? undefined : shape;
      // A response, only where the callee's declared type says it answers what the callback gives (`retrying<T>(call: () => Promise<T>): Promise<T>`).
      if ((shape?.kind === 'response' || shape?.kind === 'stream') && this.answersCallback(call, call.arguments.indexOf(argument))) return shape;
    }
    return undefined;
  }

  /** Whether a call's declared signature answers what the callback at `index` gives: one type parameter, maybe under a promise, on both. */
  private answersCallback(call: ts.CallExpression, index: number): boolean {
    const declaration = this.checker.getResolvedSignature(call)?.declaration;
    if (!declaration || ts.isJSDocSignature(declaration) || !declaration.type) return false;
    const callback = declaration.parameters[Math.min(index, declaration.parameters.length - 1)]?.type;
    if (!callback || !ts.isFunctionTypeNode(callback)) return false;
    const answered = new Set(typeParametersNamed(declaration.type));
    const [only] = answered;
    return answered.size === 1 && Boolean(declaration.typeParameters?.some((p) => p.name.text === only)) && typeParametersNamed(callback.type).includes(only!);
  }

  /**
   * `const page = await fetchPage(token)` in `async function paginate(fetchPage)`: calling a parameter
   * of the file's function gives what the callbacks handed there give back, where every call of the
   * function hands one that gives the same call's answer.
   */
  private callbackGiven(parameter: ts.ParameterDeclaration): Shape | undefined {
    let given: Shape | undefined;
    for (const callback of this.handedCallbacks(parameter)?.callbacks ?? []) {
      const shape = callback && this.returns.get(callback);
      if (!shape || !('call' in shape) || !shape.call || (given && (given.kind !== shape.kind || (given as { call?: V1Call }).call !== shape.call))) return undefined;
      given = shape;
    }
    return given;
  }

  /**
   * `retry(() => listGroups())`: a function of the file that returns what calling one of its
   * parameters gives (`return await fn()`) answers what the function handed there returns.
   */
  private handedAnswer(fn: ts.Node, call: ts.CallExpression): Shape | undefined {
    if (!ts.isFunctionDeclaration(fn) && !ts.isArrowFunction(fn) && !ts.isFunctionExpression(fn)) return undefined;
    for (const returned of returnedExpressions(fn)) {
      const r = unwrap(returned);
      const parameter = ts.isCallExpression(r) && ts.isIdentifier(r.expression) ? this.declarationOf(r.expression) : undefined;
      const handed = parameter && ts.isParameter(parameter) ? call.arguments[fn.parameters.indexOf(parameter)] : undefined;
      const callback = handed && this.callbackOf(handed);
      if (callback) return this.returns.get(callback);
    }
    return undefined;
  }

  /**
   * A function of the file that gives back what this call hands it, as such: the parameter itself,
   * the body it parses (`check(res)` returning `res.json()`), a record or records of it
   * (`byName(items, name)` returning `items.find(...)`), or nothing (`return null`). Read at each
   * call: one helper serves lists of several kinds.
   */
  private givenBack(fn: ts.Node, call: ts.CallExpression): Shape | undefined {
    if (!ts.isFunctionDeclaration(fn) && !ts.isArrowFunction(fn) && !ts.isFunctionExpression(fn)) return undefined;
    let given: Shape | undefined;
    for (const returned of returnedExpressions(fn)) {
      const r = withoutNothingFallback(unwrap(returned));
      if (isNullish(r)) continue;
      // `return items`, or `return items.find(...)`: the parameter and the method called on it, if any.
      const step = ts.isCallExpression(r) && ts.isPropertyAccessExpression(r.expression) ? r.expression : undefined;
      const named = step ? unwrap(step.expression) : r;
      const parameter = ts.isIdentifier(named) ? this.declarationOf(named) : undefined;
      const handed = parameter && ts.isParameter(parameter) && parameter.parent === fn ? call.arguments[fn.parameters.indexOf(parameter)] : undefined;
      const shape = handed && !ts.isSpreadElement(handed) ? this.shapeOf(handed) : undefined;
      const answer = shape && (step ? methodShape(shape, step.name.text) : shape);
      if (!answer || (given && (given.kind !== answer.kind || callOfShape(given) !== callOfShape(answer)))) return undefined;
      given = answer;
    }
    return given;
  }

  /** `await res.text()`, or a const holding it, of a response: the response's shape. */
  private responseText(e: ts.Expression): Extract<Shape, { kind: 'response' | 'stream' }> | undefined {
    let n = unwrap(e);
    if (ts.isIdentifier(n)) {
      const d = this.declarationOf(n);
      n = d && ts.isVariableDeclaration(d) && d.initializer && isConst(d) ? unwrap(d.initializer) : n;
    }
    if (!ts.isCallExpression(n) || n.arguments.length > 0 || !ts.isPropertyAccessExpression(n.expression) || n.expression.name.text !== 'text') return undefined;
    const target = this.shapeOf(n.expression.expression);
    return target?.kind === 'response' || target?.kind === 'stream' ? target : undefined;
  }

  /** `checkStatus` in `.then(checkStatus)`: a function of the program that returns its first parameter, whenever it returns. */
  private passesThrough(callee: ts.Expression): boolean {
    const fn = ts.isIdentifier(callee) ? functionOf(callee, (node) => this.declarationOf(node)) : undefined;
    return fn !== undefined && isProjectSource(fn.getSourceFile()) && givesBackItsArgument(fn, (node) => this.declarationOf(node));
  }

  /** What a function of this file returns, by the flow. */
  returnOf(fn: ts.Node): Shape | undefined {
    return this.returns.get(fn);
  }

  /** What a callback gives back, by the flow (`reduce((acc, g) => ..., {})`). */
  private callbackReturn(callback: ts.Expression | undefined): Shape | undefined {
    return callback && (ts.isArrowFunction(callback) || ts.isFunctionExpression(callback)) ? this.returns.get(callback) : undefined;
  }

  /**
   * Library calls that hand records on: `structuredClone(r)`, `Object.assign({}, r)`, `Array.from(rs)`,
   * `Object.values(index)`, `Object.entries(index)`, `Object.fromEntries(pairs)`, `new Map(pairs)`.
   */
  private heldBy(n: ts.CallExpression | ts.NewExpression): Shape | undefined {
    const callee = n.expression.getText(this.sf);
    const args = n.arguments ?? [];
    const first = args[0] && !ts.isSpreadElement(args[0]) ? this.shapeOf(args[0]) : undefined;
    if (ts.isNewExpression(n)) {
      if (callee === 'Map' && first && (first.kind === 'entries' || first.kind === 'keyed')) return as(first, 'keyed');
      // `new Set(groups)`: iterated, it gives the records.
      return callee === 'Set' && first?.kind === 'array' ? first : undefined;
    }
    if (COPIES.has(callee)) {
      // Object.assign(target, ...sources) answers the target: a copy when the target is a fresh `{}`.
      if (callee === 'Object.assign') {
        const fresh = args[0] && ts.isObjectLiteralExpression(unwrap(args[0])) && (unwrap(args[0]) as ts.ObjectLiteralExpression).properties.length === 0;
        return first ?? (fresh && args[1] ? this.shapeOf(args[1]) : undefined);
      }
      return first?.kind === 'keyed' ? as(first, 'array') : first;
    }
    if (!first || !('resource' in first)) return undefined;
    if (callee === 'Object.values' && first.kind === 'keyed') return as(first, 'array');
    if (callee === 'Object.entries' && first.kind === 'keyed') return as(first, 'entries');
    if (callee === 'Object.fromEntries' && first.kind === 'entries') return as(first, 'keyed');
    if (callee === 'Object.values' && first.kind === 'groups') return as(first, 'arrays');
    if (callee === 'Object.entries' && first.kind === 'groups') return as(first, 'groupEntries');
    if (callee === 'Object.fromEntries' && first.kind === 'groupEntries') return as(first, 'groups');
    return undefined;
  }

  /** `const project = await api('POST', '/iam/v1/...')` through a call the contract does not place: a v1 value. */
  private answersUnplaced(declaration: ts.Declaration): boolean {
    return ts.isVariableDeclaration(declaration) && declaration.initializer !== undefined && this.unplaced.has(unwrap(declaration.initializer));
  }

  /** Whether a pass learned something (propagate). */
  private learned = false;

  /** A declaration holds a shape from now on; a weak one (from a URL it fills) gives way to what the flow learns. */
  private learn(declaration: ts.Declaration, shape: Shape | undefined, weak = false): void {
    if (!shape || (this.declared.has(declaration) && (weak || !this.weak.has(declaration)))) return;
    this.declared.set(declaration, shape);
    if (weak) this.weak.add(declaration);
    else this.weak.delete(declaration);
    this.learned = true;
  }

  private bindPattern(name: ts.BindingName, shape: Shape | undefined): void {
    if (!shape) return;
    if (ts.isIdentifier(name)) {
      this.learn(name.parent as ts.Declaration, shape);
      return;
    }
    if (ts.isObjectBindingPattern(name)) {
      this.patterns.set(name, shape);
      for (const element of name.elements) {
        const key = element.propertyName && ts.isIdentifier(element.propertyName) ? element.propertyName.text : ts.isIdentifier(element.name) ? element.name.text : undefined;
        const inner = key ? this.memberShape(shape, key) : undefined;
        if (inner) this.bindPattern(element.name, inner);
      }
    }
    // `const [first, ...rest] = records`: an element, and the rest still an array of them.
    if (ts.isArrayBindingPattern(name) && (shape.kind === 'array' || shape.kind === 'arrays')) {
      const element = as(shape, shape.kind === 'arrays' ? 'array' : 'resource');
      for (const item of name.elements) if (ts.isBindingElement(item)) this.bindPattern(item.name, item.dotDotDotToken ? shape : element);
    }
    // `const [key, record] = pair`, `for (const [id, group] of map)`, `for (const [key, records] of Object.entries(groups))`
    const second = ts.isArrayBindingPattern(name) && (shape.kind === 'pair' || shape.kind === 'groupPair') ? name.elements[1] : undefined;
    if (second && ts.isBindingElement(second)) this.bindPattern(second.name, as(shape as Held, shape.kind === 'pair' ? 'resource' : 'array'));
  }

  /**
   * A variable is given a value at a place (reaching-values.ts); `[]`, `null` and the like before the
   * real value are not counted. Only variables given a call's value somewhere are followed: the
   * other values of such a variable are seen in the pass after the first.
   */
  private site(declaration: ts.VariableDeclaration, at: ts.Node, value: ts.Expression): void {
    if (placeholder(unwrap(value))) return;
    const shape = this.shapeOf(value);
    if (!shape && !this.sites.has(declaration)) return;
    const sites = this.sites.get(declaration) ?? new Map<ts.Node, Shape | undefined>();
    this.sites.set(declaration, sites);
    const known = sites.get(at);
    if (sites.has(at) && kindOf(known) === kindOf(shape) && known?.call === shape?.call) return;
    sites.set(at, shape);
    if (shape) this.learned = true;
  }

  /** Whether a variable is given values of different kinds (`res` of a group list, then of a repo list): each read takes the one that reaches it. */
  private holdsKinds(declaration: ts.Declaration): boolean {
    const sites = ts.isVariableDeclaration(declaration) ? this.sites.get(declaration) : undefined;
    if (!sites || sites.size < 2) return false;
    const shapes = [...sites.values()];
    return shapes.some(Boolean) && new Set(shapes.map(kindOf)).size > 1;
  }

  private reaching(declaration: ts.VariableDeclaration, read: ts.Identifier): Shape | undefined {
    const sites = [...this.sites.get(declaration)!].map(([at, shape]) => ({ at, shape }));
    const site = reachingSite(sites, read);
    return site === 'ambiguous' ? undefined : site.shape;
  }

  /**
   * Variables given values of several calls: the calls whose values are of one kind (read alike,
   * they migrate together), and the reads that could see values of more than one kind
   * (`ambiguous`), which the flow gives no shape.
   */
  *heldTogether(): Generator<{ declaration: ts.VariableDeclaration; alike: V1Call[][]; calls: V1Call[]; ambiguous: ts.Identifier[] }> {
    for (const [declaration, sites] of this.sites) {
      const byKind = new Map<string, Set<V1Call>>();
      for (const shape of sites.values()) if (shape?.call) byKind.set(kindOf(shape), (byKind.get(kindOf(shape)) ?? new Set()).add(shape.call));
      const calls = [...new Set([...byKind.values()].flatMap((c) => [...c]))];
      const alike = [...byKind.values()].filter((c) => c.size > 1).map((c) => [...c]);
      const ambiguous = this.holdsKinds(declaration) ? usesOf(this.sf, declaration, (n) => this.declarationOf(n)).filter((read) => !assignedTo(read) && reachingSite([...sites.keys()].map((at) => ({ at })), read) === 'ambiguous') : [];
      if (alike.length > 0 || ambiguous.length > 0) yield { declaration, alike, calls, ambiguous };
    }
  }

  /**
   * `const op = { id: b.id }`, `for (const op of ops)` over a list the file fills with object
   * literals: rows the file builds, whose `id` is a key of its own, whatever URL it fills.
   */
  private holdsOwnRows(declaration: ts.Declaration): boolean {
    if (!ts.isVariableDeclaration(declaration)) return false;
    // `{ ...group, description }` copies a record; `{ id: 'bot', name }` is a row of the program's own.
    if (declaration.initializer) return ts.isObjectLiteralExpression(unwrap(declaration.initializer)) && !isCopyOfSpread(declaration.initializer);
    const loop = declaration.parent.parent;
    if (!ts.isForOfStatement(loop) || !ts.isIdentifier(loop.expression)) return false;
    const list = this.declarationOf(loop.expression);
    if (!list || !ts.isVariableDeclaration(list) || !list.initializer) return false;
    const literal = unwrap(list.initializer);
    if (ts.isArrayLiteralExpression(literal) && literal.elements.length > 0) return literal.elements.every((e) => ts.isObjectLiteralExpression(unwrap(e as ts.Expression)));
    return nodesOf(this.sf)
      .of<ts.CallExpression>(ts.SyntaxKind.CallExpression)
      .some((c) => ts.isPropertyAccessExpression(c.expression) && GATHERING.has(c.expression.name.text) && ts.isIdentifier(c.expression.expression) && c.arguments[0] !== undefined && ts.isObjectLiteralExpression(unwrap(c.arguments[0] as ts.Expression)) && this.declarationOf(c.expression.expression) === list);
  }

  /** One pass over the file; true when it learned something. */
  private propagate(): boolean {
    this.learned = false;
    let changed = false;
    /** `x = value`, `this.cache = value`, `x[key] = record`, `x.set(key, record)`: what the target holds from now on. */
    const assign = (target: ts.Expression, shape: Shape | undefined): void => {
      const t = unwrap(target);
      const name = ts.isIdentifier(t) ? t : ts.isPropertyAccessExpression(t) ? t.name : undefined;
      const declaration = name && shape ? this.declarationOf(name) : undefined;
      if (!declaration || !name) return;
      if (ts.isPropertyAccessExpression(t)) this.members.add(name.text);
      this.learn(declaration, shape);
    };
    // A parameter every use hands records of one kind holds those records.
    for (const [parameter, { feeds, open }] of this.parameterFeeds()) {
      if (open || this.meetings.has(parameter)) continue;
      const agreed = agreedShape(feeds.map((feed) => feed?.()));
      if (!agreed) continue;
      this.bindPattern(parameter.name, agreed.shape);
      this.meetings.set(parameter, { calls: agreed.calls, kind: agreed.shape.kind });
    }
    const holds = (holder: ts.Expression, record: ts.Expression | undefined): void => {
      const shape = record && this.shapeOf(record);
      if (shape?.kind === 'resource') assign(holder, as(shape, 'keyed'));
    };
    // A value whose `.id` fills the item segment of a v1 URL is a resource of that kind (of the parent's, for a create).
    for (const call of this.callsByNode.values()) {
      const kind = call.operation === 'create' ? call.resource.parent : call.resource.kind;
      if (!kind) continue;
      // The URL may be built in a constant first: `const url = \`.../${group.id}\`; fetch(url)`.
      const built = call.parts.references.flatMap((r) => (ts.isVariableDeclaration(r.declaration) && r.declaration.initializer ? [r.declaration.initializer] : []));
      for (const holder of [call.urlNode, ...built].flatMap(idHolders)) {
        const declaration = this.declarationOf(holder);
        // Weak: the value's own flow (a v2 list, say) or type decides its names, not the URL it fills.
        if (declaration && !this.answersUnplaced(declaration) && !this.holdsOwnRows(declaration)) this.learn(declaration, { kind: 'resource', resource: resourceOf(kind), call, weak: true }, true);
      }
    }
    for (const node of nodesOf(this.sf).ofKinds(...LEARNING_KINDS)) {
      if (ts.isVariableDeclaration(node) && node.initializer) {
        // `const [groupsRes, reposRes] = await Promise.all([fetch(a), fetch(b)])`: each name holds its own call's value.
        const pattern = node.name;
        const tuple = ts.isArrayBindingPattern(pattern) ? awaitedTuple(node.initializer) : undefined;
        if (tuple && ts.isArrayBindingPattern(pattern)) {
          pattern.elements.forEach((item, i) => {
            const value = tuple[i];
            if (ts.isBindingElement(item) && !item.dotDotDotToken && value && !ts.isSpreadElement(value)) this.bindPattern(item.name, this.shapeOf(value));
          });
        } else this.bindPattern(node.name, this.shapeOf(node.initializer));
        if (ts.isIdentifier(node.name)) this.site(node, node, node.initializer);
      }
      if (ts.isPropertyDeclaration(node) && node.initializer && ts.isIdentifier(node.name)) {
        const shape = this.shapeOf(node.initializer);
        if (shape) this.members.add(node.name.text);
        this.learn(node, shape);
      }
      if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
        if (ts.isElementAccessExpression(node.left)) holds(node.left.expression, node.right);
        else assign(node.left, this.shapeOf(node.right));
      }
      // `cached ??= fetch(...).then(...)`: the value the name holds once given one.
      if (ts.isBinaryExpression(node) && (node.operatorToken.kind === ts.SyntaxKind.QuestionQuestionEqualsToken || node.operatorToken.kind === ts.SyntaxKind.BarBarEqualsToken) && !ts.isElementAccessExpression(node.left)) assign(node.left, this.shapeOf(node.right));
      if (ts.isBinaryExpression(node) && isAssignment(node.operatorToken.kind) && ts.isIdentifier(node.left)) {
        const variable = this.declarationOf(node.left);
        if (variable && ts.isVariableDeclaration(variable)) this.site(variable, node, node.right);
      }
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'set' && node.arguments.length === 2) {
        holds(node.expression.expression, node.arguments[1]);
        // `byId.set(key, { id: ... })`: a value of the program's own beside the records a Map may hold.
        if (this.ownObject(node.arguments[1]!) && !this.otherPushes.includes(node)) this.otherPushes.push(node);
      }
      if (ts.isForOfStatement(node) && ts.isVariableDeclarationList(node.initializer)) {
        const over = this.shapeOf(node.expression);
        const declaration = node.initializer.declarations[0];
        if ((over?.kind === 'array' || over?.kind === 'keyed' || over?.kind === 'entries') && declaration) this.bindPattern(declaration.name, as(over, over.kind === 'array' ? 'resource' : 'pair'));
        if (over?.kind === 'arrays' && declaration) this.bindPattern(declaration.name, as(over, 'array'));
        // A Map of groups iterates its `[key, records]` pairs.
        if ((over?.kind === 'groupEntries' || over?.kind === 'groups') && declaration) this.bindPattern(declaration.name, as(over, 'groupPair'));
      }
      if (ts.isCallExpression(node)) for (const [p, shape] of this.callbackBindings(node)) this.bindPattern(p.name, shape);
      if (ts.isCallExpression(node)) this.bindTupleHandler(node);
      const library = ts.isCallExpression(node) ? this.collection(node) : undefined;
      const records = library && this.shapeOf(library.collection);
      // lodash hands each member to the callbacks first: a record of an array or an index, an array of groups.
      const member = records && 'resource' in records ? memberOf(records) : undefined;
      if (member) for (const callback of library!.callbacks) if (callback.parameters[0]) this.bindPattern(callback.parameters[0].name, member);
      // list.push(record): the array gathers records of that kind.
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && GATHERING.has(node.expression.name.text) && ts.isIdentifier(node.expression.expression)) {
        const declaration = this.declarationOf(node.expression.expression);
        const item = this.gathered(node);
        if (declaration && item?.kind === 'resource') this.learn(declaration, { ...item, kind: 'array' });
        else if (declaration && node.arguments[0] && !ts.isSpreadElement(node.arguments[0]) && this.ownObject(node.arguments[0]) && !this.otherPushes.includes(node)) this.otherPushes.push(node);
      }
      // byGroup.get(key).push(record), (index[key] ??= []).push(record): records gathered in groups by a key.
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && GATHERING.has(node.expression.name.text)) {
        const holder = groupHolder(node.expression.expression);
        const declaration = holder && this.declarationOf(holder);
        const item = this.gathered(node);
        if (declaration && item?.kind === 'resource') this.learn(declaration, as(item, 'groups'));
      }
      if (ts.isReturnStatement(node) && node.expression) {
        const fn = enclosingFunction(node);
        const shape = this.shapeOf(node.expression);
        if (fn && shape && !this.returns.has(fn)) {
          this.returns.set(fn, shape);
          if ((ts.isMethodDeclaration(fn) || ts.isPropertyAssignment(fn.parent)) && fn.name && ts.isIdentifier(fn.name)) this.methodReturns.set(fn.name.text, shape);
          if (ts.isGetAccessorDeclaration(fn)) this.getters.add(fn.name.getText(this.sf));
          if (ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) {
            const owner = fn.parent;
            if ((ts.isPropertyDeclaration(owner) || ts.isPropertyAssignment(owner)) && ts.isIdentifier(owner.name)) this.methodReturns.set(owner.name.text, shape);
          }
          changed = true;
        }
      }
      // `yield record`, `yield* records` in a generator: what iterating its calls gives, as a list of it.
      if (ts.isYieldExpression(node) && node.expression) {
        const fn = enclosingFunction(node);
        const shape = this.shapeOf(node.expression);
        const gives = !shape ? undefined : node.asteriskToken ? (shape.kind === 'array' ? shape : undefined) : arrayOf(shape);
        if (fn && gives && !this.returns.has(fn)) {
          this.returns.set(fn, gives);
          changed = true;
        }
      }
      if (ts.isArrowFunction(node) && !ts.isBlock(node.body) && !this.returns.has(node)) {
        const shape = this.shapeOf(node.body);
        if (shape) {
          this.returns.set(node, shape);
          changed = true;
        }
      }
    }
    return changed || this.learned;
  }
}

/** The parameters of an array method's callback that take an element: the first (both for sort), reduce's current value. */
function elementParameters(method: string, callback: ts.SignatureDeclaration): ts.ParameterDeclaration[] {
  const [first, second] = callback.parameters;
  if (method === 'reduce') return second ? [second] : [];
  if (!first || !CALLBACK_OVER_ELEMENTS.has(method)) return [];
  return (method === 'sort' || method === 'toSorted') && second ? [first, second] : [first];
}

/** What a value is, whichever call gave it: a group list's body, a repo record, a created group's response. */
function kindOf(shape: Shape | undefined): string {
  if (!shape) return 'none';
  // A response is read by what its call answers: a list's envelope, a created record.
  return 'resource' in shape ? `${shape.kind} ${shape.resource.kind}` : `${shape.kind} ${shape.call.resource.kind} ${shape.call.operation}`;
}

const isPattern = (n: ts.Node): n is ts.BindingPattern => ts.isObjectBindingPattern(n) || ts.isArrayBindingPattern(n);

/** The parameter or variable whose name (or a pattern within it) declares a node. */
function bindingSite(node: ts.Node): ts.ParameterDeclaration | ts.VariableDeclaration | undefined {
  let n = node;
  while (ts.isBindingElement(n) || isPattern(n)) n = n.parent;
  return ts.isParameter(n) || ts.isVariableDeclaration(n) ? n : undefined;
}

/**
 * A parameter's written type that says nothing of what it holds: none, `any`, `unknown`, `any[]`,
 * `Array<unknown>`, or a bag of keys (`Record<string, unknown>`, `{ [key: string]: any }`, a local
 * alias of one: `rows: Row[]` handed records `as unknown as Row[]`), which no rename reaches.
 */
function saysNothing(type: ts.TypeNode | undefined, declarationOf: (node: ts.Node) => ts.Declaration | undefined, depth = 0): boolean {
  if (!type) return true;
  if (type.kind === ts.SyntaxKind.AnyKeyword || type.kind === ts.SyntaxKind.UnknownKeyword) return true;
  const inner = (t: ts.TypeNode | undefined) => t !== undefined && depth < 4 && saysNothing(t, declarationOf, depth + 1);
  if (ts.isTypeOperatorNode(type) && type.operator === ts.SyntaxKind.ReadonlyKeyword) return inner(type.type);
  if (ts.isArrayTypeNode(type)) return inner(type.elementType);
  if (ts.isTypeLiteralNode(type)) return type.members.length === 1 && ts.isIndexSignatureDeclaration(type.members[0]!) && isAnyOrUnknown(type.members[0].type);
  if (!ts.isTypeReferenceNode(type)) return false;
  const name = type.typeName.getText();
  const args = type.typeArguments ?? [];
  if (/^(ReadonlyArray|Array)$/.test(name)) return args.length === 1 && inner(args[0]);
  if (name === 'Record') return args.length === 2 && args[0]!.kind === ts.SyntaxKind.StringKeyword && isAnyOrUnknown(args[1]);
  const alias = args.length === 0 ? declarationOf(ts.isIdentifier(type.typeName) ? type.typeName : type.typeName.right) : undefined;
  return alias !== undefined && ts.isTypeAliasDeclaration(alias) && !alias.typeParameters && inner(alias.type);
}

function isAnyOrUnknown(type: ts.TypeNode | undefined): boolean {
  return type?.kind === ts.SyntaxKind.AnyKeyword || type?.kind === ts.SyntaxKind.UnknownKeyword;
}

type Feed = () => Shape | undefined;
/** What the seen uses of a function hand one parameter; `open` when it has uses the flow does not see. */
interface Feeds {
  feeds: (Feed | undefined)[];
  open: boolean;
}
/** What one use of a function hands its parameter `i`, if anything. */
type Use = (i: number) => Feed | undefined;

/** `{ ...record, owner }`: an object literal made from a spread. */
function isCopyOfSpread(e: ts.Expression): boolean {
  const n = unwrap(e);
  return ts.isObjectLiteralExpression(n) && n.properties.some(ts.isSpreadAssignment);
}

/** The methods of a class or an object literal with a body, by their declarations: `toModel(raw) {}`, `#toModel(raw) {}`, `toModel = (raw) => ...`, `group: (raw) => ...`. */
function methodsOf(owner: ts.ClassDeclaration | ts.ObjectLiteralExpression): [ts.Declaration, ts.SignatureDeclaration][] {
  const members: readonly ts.Node[] = ts.isClassDeclaration(owner) ? owner.members : owner.properties;
  return members.flatMap((m): [ts.Declaration, ts.SignatureDeclaration][] => {
    const named = (m as ts.NamedDeclaration).name;
    if (!named || !(ts.isIdentifier(named) || ts.isPrivateIdentifier(named))) return [];
    if (ts.isMethodDeclaration(m) && m.body) return [[m, m]];
    const init = ts.isPropertyDeclaration(m) || ts.isPropertyAssignment(m) ? m.initializer && unwrap(m.initializer) : undefined;
    return init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) ? [[m as ts.Declaration, init]] : [];
  });
}

/** The call a shape's values come from. */
function callOfShape(shape: Shape): V1Call | undefined {
  return 'call' in shape ? shape.call : undefined;
}

/** `list.find(...) ?? null`: the value, its fallback holding nothing. */
function withoutNothingFallback(e: ts.Expression): ts.Expression {
  return ts.isBinaryExpression(e) && EITHER.has(e.operatorToken.kind) && isNullish(unwrap(e.right)) ? unwrap(e.left) : e;
}

/** What `value.method(...)` gives, read alike in place and in a helper handed the value: the body a response parses to, a record or records of an array. */
function methodShape(value: Shape, method: string): Shape | undefined {
  if ((value.kind === 'response' || value.kind === 'stream') && method === 'json') return bodyShape(value.call);
  if (value.kind === 'array' && ELEMENT_OF_ARRAY.has(method)) return { ...value, kind: 'resource' };
  if (value.kind === 'array' && ARRAY_OF_ARRAY.has(method)) return value;
  return undefined;
}

/**
 * A `.catch()` handler whose value holds nothing a v1 name could read: none given, or one that
 * gives `{}`, `null` or `undefined` (or nothing) whenever it returns.
 */
function emptyFallback(handler: ts.Expression | undefined): boolean {
  if (!handler) return true;
  const fn = unwrap(handler);
  if (!ts.isArrowFunction(fn) && !ts.isFunctionExpression(fn)) return false;
  return returnedExpressions(fn).every((e) => holdsNothing(unwrap(e)));
}

/** The shape every use hands a parameter, when all agree on the kind of holder and of record; with the calls the values come from. */
function agreedShape(shapes: (Shape | undefined)[]): { shape: Held; calls: V1Call[] } | undefined {
  const held: Held[] = [];
  for (const s of shapes) {
    if (!s || !('resource' in s) || ('weak' in s && s.weak)) return undefined;
    if (held[0] && (s.kind !== held[0].kind || s.resource !== held[0].resource)) return undefined;
    held.push(s);
  }
  if (held.length === 0) return undefined;
  const calls = [...new Set(held.flatMap((s) => (s.call ? [s.call] : [])))];
  // A read of one record among them decides: its value changes form on v2 (see Analysis.keepMeetingCallsTogether).
  return { shape: held.find((s) => s.call?.operation === 'get-by-list') ?? held[0]!, calls };
}

/** What a callback of an array method gets as each element: a record, an array (of arrays), a pair (of entries), a Map's value (forEach). */
function elementFor(method: string, over: Held): Shape | undefined {
  if (over.kind === 'keyed') return method === 'forEach' ? as(over, 'resource') : undefined;
  return memberOf(over);
}

/** Each member of a collection as lodash hands it on: a record of an array or an index, an array of groups or arrays, a pair of entries. */
function memberOf(over: Held): Shape | undefined {
  switch (over.kind) {
    case 'array':
    case 'keyed':
      return as(over, 'resource');
    case 'arrays':
    case 'groups':
      return as(over, 'array');
    case 'entries':
      return as(over, 'pair');
    case 'groupEntries':
      return as(over, 'groupPair');
    default:
      return undefined;
  }
}

/** An array of such members: records, arrays of records, pairs. */
function arrayOf(member: Shape): Shape | undefined {
  if (!('resource' in member)) return undefined;
  if (member.kind === 'resource') return as(member, 'array');
  if (member.kind === 'array') return as(member, 'arrays');
  if (member.kind === 'pair') return as(member, 'entries');
  if (member.kind === 'groupPair') return as(member, 'groupEntries');
  return undefined;
}

/** What each parameter of a callback over records gets: the element (both for sort), a Map's value, reduce's accumulator. */
function callbackParameters(method: string, over: Held, callback: ts.ArrowFunction | ts.FunctionExpression, initial: Shape | undefined): [ts.ParameterDeclaration, Shape][] {
  const first = callback.parameters[0];
  const element = elementFor(method, over);
  if (!first || !element) return [];
  if (over.kind === 'keyed') return [[first, element]];
  const out = elementParameters(method, callback).map((p): [ts.ParameterDeclaration, Shape] => [p, element]);
  // Without an initial value, or starting from none (`reduce((a, b) => (a?.createdAt > b.createdAt ? a : b), null)`), it holds elements.
  const start = (callback.parent as ts.CallExpression).arguments[1];
  const none = !start || isNullish(start);
  const accumulator = method === 'reduce' && (initial ?? (none ? element : undefined));
  if (accumulator) out.push([first, accumulator]);
  return out;
}

/** What a method of a Map of records gives: `get` a record, `values()` the records, `entries()` pairs. */
/**
 * Whether a function returns something that names a parameter (`return res`, `return await fn()`,
 * `return items.find(...) ?? null`): only then can it give back what it is handed. Asked at every call of a
 * function of another module, once per function.
 */
function returnsFromParameters(fn: ts.Node): boolean {
  let known = fromParameters.get(fn);
  if (known === undefined) {
    const names = new Set(ts.isFunctionLike(fn) ? fn.parameters.flatMap((p) => (ts.isIdentifier(p.name) ? [p.name.text] : [])) : []);
    const mentions = (n: ts.Node): boolean => (ts.isIdentifier(n) && names.has(n.text)) || (!ts.isFunctionLike(n) && (ts.forEachChild(n, mentions) ?? false));
    known = names.size > 0 && ts.isFunctionLike(fn) && returnedExpressions(fn).some(mentions);
    fromParameters.set(fn, known);
  }
  return known;
}

const fromParameters = new WeakMap<ts.Node, boolean>();

/** The plain type names a type comes to under promises and unions (`PromiseLike<T> | T`: `T`, `T`). */
function typeParametersNamed(type: ts.TypeNode): string[] {
  if (ts.isUnionTypeNode(type)) return type.types.flatMap(typeParametersNamed);
  if (ts.isParenthesizedTypeNode(type)) return typeParametersNamed(type.type);
  if (!ts.isTypeReferenceNode(type) || !ts.isIdentifier(type.typeName)) return [];
  const [argument] = type.typeArguments ?? [];
  if (/^(Promise|PromiseLike|Awaited)$/.test(type.typeName.text) && argument) return typeParametersNamed(argument);
  return type.typeArguments ? [] : [type.typeName.text];
}

function keyedMethod(target: Held, method: string): Shape | undefined {
  if (method === 'get') return as(target, 'resource');
  if (method === 'values') return as(target, 'array');
  if (method === 'entries') return as(target, 'entries');
  return undefined;
}

/** The same of a Map of groups: `get` an array of records, `values()` the arrays, `entries()` `[key, records]` pairs. */
function groupsMethod(target: Held, method: string): Shape | undefined {
  if (method === 'get') return as(target, 'array');
  if (method === 'values') return as(target, 'arrays');
  if (method === 'entries') return as(target, 'groupEntries');
  return undefined;
}

/** The Map or object that `x.get(key)`, `x[key]`, `(x[key] ??= [])` reads a group from: `x`. */
function groupHolder(group: ts.Expression): ts.Identifier | undefined {
  let n = unwrap(group);
  if (ts.isBinaryExpression(n) && isAssignment(n.operatorToken.kind)) n = unwrap(n.left);
  const holder =
    ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && n.expression.name.text === 'get' && n.arguments.length === 1
      ? n.expression.expression
      : ts.isElementAccessExpression(n)
        ? n.expression
        : undefined;
  return holder && ts.isIdentifier(holder) ? holder : undefined;
}

/** Identifiers X of `X.id` in the holes of a URL template or concatenation. */
/** The names whose `.id` a URL reads (`${group.id}`): the records the call is about. */
export function idHolders(url: ts.Expression): ts.Identifier[] {
  const out: ts.Identifier[] = [];
  const look = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node) && node.name.text === 'id' && ts.isIdentifier(node.expression)) out.push(node.expression);
    else ts.forEachChild(node, look);
  };
  look(unwrap(url));
  return out;
}

function enclosingFunction(node: ts.Node): ts.FunctionLikeDeclaration | undefined {
  for (let n = node.parent; n; n = n.parent) {
    if (ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n) || ts.isArrowFunction(n) || ts.isFunctionExpression(n) || ts.isGetAccessorDeclaration(n)) return n;
  }
  return undefined;
}

/** The values of `await Promise.all([a, b])` (or of `[a, b]`), one per place, when they are written out as a list. */
export function awaitedTuple(initializer: ts.Expression): readonly ts.Expression[] | undefined {
  let n = unwrap(initializer);
  if (ts.isCallExpression(n) && n.expression.getText() === 'Promise.all' && n.arguments[0]) n = unwrap(n.arguments[0]);
  return ts.isArrayLiteralExpression(n) ? n.elements : undefined;
}

/** `memo(fn)(id)`, or `const byId = memo(fn)` called later: a call whose answer is a function the program calls. */
export function answersAFunction(call: ts.CallExpression, declarationOf: (node: ts.Node) => ts.Declaration | undefined): boolean {
  let n: ts.Node = call;
  while (ts.isAwaitExpression(n.parent) || ts.isParenthesizedExpression(n.parent)) n = n.parent;
  if (ts.isCallExpression(n.parent) && n.parent.expression === n) return true;
  const holder = ts.isVariableDeclaration(n.parent) && n.parent.initializer === n && ts.isIdentifier(n.parent.name) ? n.parent : undefined;
  if (!holder) return false;
  return nodesOf(call.getSourceFile())
    .of<ts.CallExpression>(ts.SyntaxKind.CallExpression)
    .some((c) => ts.isIdentifier(c.expression) && c.expression.text === (holder.name as ts.Identifier).text && declarationOf(c.expression) === holder);
}
