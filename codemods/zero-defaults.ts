/**
 * v1 showed every member of a map of counts (a group's `resourceLimits`: `{ clusters: 0, idps: 0,
 * repositories: 0 }`); v2 leaves the zero ones out (an empty object by default). A read of one
 * member then gets undefined where v1 gave 0, and `+= 5` makes NaN. Reads default to 0, updates in
 * place start from 0, and a map shown whole (printed, serialised, its entries listed) gets its
 * known members back at 0, the same through a name the map is given. A map is never replaced by a
 * copy with defaults: a copy would no longer be the record's own map, changed in place.
 */
import { ts } from 'ts-morph';
import type { Transform, TransformContext } from '../src/codemod/transform.js';
import { unwrap } from '../src/codemod/static-text.js';
import { RESOURCES, type ResourceContract } from '../src/contract/index.js';
import { assignedTo, assignedValues, isAssignment, isFallback, memberName, usesOf } from '../src/codemod/syntax.js';
import { bindingKey, destructuredShape, nodesOf, propertyKey } from './helpers.js';
import { isTyped } from './file-helpers.js';

const ZERO_DEFAULT_FIELDS = new Set(RESOURCES.flatMap((r) => r.fields.filter((f) => f.normalise === 'int-map-zero-defaults' && f.v1).map((f) => f.v1!)));

/** Calls that show a map whole: what they print or list lacks the members v2 left out. */
const SHOWN_BY = /^(JSON\.stringify|Object\.(entries|keys|values)|console\.\w+|String)$/;

/** `group.resourceLimits` where `group` is a record of a call that migrates: the field's known members. */
function zeroDefaultMap(ctx: TransformContext, node: ts.Expression): readonly string[] | undefined {
  const n = withoutFallback(unwrap(node));
  const name = memberName(n);
  if (!name || !ZERO_DEFAULT_FIELDS.has(name)) return undefined;
  const shape = ctx.shapeOf((n as ts.PropertyAccessExpression | ts.ElementAccessExpression).expression);
  return shape?.kind === 'resource' ? knownKeys(shape.resource, name) : undefined;
}

/** `group.resourceLimits ?? {}`, `limits || {}`: the map, or what stands in for it (which lacks the same members). */
function withoutFallback(node: ts.Expression): ts.Expression {
  let n = node;
  while (ts.isBinaryExpression(n) && isFallback(n.operatorToken.kind)) n = unwrap(n.left);
  return n;
}

function knownKeys(resource: ResourceContract, field: string): readonly string[] | undefined {
  const f = resource.fields.find((x) => x.v1 === field && x.normalise === 'int-map-zero-defaults');
  return f ? f.knownKeys ?? [] : undefined;
}

/**
 * `x ?? 0` already: an earlier run's edit. Not `x ?? 'unset'`: v1 showed every known member, so the
 * program's own fallback never applied to one there; on v2 it would stand for every zero.
 */
function defaulted(node: ts.Expression, keys: readonly string[]): boolean {
  const fallback = ownFallback(node);
  // A member v1 did not show either (`limits.other ?? 'none'`) keeps its fallback on both versions.
  return fallback !== undefined && (fallback.getText() === '0' || !keys.includes(memberName(node) ?? ''));
}

/** The right side of `member ?? fallback`, when the program gives one of its own. */
function ownFallback(member: ts.Expression): ts.Expression | undefined {
  let n: ts.Node = member;
  while (ts.isParenthesizedExpression(n.parent)) n = n.parent;
  const p = n.parent;
  return ts.isBinaryExpression(p) && p.left === n && p.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken ? p.right : undefined;
}

/** `best?.resourceLimits.repositories`: the value whose `?.` cuts the read short, where the program's fallback applied on v1 too. */
function optionalBase(member: ts.Expression): ts.Expression | undefined {
  for (let n: ts.Expression = member; ts.isPropertyAccessExpression(n) || ts.isElementAccessExpression(n) || ts.isCallExpression(n) || ts.isNonNullExpression(n); n = n.expression) {
    if (!ts.isNonNullExpression(n) && n.questionDotToken) return n.expression;
  }
  return undefined;
}

