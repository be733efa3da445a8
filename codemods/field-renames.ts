/**
 * `id` -> `uid`, `createdAt` -> `createTime`, `updatedAt` -> `updateTime`, `lastSeen` ->
 * `lastSeenTime`: on values that come from a call that migrates (property access, optional
 * chaining, element access with a literal key, destructuring), on values whose type is a resource
 * type, and on the members of those types. Never on anything else: a local `.id` is not an API field.
 */
import { ts } from 'ts-morph';
import { namedMembers, type Container } from '../src/codemod/resource-types.js';
import type { Transform, TransformContext } from '../src/codemod/transform.js';
import { clientFieldRenames, keyChanges, keysOnV2, preciseTimestamp, servedByV1, servedOnlyByV2, preciseTimestampNames, fieldsGoneInV2, precisionChange, renamedFieldNames, renamesInWords, type ResourceContract } from '../src/contract/index.js';
import { keysReadWhole } from '../src/codemod/named-keys.js';
import { bindingKey, destructuredShape, nodesOf, quoteLike, renameBindingKey, renameKeyNamedAsText, renameObjectKey, renameTypeMember } from './helpers.js';
import { assignedTo, bodyLiteral, enclosingScope, isEquality, isFallback, usesOf } from '../src/codemod/syntax.js';
import { functionOf, unwrap } from '../src/codemod/static-text.js';
import { readsNoFieldByName } from '../src/codemod/callees-reading-nothing.js';
import { makesEntityAdapter, ofEntityAdapter, selectIdOf } from '../src/codemod/entity-adapters.js';
import type { Shape } from '../src/codemod/data-flow.js';
import type { V1Call } from '../src/codemod/v1-calls.js';

function renameMembers(ctx: TransformContext, container: Container, resource: ResourceContract): void {
  const renames = clientFieldRenames(resource);
  const gone = fieldsGoneInV2(resource);
  const members = namedMembers(container);
  for (const m of members) {
    const to = renames.get(m.name);
    const property = ts.isPropertySignature(m.nameNode.parent) || ts.isJSDocPropertyTag(m.nameNode.parent);
    if (to && property && !members.some((other) => other.name === to)) renameTypeMember(ctx, m.nameNode, to);
    // `capabilities: string[]` of a Role: the type still says v2's records have it.
    if (gone.has(m.name) && property) ctx.todo(m.nameNode, `v2beta1's ${resource.kind} has no ${m.name} (v1 served it): this type now describes v2's records, where it is undefined; make it optional or drop it`);
  }
}

/** API resources handed to a function the run does not see: the fields read there are not migrated. */
function flagEscapes(ctx: TransformContext, call: ts.CallExpression): void {
  const callee = call.expression.getText(ctx.sf);
  // lodash's functions over a collection hand records to callbacks the flow follows, and most give back what it follows too (collection-library.ts).
  if (readsNoFieldByName(call, (e) => ctx.shapeOf(e)) || ctx.analysis.isV1Call(call) || ctx.analysis.doubles.answering.has(call) || ctx.file.flow.collection(call)?.followed) return;
  const shapes = call.arguments.map((arg) => ctx.shapeOf(ts.isSpreadElement(arg) ? arg.expression : arg));
  const at = shapes.findIndex((shape) => shape !== undefined && 'resource' in shape && shape.kind !== 'envelope');
  const passed = shapes[at] as Extract<Shape, { resource: ResourceContract }> | undefined;
  if (!passed || takesAnyType(ctx, call, at)) return;
  // A function the analysis sees is followed through its types: only other callees hide their reads.
  // Asked last: the checker's answer costs more than the shapes, and most calls pass no resource.
  if (ofEntityAdapter(call, (n) => ctx.analysis.text.declarationOf(n)) || ctx.analysis.followsInto(call)) return;
  ctx.todo(call, `${passed.resource.singular} resources pass into ${callee}() here: the fields read there (id, createdAt, ...) are not migrated; check them by hand`);
}

/**
 * `setQueryData<T>(key, value: T)`: a parameter typed by a type parameter that names no field (no
 * constraint) reads none by name; TypeScript would refuse it.
 */
