/**
 * The v2 form of a v1 answer a test double gives: walks the body as written (object and array
 * literals, the names and functions of the test that make them, JSON files it imports) knowing what
 * it stands for (a list's envelope, one record read by list, a record, records) and plans the edits
 * that make it v2's: envelope key, `totalCount`, field names, hydrated role-binding references, the
 * record itself in place of a list of one. Anything it cannot follow makes the walk fail with a
 * reason: a half-migrated answer is worse than a v1 one.
 */
import { ts } from 'ts-morph';
import { clientFieldRenames, ENVELOPE, resourceOf, type FieldRule, type ResourceContract } from '../contract/index.js';
import { functionOf, returnedExpressions, unwrap, type StaticText } from './static-text.js';
import { assignedValues, propertyKey } from './syntax.js';

export type BodyRole = { shape: 'envelope' | 'one' | 'resource' | 'array'; resource: ResourceContract };

export type BodyEdit =
  /** A member of a record or an envelope under its v2 name. */
  | { edit: 'rename'; property: ts.PropertyAssignment | ts.ShorthandPropertyAssignment; to: string }
  /** The rest of v2's envelope after the list's records: `totalCount` counting them, and (when the client asks for pages) an empty `nextPageToken`, the last page's. */
  | { edit: 'page'; after: ts.ObjectLiteralElementLike; records: ts.Expression; present: ReadonlySet<string> }
  /** `{ items: [record] }` -> `record`. */
  | { edit: 'one'; outer: ts.Expression; inner: ts.Expression }
  /** A binding's reference by uid (`identity: x.id`) -> the hydrated object made of the record `x`. */
  | { edit: 'hydrate'; value: ts.Expression; record: ts.Expression; field: FieldRule };

/** What the data flow should take a name of the test for, once its value is seen in an answer. */
export interface Held {
  kind: 'resource' | 'array' | 'envelope';
  resource: ResourceContract;
}

export interface BodyWalk {
  edits: BodyEdit[];
  holders: Map<ts.Declaration, Held>;
  /** Literals and declarations the walk passed: doubles that share them migrate together. */
  reached: Set<ts.Node>;
  /** One record read by list, answered with an empty list: on v2 a 404. */
  missing: boolean;
  why?: string;
}

/** Reads JSON the test loads: the root of the file a name or a call gives, if it is one. */
export type DataSource = (node: ts.Node) => ts.Expression | undefined;

const COPIES = new Set(['structuredClone', 'Array.from', 'Object.freeze']);
const SAME_RECORDS = new Set(['slice', 'filter', 'concat', 'sort', 'toSorted', 'reverse']);
const ONE_OF = new Set(['find', 'at', 'findLast']);

class Walker {
  readonly walk: BodyWalk = { edits: [], holders: new Map(), reached: new Set(), missing: false };
  /** The parameters of the reply function: what the request holds. */
  readonly request = new Set<ts.Declaration>();

  constructor(
    private readonly text: StaticText,
    private readonly data: DataSource,
  ) {}

  private fail(node: ts.Node, why: string): void {
    this.walk.why ??= `${why} (${node.getText().replace(/\s+/g, ' ').slice(0, 60)})`;
  }

  visit(e: ts.Expression, role: BodyRole): void {
    if (this.walk.why) return;
    const n = unwrap(e);
    if (ts.isParenthesizedExpression(n)) return this.visit(n.expression, role);
    if (ts.isConditionalExpression(n)) {
      this.visit(n.whenTrue, role);
      return this.visit(n.whenFalse, role);
    }
    if (ts.isIdentifier(n)) return this.name(n, role);
    if (ts.isCallExpression(n)) return this.call(n, role);
    if (ts.isElementAccessExpression(n) || (ts.isPropertyAccessExpression(n) && role.shape === 'array')) return this.member(n, role);
    if (ts.isObjectLiteralExpression(n)) {
      this.walk.reached.add(n);
      if (role.shape === 'envelope') return this.envelope(n, role.resource);
      if (role.shape === 'one') return this.one(e, n, role.resource);
      if (role.shape === 'resource') return this.record(n, role.resource);
    }
    if (ts.isArrayLiteralExpression(n) && role.shape === 'array') {
      this.walk.reached.add(n);
      for (const element of n.elements) this.visit(ts.isSpreadElement(element) ? element.expression : element, ts.isSpreadElement(element) ? role : { shape: 'resource', resource: role.resource });
      return;
    }
    this.fail(n, `its ${role.shape === 'array' ? 'records are' : 'answer is'} made where migrate-v2 cannot follow`);
  }