const COMPOUND = new Map<ts.SyntaxKind, string>([
  [ts.SyntaxKind.PlusEqualsToken, '+'],
  [ts.SyntaxKind.MinusEqualsToken, '-'],
  [ts.SyntaxKind.AsteriskEqualsToken, '*'],
]);

/**
 * One member read (`limits.repositories`, `limits['idps']`): defaulted to 0, or an update in place
 * started from 0. Edits are inserted around the read, never over it, so names inside it keep
 * their own renames.
 */
function defaultMember(ctx: TransformContext, member: ts.PropertyAccessExpression | ts.ElementAccessExpression, keys: readonly string[]): void {
  const text = ctx.textOf(member);
  const parent = member.parent;
  // `limits.hasOwnProperty('idps')`, `delete limits.idps`: no count is read.
  if ((ts.isCallExpression(parent) && parent.expression === member) || ts.isDeleteExpression(parent)) return;
  if (ts.isBinaryExpression(parent) && parent.left === member && isAssignment(parent.operatorToken.kind)) {
    const op = COMPOUND.get(parent.operatorToken.kind);
    // `limits.repositories = 5` sets it: nothing to default.
    if (op) {
      ctx.replace(parent.operatorToken, `= (${text} ?? 0) ${op}`);
      if (needsParentheses(parent.right)) wrap(ctx, parent.right);
    }
    return;
  }
  if ((ts.isPrefixUnaryExpression(parent) || ts.isPostfixUnaryExpression(parent)) && (parent.operator === ts.SyntaxKind.PlusPlusToken || parent.operator === ts.SyntaxKind.MinusMinusToken)) {
    const sign = parent.operator === ts.SyntaxKind.PlusPlusToken ? '+' : '-';
    // Only as a statement of its own: the value of `x++` inside an expression would change.
    if (!ts.isExpressionStatement(parent.parent)) {
      ctx.todo(parent, `v2 leaves a zero member of this map out where v1 showed 0: this ${sign}${sign} starts from undefined and gives NaN; start it from 0 by hand`);
      return;
    }
    const [from, to] = ts.isPrefixUnaryExpression(parent) ? [parent.getStart(ctx.sf), member.getStart(ctx.sf)] : [member.end, parent.end];
    ctx.edit(from, to, '');
    ctx.edit(member.end, member.end, ` = (${text} ?? 0) ${sign} 1`);
    return;
  }
  if (defaulted(member, keys)) return;
  // `limits.idps ?? 'unset'`: the program's own fallback never applied to a known member on v1, which showed it always; 0 stands in for it (a second `?? 'unset'` after `?? 0` would be unreachable, TS2869).
  const fallback = ownFallback(member);
  const shortCut = fallback && optionalBase(member);
  if (shortCut) ctx.todo(member, `v2 leaves a zero member of this map out where v1 showed 0, and this read's fallback (${fallback.getText(ctx.sf)}) also stands for a missing \`${shortCut.getText(ctx.sf)}\` (\`?.\`): on v2 it would stand for a zero too, so it is left as it is; tell the two apart by hand`);
  else if (fallback) ctx.replace(fallback, '0');
  else if (standsAlone(member)) wrap(ctx, member, ' ?? 0', '', '');
  else wrap(ctx, member, ' ?? 0');
}

/** `const { repositories } = limits` -> `const { repositories = 0 } = limits`. */
function defaultPattern(ctx: TransformContext, pattern: ts.ObjectBindingPattern, keys: readonly string[], map?: ts.Expression): void {
  // `const { clusters, ...others } = limits`: the rest holds v1's zero members too only if the map has them first.
  if (pattern.elements.some((e) => e.dotDotDotToken)) {
    if (map) defaultShownMap(ctx, map, keys);
    else ctx.todo(pattern, `v2 leaves a zero member of this map out where v1 showed 0 (${keys.join(', ') || 'its counts'}): the rest of this pattern lacks them; give the map its known members at 0 first`);
    return;
  }
  for (const element of pattern.elements) {
    if (!element.initializer) ctx.edit(element.name.end, element.name.end, ' = 0');
    // `{ clusters = 'unlimited' }`: v1 showed a known member always, so its default never applied there.
    else if (keys.includes(bindingKey(element) ?? '') && element.initializer.getText(ctx.sf) !== '0') ctx.replace(element.initializer, '0');
  }
}