function takesAnyType(ctx: TransformContext, call: ts.CallExpression, index: number): boolean {
  const declaration = ctx.analysis.checker.getResolvedSignature(call)?.declaration;
  const parameter = declaration && !ts.isJSDocSignature(declaration) ? declaration.parameters[Math.min(index, declaration.parameters.length - 1)] : undefined;
  const type = parameter?.type;
  if (!type || !ts.isTypeReferenceNode(type) || type.typeArguments || parameter.dotDotDotToken) return false;
  const named = ctx.analysis.text.declarationOf(type.typeName);
  return named !== undefined && ts.isTypeParameterDeclaration(named) && named.constraint === undefined;
}

/**
 * `createEntityAdapter<Identity>()` of Redux Toolkit keys each record by its `id` unless given a
 * `selectId`: where the record type takes v2's `uid`, the adapter is told to read it, or every v2
 * record would be keyed `undefined` (and all but one dropped). Its type comes from the selector.
 */
function keyEntityAdapter(ctx: TransformContext, call: ts.CallExpression): void {
  const type = call.typeArguments?.[0];
  if (!type || !ts.isTypeReferenceNode(type) || !makesEntityAdapter(call)) return;
  const container = ctx.analysis.types.containerOf(type.typeName);
  const resource = container && renamedHere(ctx, container);
  const to = resource && clientFieldRenames(resource).get('id');
  const options = call.arguments[0] && unwrap(call.arguments[0]);
  if (!to || (options && (!ts.isObjectLiteralExpression(options) || selectIdOf(options)))) return;
  // Typed by its parameter, not by a type argument: with `selectId`, Redux Toolkit 2 takes two (the record and its id).
  ctx.edit(call.expression.end, call.arguments.pos - 1, '');
  const selectId = `selectId: (record: ${type.getText(ctx.sf)}) => record.${to}`;
  if (!options) ctx.edit(call.arguments.pos, call.arguments.pos, `{ ${selectId} }`);
  else ctx.edit(options.getStart(ctx.sf) + 1, options.getStart(ctx.sf) + 1, ` ${selectId},`);
}

/** The kind a record type of the program is renamed for, where this run renames it. */
function renamedHere(ctx: TransformContext, container: Container): ResourceContract | undefined {
  const types = ctx.analysis.types;
  if (types.pinned.has(container) || ctx.analysis.sharedTypes.has(container)) return undefined;
  return types.containers.get(container)?.find((r) => r.shape === 'resource')?.resource;
}

/** A read of a field v2beta1 does not serve: it cannot be renamed, only noted. */
function noteGone(ctx: TransformContext, node: ts.PropertyAccessExpression): void {
  const shape = ctx.shapeOf(node.expression);
  if (shape?.kind === 'resource' && fieldsGoneInV2(shape.resource).has(node.name.text)) {
    ctx.todo(node, `v2beta1's ${shape.resource.kind} has no ${node.name.text} (v1 served it): this read gets undefined on v2; find it elsewhere or drop it`);
  }
}

const PRECISE = preciseTimestampNames();

/** Calls that print or serialise their arguments as text: `console.log`, `JSON.stringify`, a response's `json`/`send`/`write`/`end`. */
/** Calls that print or write what they are given: to the console, a stream, a file. */
const PRINTED_BY = /^(?:console\.\w+|(?:fs\.)?(?:writeFile|appendFile)(?:Sync)?)$|\.write$/;
/** Calls that print, write, serialise or send what they are given as text. */
const TEXT_OUT = new RegExp(`${PRINTED_BY.source}|^JSON\\.stringify$|\\.(?:json|send|end)$`);

/** `a || b`, `a ?? b`, `c ? a : b`, `(a)`: the value read goes on as it is. */
function passedOnWhole(value: ts.Node): boolean {
  const p = value.parent;
  if (ts.isParenthesizedExpression(p)) return true;
  if (ts.isBinaryExpression(p)) return isFallback(p.operatorToken.kind);
  return ts.isConditionalExpression(p) && p.condition !== value;
}

/** String methods whose answer keeps the text's fraction digits: `t.replace('T', ' ')`, `t.padEnd(28)`, `t.split('T')[1]`. */
const KEEPS_DIGITS = new Set(['replace', 'replaceAll', 'padEnd', 'padStart', 'trim', 'trimEnd', 'toUpperCase', 'toLowerCase', 'split', 'concat']);