  /** A name: the constant that holds the value (walked where it is declared), or a JSON file the test imports. */
  private name(n: ts.Identifier, role: BodyRole): void {
    const json = this.data(n);
    if (json) return this.visit(json, role);
    const d = this.text.declarationOf(n);
    if (!d || !ts.isVariableDeclaration(d) || !ts.isIdentifier(d.name) || !d.initializer || !(d.parent.flags & ts.NodeFlags.Const)) return this.fail(n, 'its answer comes from a name migrate-v2 cannot follow to one value');
    this.walk.reached.add(d);
    const held: Held['kind'] = role.shape === 'one' ? (holdsList(d.initializer, role.resource) ? 'envelope' : 'resource') : role.shape;
    this.walk.holders.set(d, { kind: held, resource: role.resource });
    this.visit(d.initializer, role);
  }

  private call(n: ts.CallExpression, role: BodyRole): void {
    const json = this.data(n);
    if (json) return this.visit(json, role);
    const callee = n.expression.getText();
    if (COPIES.has(callee) && n.arguments[0]) return this.visit(n.arguments[0], role);
    if (ts.isPropertyAccessExpression(n.expression) && role.shape === 'array') {
      const method = n.expression.name.text;
      if (SAME_RECORDS.has(method)) return this.visit(n.expression.expression, role);
      const callback = n.arguments[0] && unwrap(n.arguments[0]);
      if (method === 'map' && callback && (ts.isArrowFunction(callback) || ts.isFunctionExpression(callback))) {
        for (const e of returnedExpressions(callback)) this.visit(e, { shape: 'resource', resource: role.resource });
        return;
      }
    }
    if (ts.isPropertyAccessExpression(n.expression) && role.shape === 'resource' && ONE_OF.has(n.expression.name.text)) return this.visit(n.expression.expression, { shape: 'array', resource: role.resource });
    const fn = functionOf(n.expression, (x) => this.text.declarationOf(x));
    if (!fn) return this.fail(n, 'its answer is made by a function migrate-v2 cannot read');
    const returned = returnedExpressions(fn);
    if (returned.length === 0) return this.fail(n, 'its answer is made by a function that returns nothing migrate-v2 can read');
    for (const e of returned) this.visit(e, role);
  }

  /** `groups[0]`, `identities.at(-1)`: a record of the list it is taken from; `fixture.items`: the records of an envelope. */
  private member(n: ts.ElementAccessExpression | ts.PropertyAccessExpression, role: BodyRole): void {
    if (ts.isElementAccessExpression(n) && role.shape === 'resource') return this.visit(n.expression, { shape: 'array', resource: role.resource });
    if (ts.isPropertyAccessExpression(n) && n.name.text === role.resource.v1.endpoints.list?.envelopeKey) return this.visit(n.expression, { shape: 'envelope', resource: role.resource });
    this.fail(n, 'its answer is read from a value migrate-v2 cannot follow');
  }

  private envelope(object: ts.ObjectLiteralExpression, resource: ResourceContract): void {
    const list = resource.v1.endpoints.list;
    const v2 = resource.v2.endpoints.list;
    const records = list && v2 ? object.properties.find((p) => propertyKey(p) === list.envelopeKey) : undefined;
    // Already v2's (an earlier run, or the transform run alone): nothing to change.
    if (!records && v2 && object.properties.some((p) => propertyKey(p) === v2.envelopeKey)) return;
    if (!records || !(ts.isPropertyAssignment(records) || ts.isShorthandPropertyAssignment(records))) return this.fail(object, `it is no v1 list answer ({ ${list?.envelopeKey ?? 'items'}: [...] })`);
    if (object.properties.some(ts.isSpreadAssignment)) return this.fail(object, 'its list answer spreads values migrate-v2 does not follow');
    if (list!.envelopeKey !== v2!.envelopeKey) this.walk.edits.push({ edit: 'rename', property: records, to: v2!.envelopeKey });
    const value = ts.isPropertyAssignment(records) ? records.initializer : records.name;
    const present = new Set(object.properties.flatMap((p) => propertyKey(p) ?? []).filter((k) => k === ENVELOPE.totalCount || k === ENVELOPE.nextPageToken));
    this.walk.edits.push({ edit: 'page', after: records, records: value, present });
    this.visit(value, { shape: 'array', resource });
  }

  /** One record read by list: `{ items: [record] }` answers the record, `{ items: [] }` no record (a 404 on v2). */
  private one(written: ts.Expression, object: ts.ObjectLiteralExpression, resource: ResourceContract): void {
    const key = resource.v1.endpoints.list?.envelopeKey;
    const records = object.properties.find((p) => propertyKey(p) === key);
    // No list around it: the record itself, as v2's Get answers it.
    if (!records) return this.record(object, resource);
    const list = records && ts.isPropertyAssignment(records) ? unwrap(records.initializer) : undefined;
    if (!list || !ts.isArrayLiteralExpression(list) || list.elements.length > 1 || list.elements.some(ts.isSpreadElement)) return this.fail(object, 'it answers a read of one record with a list that is not written as one record or none');
    const [only] = list.elements;
    if (!only) {
      this.walk.missing = true;
      return;
    }
    this.walk.edits.push({ edit: 'one', outer: written, inner: only });
    this.visit(only, { shape: 'resource', resource });
  }