/** Where `x ?? 0` needs no parentheses: an argument, a template hole, an initialiser, a returned value. */
function standsAlone(node: ts.Expression): boolean {
  const p = node.parent;
  return (
    (ts.isCallExpression(p) && p.arguments.includes(node)) ||
    ts.isTemplateSpan(p) ||
    ts.isParenthesizedExpression(p) ||
    ts.isArrayLiteralExpression(p) ||
    ts.isReturnStatement(p) ||
    (ts.isVariableDeclaration(p) && p.initializer === node) ||
    (ts.isPropertyAssignment(p) && p.initializer === node)
  );
}

function needsParentheses(e: ts.Expression): boolean {
  return ts.isBinaryExpression(e) || ts.isConditionalExpression(e);
}

function wrap(ctx: TransformContext, node: ts.Node, inside = '', before = '(', after = ')'): void {
  ctx.edit(node.getStart(ctx.sf), node.getStart(ctx.sf), before);
  ctx.edit(node.end, node.end, `${inside}${after}`);
}

/**
 * `JSON.stringify(group.resourceLimits)`: the map with its known members at 0 first, as v1 showed
 * it. Where the map's type says a member is always there, TypeScript refuses `{ clusters: 0, ...map }`
 * (TS2783, the 0 is always overwritten): `Object.assign({ clusters: 0 }, map)` says the same.
 */
function defaultShownMap(ctx: TransformContext, map: ts.Expression, keys: readonly string[]): void {
  if (keys.length === 0 || zeroesFirst(map, keys)) return;
  // `group?.resourceLimits`: no group showed no map on v1 either; the zeroes stand only for a record there.
  const shortCut = optionalBase(map);
  if (shortCut && callsIn(shortCut)) {
    ctx.todo(map, `v2 leaves a zero member of this map out where v1 showed 0 (${keys.join(', ')}), and the \`?.\` before it stands for a missing record: show its known members at 0 only where there is one`);
    return;
  }
  const [open, close] = shortCut ? [`(${shortCut.getText(ctx.sf)} == null ? undefined : `, ')'] : ['', ''];
  const zeroes = `{ ${keys.map((k) => `${k}: 0`).join(', ')} }`;
  if (typedAsAlwaysThere(ctx, map, keys)) wrap(ctx, map, '', `${open}Object.assign(${zeroes}, `, `)${close}`);
  else wrap(ctx, map, '', `${open}${zeroes.slice(0, -2)}, ...`, ` }${close}`);
}

/** Whether an expression calls anything: written twice, it would call twice. */
function callsIn(node: ts.Node): boolean {
  return ts.isCallExpression(node) || ts.isNewExpression(node) || ts.isTaggedTemplateExpression(node) || (ts.forEachChild(node, (child) => callsIn(child) || undefined) ?? false);
}

/** Whether a TypeScript file types one of the map's members as always there (not optional). */
function typedAsAlwaysThere(ctx: TransformContext, map: ts.Expression, keys: readonly string[]): boolean {
  if (!isTyped(ctx.sf)) return false;
  const type = ctx.analysis.checker.getTypeAtLocation(map);
  return keys.some((k) => {
    const member = type.getProperty(k);
    return member !== undefined && (member.flags & ts.SymbolFlags.Optional) === 0;
  });
}

/**
 * The reads of a map through the name it was given, as reads of the map itself: a member read or
 * updated, the map shown whole. A use that lets it go on (passed, returned) gets a note: a member
 * may be read there, out of sight; so does a name given another value, whose reads may not be the map's.
 */