/** `value.replace(...)` and its kin: the text goes on reshaped, its digits in it. */
function reshapedText(value: ts.Node): boolean {
  const p = value.parent;
  return ts.isPropertyAccessExpression(p) && p.expression === value && KEEPS_DIGITS.has(p.name.text) && ts.isCallExpression(p.parent) && p.parent.expression === p;
}

/** `t.slice(20, -1)`, `t.substring(20)`, `t.slice(-8)`: the part of the text that holds the fraction digits. */
function cutsDigits(value: ts.Node): boolean {
  const p = value.parent;
  if (!ts.isPropertyAccessExpression(p) || p.expression !== value || !/^(slice|substring|substr)$/.test(p.name.text) || !ts.isCallExpression(p.parent)) return false;
  const start = p.parent.arguments[0];
  if (!start) return false;
  if (ts.isPrefixUnaryExpression(start) && start.operator === ts.SyntaxKind.MinusToken) return p.name.text !== 'substring';
  return ts.isNumericLiteral(start) && Number(start.text) >= 20;
}

/** `{ seen: i.lastSeen }`, `[i.createdAt]`: held whole in a literal, which goes on as data. */
function heldInLiteral(value: ts.Node): boolean {
  const p = value.parent;
  return (ts.isPropertyAssignment(p) && p.initializer === value) || ts.isArrayLiteralExpression(p);
}

/** A callback other than map's (`sortBy(xs, (i) => i.createdAt)`, `maxBy`, `sort`): what it returns picks or orders, it is not shown. */
function givenToPick(node: ts.Node): boolean {
  const fn = enclosingScope(node);
  // `_.orderBy(items, [(i) => i.updateTime, (i) => i.uid])`: callbacks in a list given to the call.
  let given: ts.Node | undefined = fn;
  while (given && ts.isArrayLiteralExpression(given.parent)) given = given.parent;
  const call = given?.parent;
  if (!given || !call || !ts.isCallExpression(call) || !call.arguments.includes(given as ts.Expression)) return false;
  const callee = ts.isPropertyAccessExpression(call.expression) ? call.expression.name.text : call.expression.getText();
  return !/^(map|flatMap|then)$/.test(callee);
}

/**
 * Where a value is shown or handed on as it is: interpolated, concatenated, printed, serialised,
 * returned, or held in an object or array (which goes on as data); not where it is cut, parsed or
 * compared.
 */
function shownWhole(node: ts.Expression, declarationOf: (n: ts.Node) => ts.Declaration | undefined, depth = 0): boolean {
  let value: ts.Node = node;
  for (;;) {
    if (passedOnWhole(value)) value = value.parent;
    else if (reshapedText(value)) value = value.parent.parent;
    else if (ts.isElementAccessExpression(value.parent) && value.parent.expression === value && ts.isCallExpression(value) && ts.isPropertyAccessExpression(value.expression) && value.expression.name.text === 'split') value = value.parent;
    else break;
  }
  if (heldInLiteral(value) || cutsDigits(value)) return true;
  const parent = value.parent;
  if (ts.isTemplateSpan(parent)) return true;
  // `<li>{i.createdAt}</li>`, `title={i.createdAt}`: JSX renders it as text; a `key` is no text shown.
  if (ts.isJsxExpression(parent)) return ts.isJsxElement(parent.parent) || ts.isJsxFragment(parent.parent) || (ts.isJsxAttribute(parent.parent) && parent.parent.name.getText() !== 'key');
  // `new Date(iso).toISOString() === iso`: a text of JavaScript's own precision (3 digits) matched v1's text never, v2's always.
  if (ts.isBinaryExpression(parent) && isEquality(parent.operatorToken.kind)) return /\.to(?:ISOString|JSON)\(\)/.test((parent.left === value ? parent.right : parent.left).getText());
  if (ts.isReturnStatement(parent) || (ts.isArrowFunction(parent) && parent.body === value)) return !givenToPick(ts.isReturnStatement(parent) ? parent : parent.body);
  if (ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.PlusToken) return true;
  // `newest = i.updatedAt`, `const stamp = r.createdAt`: shown where the variable is.
  const held = depth < 2 ? variableGiven(value, declarationOf) : undefined;
  if (held) return usesOf(node.getSourceFile(), held, declarationOf).some((use) => !assignedTo(use) && shownWhole(use, declarationOf, depth + 1));
  if (!ts.isCallExpression(parent) || !parent.arguments.includes(value as ts.Expression)) return false;
  if (TEXT_OUT.test(parent.expression.getText())) return true;
  // `stamp(g.createdAt)`: handed to a function of the file that shows its parameter whole.
  const fn = depth < 2 && ts.isIdentifier(parent.expression) ? functionOf(parent.expression, declarationOf) : undefined;
  const parameter = fn?.getSourceFile() === node.getSourceFile() ? fn.parameters[parent.arguments.indexOf(value as ts.Expression)] : undefined;
  return Boolean(parameter && !parameter.dotDotDotToken && ts.isIdentifier(parameter.name) && usesOf(node.getSourceFile(), parameter, declarationOf).some((use) => shownWhole(use, declarationOf, depth + 1)));
}