  private record(object: ts.ObjectLiteralExpression, resource: ResourceContract): void {
    const renames = clientFieldRenames(resource);
    const keys = new Set(object.properties.map(propertyKey));
    for (const p of object.properties) {
      if (ts.isSpreadAssignment(p)) {
        if (!this.isRequestEcho(p.expression)) this.visit(p.expression, { shape: 'resource', resource });
        continue;
      }
      if (!ts.isPropertyAssignment(p) && !ts.isShorthandPropertyAssignment(p)) return this.fail(p, 'a record of its answer has members migrate-v2 does not read');
      const key = propertyKey(p);
      if (key === undefined) return this.fail(p, 'a record of its answer has a computed key');
      const to = renames.get(key);
      if (to && !keys.has(to)) this.walk.edits.push({ edit: 'rename', property: p, to });
      const field = resource.fields.find((f) => f.v1 === key && f.reference);
      if (field) this.reference(ts.isPropertyAssignment(p) ? p.initializer : p.name, field);
    }
  }

  /** `role: viewer` is a record of its own kind; `identity: alice.id` becomes the hydrated identity made of `alice`. */
  private reference(value: ts.Expression, field: FieldRule): void {
    const target = resourceOf(field.reference!.target);
    if (field.reference!.v1Form === 'object') return this.visit(value, { shape: 'resource', resource: target });
    const n = unwrap(value);
    const renamed = clientFieldRenames(target);
    if (!ts.isPropertyAccessExpression(n) || !renamed.has(n.name.text) || renamed.get(n.name.text) !== 'uid') return this.fail(value, `a ${field.v1} given by uid alone: v2 answers it hydrated (${field.reference!.hydratedFields.map((f) => f.name).join(', ')}), which the test's data does not hold`);
    this.walk.edits.push({ edit: 'hydrate', value: n, record: n.expression, field });
    this.visit(n.expression, { shape: 'resource', resource: target });
  }

  /**
   * `...body` of the reply function's request body, `...sent` where `sent = JSON.parse(body)` or
   * `await request.json()`: what the client sent, echoed back; the migrated client sends it in v2's
   * names already.
   */
  private isRequestEcho(e: ts.Expression): boolean {
    const n = unwrap(e);
    if (ts.isCallExpression(n)) return this.parsesRequest(n);
    const d = ts.isIdentifier(n) ? this.text.declarationOf(n) : undefined;
    if (d && this.request.has(d)) return true;
    if (!d || !ts.isVariableDeclaration(d)) return false;
    const values = assignedValues(d);
    return values.length > 0 && values.every((v) => {
      const x = unwrap(v);
      return ts.isCallExpression(x) && this.parsesRequest(x);
    });
  }

  /** `JSON.parse(body)`, `request.json()`: a body parsed per request, not a fixture the test loads. */
  private parsesRequest(call: ts.CallExpression): boolean {
    if (this.data(call)) return false;
    return call.expression.getText() === 'JSON.parse' || (ts.isPropertyAccessExpression(call.expression) && call.expression.name.text === 'json' && call.arguments.length === 0);
  }
}

/** `{ items: [...] }` written in place: a list around the record, not the record. */
function holdsList(e: ts.Expression, resource: ResourceContract): boolean {
  const n = unwrap(e);
  return ts.isObjectLiteralExpression(n) && n.properties.some((p) => propertyKey(p) === resource.v1.endpoints.list?.envelopeKey);
}

/** A parameter and the names it binds when taken apart (`({ body }) => ...`). */
function declarationsIn(p: ts.ParameterDeclaration | ts.BindingElement, out: Set<ts.Declaration>): void {
  out.add(p);
  if (!ts.isIdentifier(p.name)) for (const element of p.name.elements) if (ts.isBindingElement(element)) declarationsIn(element, out);
}

/** Walks one body for its v2 form. */
export function walkBody(body: ts.Expression, role: BodyRole, text: StaticText, data: DataSource): BodyWalk {
  const walker = new Walker(text, data);
  const n = unwrap(body);
  // A reply function answers per request: what it returns is the body; its parameters hold the request.
  if (ts.isArrowFunction(n) || ts.isFunctionExpression(n)) {
    for (const p of n.parameters) declarationsIn(p, walker.request);
    for (const e of returnedExpressions(n)) walker.visit(e, role);
  } else walker.visit(body, role);
  return walker.walk;
}