function defaultThroughName(ctx: TransformContext, declaration: ts.VariableDeclaration | ts.BindingElement, keys: readonly string[]): void {
  const name = declaration.name.getText(ctx.sf);
  const zeroes = `v2 leaves a zero member of ${name} out where v1 showed 0 (${keys.join(', ') || 'its counts'})`;
  const uses = usesOf(ctx.sf, declaration, (n) => ctx.analysis.text.declarationOf(n));
  const reassigned = ts.isVariableDeclaration(declaration) ? assignedValues(declaration).length > 1 : uses.some(assignedTo);
  if (reassigned) {
    ctx.todo(declaration, `${zeroes}, and ${name} is given other values: default its members to 0 where they are the record's`);
    return;
  }
  for (const id of uses) {
    const p = id.parent;
    if ((ts.isPropertyAccessExpression(p) || (ts.isElementAccessExpression(p) && ts.isStringLiteral(p.argumentExpression))) && p.expression === id) defaultMember(ctx, p, keys);
    else if (ts.isCallExpression(p) && p.arguments.includes(id) && SHOWN_BY.test(p.expression.getText(ctx.sf))) defaultShownMap(ctx, id, keys);
    else if (ts.isVariableDeclaration(p) && p.initializer === id && ts.isObjectBindingPattern(p.name)) defaultPattern(ctx, p.name, keys, id);
    else if (!zeroesFirst(id, keys)) ctx.todo(id, `${zeroes}: where ${name} goes on from here, a member read gets undefined; default it to 0 there`);
  }
}

/** The maps a pattern takes from a record by their field's name, read through the names they are bound to. */
function defaultBoundMaps(ctx: TransformContext, pattern: ts.ObjectBindingPattern): void {
  const bound = pattern.elements.filter((e) => ZERO_DEFAULT_FIELDS.has(bindingKey(e) ?? ''));
  const shape = bound.length > 0 ? destructuredShape(ctx, pattern) : undefined;
  if (shape?.kind !== 'resource') return;
  for (const element of bound) {
    const keys = knownKeys(shape.resource, bindingKey(element)!);
    if (!keys) continue;
    // `{ resourceLimits: { clusters } }`: its members taken apart in place.
    if (ts.isObjectBindingPattern(element.name)) defaultPattern(ctx, element.name, keys);
    else if (ts.isIdentifier(element.name)) defaultThroughName(ctx, element, keys);
  }
}

/** `{ clusters: 0, idps: 0, ...limits }` or `Object.assign({ clusters: 0, idps: 0 }, limits)`: the map after its known members at 0, as defaultShownMap writes it (an earlier run's edit). */
function zeroesFirst(map: ts.Expression, keys: readonly string[]): boolean {
  const holder = map.parent;
  const zeroes = (properties: readonly ts.ObjectLiteralElementLike[]) => keys.every((k) => properties.some((p) => ts.isPropertyAssignment(p) && propertyKey(p) === k && p.initializer.getText() === '0'));
  if (keys.length === 0) return false;
  if (ts.isCallExpression(holder) && holder.expression.getText() === 'Object.assign' && holder.arguments[1] === map) {
    const first = holder.arguments[0];
    return Boolean(first && ts.isObjectLiteralExpression(first) && zeroes(first.properties));
  }
  if (!ts.isSpreadAssignment(holder) || !ts.isObjectLiteralExpression(holder.parent)) return false;
  return zeroes(holder.parent.properties.slice(0, holder.parent.properties.indexOf(holder)));
}

/**
 * `group.resourceLimits` read whole where no other rule of this transform reads it: tested with
 * `in`, its keys walked with `for...in`, copied (`{ ...map }`, `Object.assign(x, map)`): those read
 * it once and keep no hold on it, so they read it with its known members at 0 first. Handed on
 * anywhere else (a function, an object, a Map, returned), it gets a note: a copy there would no
 * longer be the record's own map.
 */