/** The variable a value is given to, as its initialiser or in an assignment. */
function variableGiven(value: ts.Node, declarationOf: (n: ts.Node) => ts.Declaration | undefined): ts.VariableDeclaration | undefined {
  const p = value.parent;
  if (ts.isVariableDeclaration(p) && p.initializer === value && ts.isIdentifier(p.name)) return p;
  const d = ts.isBinaryExpression(p) && p.right === value && p.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isIdentifier(p.left) ? declarationOf(p.left) : undefined;
  return d && ts.isVariableDeclaration(d) ? d : undefined;
}

/** The v2 name of a v1 timestamp read shown whole, whose text changes with v2's precision. */
function shownTimestamp(ctx: TransformContext, node: ts.PropertyAccessExpression): string | undefined {
  if (!shownWhole(node, (n) => ctx.analysis.text.declarationOf(n))) return undefined;
  const shape = ctx.shapeOf(node.expression);
  // A name the kind never had on v1 (`card.createdAt` of a copy of a repo) is the program's own value.
  const served = shape?.kind === 'resource' && servedByV1(shape.resource, node.name.text);
  return served ? preciseTimestamp(shape.resource, node.name.text) : undefined;
}

/** One note per file, at the first timestamp shown whole: one per line would bury the rest of the review. */
function notePrecision(ctx: TransformContext, shown: [ts.Node, string][]): void {
  if (shown.length === 0) return;
  const fields = [...new Set(shown.map(([, field]) => field))].join(', ');
  const places = shown.length === 1 ? 'here' : `in ${shown.length} places, the first here`;
  ctx.todo(shown[0]![0], `${precisionChange()}: this file shows ${fields} whole ${places}, and that text gets shorter (…:31.456796Z -> …:31.456Z)`);
}

/**
 * `Object.keys(record)`, `for (const k in record)`: the record's keys read as they come, which no
 * rename reaches. The read stays as it is, and migrates the record's keys with the rest: noted,
 * since what it makes of them (a header, a copy, a count) changes.
 */
function noteKeysRead(ctx: TransformContext, node: ts.Node): void {
  const target = keysReadWhole(node);
  const shape = target && ctx.shapeOf(target);
  const changes = shape?.kind === 'resource' ? keyChanges(shape.resource) : '';
  if (!changes || shape?.kind !== 'resource') return;
  const how = ts.isForInStatement(node) ? 'for...in' : (node as ts.CallExpression).expression.getText(ctx.sf);
  ctx.todo(node, `${how} reads this ${shape.resource.singular} record's keys as they come: v2 ${changes}, and the code given them is not migrated; check what it makes of them`);
}

/** The kinds of node the transform reads or renames at: its pass reads these only. */
const RENAME_SITES = [
  ts.SyntaxKind.CallExpression,
  ts.SyntaxKind.ForInStatement,
  ts.SyntaxKind.BinaryExpression,
  ts.SyntaxKind.ElementAccessExpression,
  ts.SyntaxKind.TypeReference,
  ts.SyntaxKind.ObjectLiteralExpression,
  ts.SyntaxKind.PropertyAccessExpression,
  ts.SyntaxKind.ObjectBindingPattern,
];

/** `group.createdAt` (`group['createdAt']`, `'createdAt' in group`), which v1 never served on groups: renamed, the read gets v2's value where it got undefined. Once per kind and field in a file. */
function noteNewlyServed(ctx: TransformContext, read: ts.Node, field: string, resource: ResourceContract, noted: Set<string>): void {
  const to = servedOnlyByV2(resource, field);
  const key = `${resource.kind}.${field}`;
  if (!to || noted.has(key)) return;
  noted.add(key);
  ctx.todo(read, `v1 never served ${field} on ${resource.v2.collection}, so this read was undefined there; v2 serves ${to}, which it reads now: check what the code does with a value here`);
}

/**
 * `console.table(groups)`, `JSON.stringify(tag)`: records printed or serialised whole show v2's keys
 * (and, where a map leaves its zeros out, fewer members): once per file, the first place it does. A
 * request's body, serialised for a v1 call or inside a helper that sends it, is no record shown.
 */
/** Where the file shows records whole, the first place for each kind: one note names them all. */
type ShownWhole = Map<ResourceContract, ts.CallExpression>;

function findShownWhole(ctx: TransformContext, call: ts.CallExpression, shown: ShownWhole): void {
  const callee = call.expression.getText(ctx.sf);
  // A reply a server or a test double sends (`res.json(record)`, `HttpResponse.json(...)`) is not counted: it goes where the codemod follows.
  if ((callee !== 'JSON.stringify' && !PRINTED_BY.test(callee)) || sentAsBody(ctx, call)) return;
  const values = callee === 'JSON.stringify' ? call.arguments.slice(0, 1) : call.arguments;
  for (const a of values) {
    const shape = ts.isSpreadElement(a) ? undefined : (ctx.shapeOf(a) ?? handedShape(ctx, a));
    if ((shape?.kind === 'resource' || shape?.kind === 'array') && !shown.has(shape.resource)) shown.set(shape.resource, call);
  }
}

/** One note per file, at the first place records are shown whole, naming how each kind shown differs on v2. */
function noteShownWhole(ctx: TransformContext, shown: ShownWhole): void {
  const [first, ...others] = [...shown];
  if (!first) return;
  const more = others.map(([resource]) => `; ${resource.singular} records elsewhere in this file (${keysOnV2(resource)})`).join('');
  ctx.todo(first[1], `this shows ${first[0].singular} records whole: on v2 their keys differ (${keysOnV2(first[0])})${more}, so what it prints or writes changes with them; check whoever reads it`);
}

/**
 * `payload` of `function send(res, status, payload: unknown)`: records a call of the file hands
 * that parameter (`send(res, 200, groups)`), where no one shape holds for every call.
 */
function handedShape(ctx: TransformContext, value: ts.Expression): Shape | undefined {
  const declarationOf = (n: ts.Node) => ctx.analysis.text.declarationOf(n);
  const parameter = ts.isIdentifier(value) ? declarationOf(value) : undefined;
  const fn = parameter && ts.isParameter(parameter) ? parameter.parent : undefined;
  const named = fn && (ts.isFunctionDeclaration(fn) ? fn : (ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) && ts.isVariableDeclaration(fn.parent) ? fn.parent : undefined);
  if (!fn || !named || named.getSourceFile() !== ctx.sf) return undefined;
  const i = fn.parameters.indexOf(parameter as ts.ParameterDeclaration);
  for (const use of usesOf(ctx.sf, named, declarationOf)) {
    const call = use.parent;
    const arg = ts.isCallExpression(call) && call.expression === use ? call.arguments[i] : undefined;
    const shape = arg && !ts.isSpreadElement(arg) ? ctx.shapeOf(arg) : undefined;
    if (shape) return shape;
  }
  return undefined;
}

/** Whether text going out is a request's body: in a v1 call's arguments, or in a helper that sends requests. */
function sentAsBody(ctx: TransformContext, serialise: ts.CallExpression): boolean {
  if (ctx.file.calls.some((c) => c.call.arguments.some((a) => a.pos <= serialise.pos && serialise.end <= a.end))) return true;
  for (let n: ts.Node = serialise.parent; n; n = n.parent) {
    if (ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n) || ts.isArrowFunction(n) || ts.isFunctionExpression(n)) {
      if (ctx.analysis.wrappers.byFunction.has(n)) return true;
    }
  }
  return false;
}