function defaultReadWhole(ctx: TransformContext, map: ts.PropertyAccessExpression | ts.ElementAccessExpression, keys: readonly string[]): void {
  let n: ts.Node = map;
  while (ts.isParenthesizedExpression(n.parent) || ts.isNonNullExpression(n.parent) || (ts.isBinaryExpression(n.parent) && n.parent.left === n && isFallback(n.parent.operatorToken.kind))) n = n.parent;
  const p = n.parent;
  const readOnce =
    (ts.isBinaryExpression(p) && p.right === n && p.operatorToken.kind === ts.SyntaxKind.InKeyword) ||
    (ts.isForInStatement(p) && p.expression === n) ||
    ts.isSpreadAssignment(p) ||
    (ts.isCallExpression(p) && p.expression.getText(ctx.sf) === 'Object.assign' && p.arguments.indexOf(n as ts.Expression) > 0);
  if (readOnce) {
    defaultShownMap(ctx, map, keys);
    return;
  }
  const handled =
    ((ts.isPropertyAccessExpression(p) || ts.isElementAccessExpression(p)) && p.expression === n) ||
    (ts.isCallExpression(p) && (p.expression === n || SHOWN_BY.test(p.expression.getText(ctx.sf)))) ||
    (ts.isVariableDeclaration(p) && p.initializer === n) ||
    (ts.isBinaryExpression(p) && p.left === n && isAssignment(p.operatorToken.kind)) ||
    ts.isExpressionStatement(p) ||
    ts.isDeleteExpression(p) ||
    zeroesFirst(map, keys);
  if (!handled) {
    ctx.todo(map, `v2 leaves a zero member of this map out where v1 showed 0 (${keys.join(', ') || 'its counts'}): where it goes on from here, a member read gets undefined and its keys lack them; give it its known members at 0 there`);
  }
}

/** The kinds of node a map of counts is read, taken apart, named or shown at: the transform's pass reads these only. */
const ZERO_DEFAULT_SITES = [ts.SyntaxKind.PropertyAccessExpression, ts.SyntaxKind.ElementAccessExpression, ts.SyntaxKind.VariableDeclaration, ts.SyntaxKind.ObjectBindingPattern, ts.SyntaxKind.CallExpression];

export const zeroDefaults: Transform = {
  name: 'zero-defaults',
  description: 'v1 showed zero counts (resourceLimits.repositories: 0), v2 leaves them out: a read defaults to 0, an update in place starts from 0, a map shown whole gets its known members at 0',
  apply(ctx) {
    if (ZERO_DEFAULT_FIELDS.size === 0) return;
    for (const node of nodesOf(ctx.sf).ofKinds(...ZERO_DEFAULT_SITES)) {
      if (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) {
        const map = zeroDefaultMap(ctx, node.expression);
        if (map) defaultMember(ctx, node, map);
        const keys = zeroDefaultMap(ctx, node);
        if (keys) defaultReadWhole(ctx, node, keys);
        continue;
      }
      // `const { repositories } = group.resourceLimits`
      if (ts.isVariableDeclaration(node) && ts.isObjectBindingPattern(node.name) && node.initializer) {
        const keys = zeroDefaultMap(ctx, node.initializer);
        if (keys) {
          defaultPattern(ctx, node.name, keys, node.initializer);
          continue;
        }
      }
      // `const { name, resourceLimits } = group`, `({ resourceLimits: limits }) => ...`: the map under the name it is bound to.
      if (ts.isObjectBindingPattern(node)) {
        defaultBoundMaps(ctx, node);
        continue;
      }
      // `const limits = group.resourceLimits`: the map under another name.
      if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
        const keys = zeroDefaultMap(ctx, node.initializer);
        if (keys) defaultThroughName(ctx, node, keys);
        continue;
      }
      if (!ts.isCallExpression(node) || !SHOWN_BY.test(node.expression.getText(ctx.sf))) continue;
      for (const arg of node.arguments) {
        const keys = zeroDefaultMap(ctx, arg);
        if (keys) defaultShownMap(ctx, arg, keys);
      }
    }
  },
};