/** `const { id, ...rest } = record`: the rest holds the keys the pattern does not name, as the version shows them. */
function noteRestOfRecord(ctx: TransformContext, pattern: ts.ObjectBindingPattern, resource: ResourceContract): void {
  const rest = pattern.elements.find((e) => e.dotDotDotToken);
  if (!rest) return;
  const named = new Set(pattern.elements.flatMap((e) => bindingKey(e) ?? []));
  for (const key of [...named]) {
    const to = clientFieldRenames(resource).get(key);
    if (to) named.add(to);
  }
  const changes = keyChanges(resource, named);
  if (changes) ctx.todo(rest, `${rest.getText(ctx.sf)} holds the rest of this ${resource.singular} record as it comes: v2 ${changes} there, and the code given it is not migrated; check what it makes of them`);
}

/** `Omit<Group, 'id'>`, `Pick<Group, 'id' | 'name'>`: the keys name members of a type whose members are renamed. */
function renameKeysOf(ctx: TransformContext, node: ts.TypeReferenceNode): void {
  const [target, keys] = node.typeArguments ?? [];
  if (!target || !keys || !ts.isTypeReferenceNode(target)) return;
  const container = ctx.analysis.types.containerOf(target.typeName);
  if (!container || ctx.analysis.types.pinned.has(container) || ctx.analysis.sharedTypes.has(container)) return;
  const resource = ctx.analysis.types.containers.get(container)?.find((r) => r.shape === 'resource')?.resource;
  if (!resource) return;
  const renames = clientFieldRenames(resource);
  for (const key of ts.isUnionTypeNode(keys) ? keys.types : [keys]) {
    const literal = ts.isLiteralTypeNode(key) && ts.isStringLiteral(key.literal) ? key.literal : undefined;
    const to = literal && renames.get(literal.text);
    if (to && !ctx.isClaimed(literal!)) ctx.replace(literal!, quoteLike(ctx.textOf(literal!), to));
  }
}

const KEYED_TYPES = new Set(['Omit', 'Pick']);

/** `Pick<Identity, 'uid' | 'name'>` (directly or through an alias of it): the role of the type it picks from. */
function keyedRole(ctx: TransformContext, type: ts.Type) {
  const alias = type.aliasSymbol;
  if (!alias) return null;
  if (KEYED_TYPES.has(alias.name) && type.aliasTypeArguments?.[0]) return ctx.analysis.types.roleOf(type.aliasTypeArguments[0]);
  const declared = alias.declarations?.find(ts.isTypeAliasDeclaration)?.type;
  const picked = declared && ts.isTypeReferenceNode(declared) && ts.isIdentifier(declared.typeName) && KEYED_TYPES.has(declared.typeName.text) ? declared.typeArguments?.[0] : undefined;
  return picked ? ctx.analysis.types.roleOf(ctx.analysis.checker.getTypeFromTypeNode(picked)) : null;
}

/** `const copy: Identity = { id, ... }`, `return { ...group, id }` from a function giving a Group: the keys follow the renames. */
function renameLiteralKeys(ctx: TransformContext, object: ts.ObjectLiteralExpression): void {
  if (!object.properties.some((p) => p.name && RENAMED.has(p.name.getText().replace(/^['"]|['"]$/g, '')))) return;
  if (renameOverrides(ctx, object) || ctx.analysis.types.containers.size === 0) return;
  const contextual = ctx.analysis.checker.getContextualType(object);
  // In an async function the return's contextual type is `T | PromiseLike<T>`: the record is what it awaits.
  const checker = ctx.analysis.checker;
  const record = contextual && (checker.getAwaitedType(contextual) ?? contextual);
  const role = contextual && (ctx.analysis.types.roleOf(contextual) ?? ctx.analysis.types.roleOf(record!) ?? keyedRole(ctx, record!));
  if (role?.shape !== 'resource') return;
  renamePropertyKeys(ctx, object.properties, clientFieldRenames(role.resource));
}

/**
 * `{ ...person, id: \`snapshot/${person.name}\` }`: a copy of a record with the program's own value
 * over one of its fields. Reads of the copy take the v2 name, so the value the program sets there
 * takes it too (`uid: ...`); a key before the spread is overwritten by the record alike on both.
 * Only over a field the spread holds on v1: `createdAt` beside a repo (whose v1 time is already
 * `createTime`), or `id` beside the rest of a group it was taken out of, is the program's own.
 */
function renameOverrides(ctx: TransformContext, object: ts.ObjectLiteralExpression): boolean {
  for (const [at, p] of object.properties.entries()) {
    const shape = ts.isSpreadAssignment(p) ? ctx.shapeOf(p.expression) : undefined;
    if (shape?.kind !== 'resource') continue;
    const takenOut = keysTakenOut((p as ts.SpreadAssignment).expression, (n) => ctx.analysis.text.declarationOf(n));
    // Taken out under either name: a second run meets `{ uid: id, ...rest }`.
    const held = [...clientFieldRenames(shape.resource)].filter(([key, to]) => servedByV1(shape.resource, key) && !takenOut.has(key) && !takenOut.has(to));
    renamePropertyKeys(ctx, object.properties.slice(at + 1), new Map(held));
    return true;
  }
  return false;
}

/**
 * The v2 name of a field read on a record: of one v1 serves, or of one only v2 serves (noted where
 * read); not of a name the kind never had on v1, which is the program's own (`card.createdAt` of a
 * copy of a repo, whose v1 time is `createTime` already).
 */
function renamedRead(resource: ResourceContract, name: string): string | undefined {
  const to = clientFieldRenames(resource).get(name);
  return to && (servedByV1(resource, name) || servedOnlyByV2(resource, name)) ? to : undefined;
}

/** `rest` of `const { id, description, ...rest } = group`: the keys taken out before it. */
function keysTakenOut(spread: ts.Expression, declarationOf: (n: ts.Node) => ts.Declaration | undefined): Set<string> {
  const n = unwrap(spread);
  const d = ts.isIdentifier(n) ? declarationOf(n) : undefined;
  if (!d || !ts.isBindingElement(d) || !d.dotDotDotToken || !ts.isObjectBindingPattern(d.parent)) return new Set();
  return new Set(d.parent.elements.flatMap((e) => (e === d ? [] : [bindingKey(e) ?? ''])));
}

/** Gives the keys of an object literal's members their v2 names (a shorthand member keeps its value: `uid: id`). */
function renamePropertyKeys(ctx: TransformContext, properties: readonly ts.ObjectLiteralElementLike[], renames: ReadonlyMap<string, string>): void {
  for (const p of properties) {
    if (ts.isPropertyAssignment(p) && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name))) {
      const to = renames.get(p.name.text);
      if (to && !ctx.isClaimed(p.name)) ctx.replace(p.name, ts.isStringLiteral(p.name) ? quoteLike(ctx.textOf(p.name), to) : to);
    } else if (ts.isShorthandPropertyAssignment(p)) {
      const to = renames.get(p.name.text);
      if (to && !ctx.isClaimed(p.name)) ctx.edit(p.name.getStart(ctx.sf), p.name.getStart(ctx.sf), `${to}: `);
    }
  }
}

/** `g['id']`, `'createdAt' in g`, `Object.hasOwn(g, 'id')`: a field read or tested by its name, written in place (named-keys.ts). */
function renameKeyTested(ctx: TransformContext, node: ts.CallExpression | ts.BinaryExpression | ts.ElementAccessExpression, noted: Set<string>): void {
  renameKeyNamedAsText(ctx, node, RENAMED, (key, record) => {
    const shape = ctx.shapeOf(record) ?? guardedShape(ctx, record);
    const to = shape?.kind === 'resource' ? clientFieldRenames(shape.resource).get(key) : undefined;
    if (to && shape?.kind === 'resource') noteNewlyServed(ctx, node, key, shape.resource, noted);
    return to;
  });
}

/**
 * `'id' in x` in `function isIdentity(x: unknown): x is Identity`: the record the guard tells is of
 * the type its predicate names, whose members the renames rewrite; so is the key it tests.
 */
function guardedShape(ctx: TransformContext, record: ts.Expression): Shape | undefined {
  const r = unwrap(record);
  const fn = ts.isIdentifier(r) ? enclosingScope(r) : undefined;
  const predicate = fn && ts.isFunctionLike(fn) && fn.type && ts.isTypePredicateNode(fn.type) ? fn.type : undefined;
  if (!predicate?.type || !ts.isIdentifier(predicate.parameterName) || predicate.parameterName.text !== (r as ts.Identifier).text) return undefined;
  return ctx.file.flow.typedShape(predicate.type);
}

/** `{ id: other.id, name }` sent as a migrated write's body, in place or through a const: its keys take v2's names (v2 refuses v1's as unknown fields). */
function renameBodyKeys(ctx: TransformContext, call: V1Call): void {
  const literal = call.body && bodyLiteral(call.body, (n) => ctx.analysis.text.declarationOf(n));
  if (!literal || !ts.isObjectLiteralExpression(literal)) return;
  const renames = clientFieldRenames(call.resource);
  for (const p of literal.properties) {
    const key = p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) ? p.name.text : undefined;
    const to = key && renames.get(key);
    if (to && p.name && !ctx.isClaimed(p.name)) {
      renameObjectKey(ctx, p, to);
      ctx.claim(p.name);
    }
  }
}

const RENAMED = renamedFieldNames();

export const fieldRenamesTransform: Transform = {
  name: 'field-renames',
  description: 'id -> uid, createdAt -> createTime, updatedAt -> updateTime, lastSeen -> lastSeenTime, on API resources and their types only',
  apply(ctx) {
    for (const container of ctx.analysis.types.containers.keys()) {
      const resource = container.getSourceFile() === ctx.sf ? renamedHere(ctx, container) : undefined;
      if (resource) renameMembers(ctx, container, resource);
    }
    for (const push of ctx.file.flow.otherPushes) {
      const list = (push.expression as ts.PropertyAccessExpression).expression;
      const shape = ctx.shapeOf(list);
      if (shape?.kind !== 'array' && shape?.kind !== 'keyed') continue;
      const [what, where, read, own] = shape.kind === 'array' ? ['pushes a row', 'into a list of', 'where the list is read, this row', 'a list'] : ['puts a value', 'beside', 'where they are read from it, this value', 'a holder'];
      ctx.todo(push, `this ${what} that is no ${shape.resource.singular} record ${where} ${shape.resource.singular} records: their fields are renamed (${renamesInWords(shape.resource)}) ${read}'s are not; give it the v2 names or ${own} of its own`);
    }
    for (const call of ctx.calls) if (call.operation === 'update' || call.operation === 'create') renameBodyKeys(ctx, call);
    const shown: [ts.Node, string][] = [];
    const shownWhole: ShownWhole = new Map();
    const noted = new Set<string>();
    for (const node of nodesOf(ctx.sf).ofKinds(...RENAME_SITES)) {
      if (ts.isCallExpression(node)) {
        flagEscapes(ctx, node);
        keyEntityAdapter(ctx, node);
        findShownWhole(ctx, node, shownWhole);
      }
      if (ts.isCallExpression(node) || ts.isForInStatement(node)) noteKeysRead(ctx, node);
      if (ts.isCallExpression(node) || ts.isBinaryExpression(node) || ts.isElementAccessExpression(node)) renameKeyTested(ctx, node, noted);
      if (ts.isTypeReferenceNode(node) && ts.isIdentifier(node.typeName) && KEYED_TYPES.has(node.typeName.text)) renameKeysOf(ctx, node);
      if (ts.isObjectLiteralExpression(node)) renameLiteralKeys(ctx, node);
      // Ask for a shape only where a name could change: the checker is the cost.
      if (ts.isPropertyAccessExpression(node) && ctx.analysis.goneFields.has(node.name.text)) noteGone(ctx, node);
      if (ts.isPropertyAccessExpression(node) && PRECISE.has(node.name.text)) {
        const field = shownTimestamp(ctx, node);
        if (field) shown.push([node, field]);
      }
      if (ts.isPropertyAccessExpression(node) && (!RENAMED.has(node.name.text) || ctx.isClaimed(node.name))) continue;
      if (ts.isPropertyAccessExpression(node)) {
        const shape = ctx.shapeOf(node.expression);
        const to = shape?.kind === 'resource' ? renamedRead(shape.resource, node.name.text) : undefined;
        if (to) ctx.replace(node.name, to);
        if (to && shape?.kind === 'resource') noteNewlyServed(ctx, node, node.name.text, shape.resource, noted);
      } else if (ts.isObjectBindingPattern(node) && !ctx.isClaimed(node)) {
        const shape = destructuredShape(ctx, node);
        if (shape?.kind !== 'resource') continue;
        noteRestOfRecord(ctx, node, shape.resource);
        for (const element of node.elements) {
          const key = bindingKey(element);
          const to = key ? renamedRead(shape.resource, key) : undefined;
          if (to) renameBindingKey(ctx, element, to);
        }
      }
    }
    notePrecision(ctx, shown);
    noteShownWhole(ctx, shownWhole);
  },
};
