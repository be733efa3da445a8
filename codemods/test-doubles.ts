/**
 * Test doubles migrate with the calls they stand in for (the analysis decides, double-plan.ts):
 * a stub's route (prefix, collection spelling, PUT -> PATCH with the updateMask the migrated call
 * sends, the page parameters it asks for, `?id=` -> the record's path), its answer (envelope key,
 * `totalCount`, field names, hydrated role-binding references, the record itself for a read of
 * one, 404 with v2's error body for a read of none), the expectations a test writes of the
 * requests, and the JSON recordings it loads. A double that stays on v1 gets a note naming the
 * call it answers, which gets one naming it.
 */
import { ts } from 'ts-morph';
import type { Transform, TransformContext } from '../src/codemod/transform.js';
import { describeDouble, idPlacement, wholeUrl, type DoubleDecision } from '../src/codemod/double-plan.js';
import { placeOf } from '../src/codemod/places.js';
import type { Reply } from '../src/codemod/double-replies.js';
import type { BodyEdit } from '../src/codemod/reply-bodies.js';
import { FIRST_PAGE } from '../src/codemod/paging.js';
import { maskText } from '../src/codemod/update-masks.js';
import { regexText, type Expectation, type Route } from '../src/codemod/test-doubles.js';
import type { RecordedRoute } from '../src/codemod/data-files.js';
import { ENVELOPE, GRPC_CODES, hasV1Path, LIST_CONTRACT, LIST_PARAMS, rewriteV1Paths, type ResourceContract } from '../src/contract/index.js';
import { addToObject, encodedValue, quoteLike, unwrapEncoding } from './helpers.js';

const NOT_FOUND = GRPC_CODES.NOT_FOUND;

/** What the migrated calls add at the end of the request's query, if anything: the page parameters, or the update's mask. */
function querySuffix(ctx: TransformContext, d: DoubleDecision): string | undefined {
  if (d.operation === 'update') return `updateMask=${maskText(ctx.analysis.updateMask(d.served[0]!))}`;
  if (d.operation === 'list' && d.served.every((c) => ctx.analysis.sendsPages(c))) return FIRST_PAGE;
  return undefined;
}

/** Calls of a list that page and calls that do not, behind one double: no request it matches fits both. */
function mixedPaging(ctx: TransformContext, d: DoubleDecision): boolean {
  return d.operation === 'list' && d.served.some((c) => ctx.analysis.sendsPages(c)) && !d.served.every((c) => ctx.analysis.sendsPages(c));
}

function note(ctx: TransformContext, d: DoubleDecision, at: ts.Node = d.double.node): void {
  const what = describeDouble(d.double);
  const first = d.served[0];
  if (!first) {
    ctx.todo(at, `no call migrate-v2 recognises is answered by this ${what}${d.why ? ` (${d.why})` : ''}, so it stays on v1: migrate it with the code it stands in for`);
    return;
  }
  const served = `the ${first.resource.singular} ${first.operation} it answers (${placeOf(first.call, ctx.sf)}${d.served.length > 1 ? ` and ${d.served.length - 1} more` : ''})`;
  if (d.why) ctx.todo(at, `this ${what} stays on v1, and so does ${served}: ${d.why}`);
  else ctx.todo(at, `this ${what} stays on v1 with ${served}, which stays on v1: they move to v2 together`);
}

/** The last literal piece of a path expression, when the path ends with one. */
function lastPiece(path: ts.Expression): ts.StringLiteral | ts.NoSubstitutionTemplateLiteral | ts.TemplateTail | undefined {
  if (ts.isStringLiteral(path) || ts.isNoSubstitutionTemplateLiteral(path)) return path;
  if (ts.isTemplateExpression(path)) return path.templateSpans[path.templateSpans.length - 1]!.literal as ts.TemplateTail;
  return undefined;
}

/** A literal's source with a query parameter added before its closing delimiter. */
function withQuery(source: string, joiner: string, query: string): string {
  return `${source.slice(0, -1)}${joiner}${query}${source.slice(-1)}`;
}

/**
 * The route's path in v2: every v1 literal of it rewritten, and the query the migrated call adds
 * at its end. A literal the program's own calls also read is rewritten by the path plan; one a call
 * that stays on v1 reads, or one in another file, cannot be: then the stub is noted instead.
 */
function rewritePath(ctx: TransformContext, path: ts.Expression, suffix: string | undefined): string | undefined {
  const plan = ctx.analysis.plan;
  const evaluated = ctx.analysis.text.of(path);
  if (!evaluated) return 'its path cannot be read';
  const last = lastPiece(path);
  const joiner = evaluated.text.includes('?') ? '&' : '?';
  const edits: [ts.Node, string][] = [];
  for (const literal of evaluated.literals) {
    const appends = suffix !== undefined && literal === last;
    if (!hasV1Path(literal.text) && !appends) continue;
    const planned = plan.rewrites.get(literal);
    if (planned !== undefined && !appends) continue;
    if (planned === undefined && plan.readLiterals.has(literal)) return 'its path is a constant that calls staying on v1 read too';
    if (literal.getSourceFile() !== ctx.sf) return 'its path is a constant of another file';
    const source = planned ?? rewriteV1Paths(ctx.textOf(literal));
    edits.push([literal, appends ? withQuery(source, joiner, suffix!) : source]);
  }
  if (suffix !== undefined && !last) return 'its path does not end with a literal the query can join';
  for (const [node, text] of edits) {
    ctx.replace(node, text);
    ctx.claim(node);
  }
  return undefined;
}

/** nock's `.query({ ... })` gets the parameters the migrated call adds (`page_size: 200`, `updateMask: ...`). */
function addToNockQuery(ctx: TransformContext, query: ts.CallExpression, suffix: string): string | undefined {
  const object = query.arguments[0];
  if (object?.kind === ts.SyntaxKind.TrueKeyword) return undefined;
  if (!object || !ts.isObjectLiteralExpression(object)) return 'its query is not written in place';
  // An earlier run (or this transform run alone) may have added it already.
  if (!object.properties.some((p) => p.name?.getText().replace(/^['"]|['"]$/g, '') === suffix.split('=')[0])) addToObject(ctx, object, nockQuery(suffix));
  return undefined;
}

/** `page_size=200` -> `page_size: 200`, `updateMask=name` -> `updateMask: 'name'`: a member of nock's `.query({...})`. */
function nockQuery(suffix: string): string {
  const [key, value] = suffix.split('=') as [string, string];
  const name = /^[A-Za-z_$][\w$]*$/.test(key) ? key : `'${key}'`;
  return `${name}: ${key === LIST_PARAMS.pageSize ? LIST_CONTRACT.pageSize.max : `'${value}'`}`;
}

function migrateRoute(ctx: TransformContext, d: DoubleDecision, route: Route): void {
  if (mixedPaging(ctx, d)) return note(ctx, { ...d, why: 'some of the lists it answers ask for pages on v2 and some do not' });
  if (d.operation === 'update' && route.methodNode) ctx.replace(route.methodNode, ts.isIdentifier(route.methodNode) ? 'patch' : quoteLike(ctx.textOf(route.methodNode), 'PATCH'));
  const suffix = route.library === 'msw' ? undefined : querySuffix(ctx, d);
  let why: string | undefined;
  if (ts.isRegularExpressionLiteral(route.path)) rewriteRegex(ctx, route.path, suffix);
  else if (d.operation === 'get-by-list') why = route.library === 'msw' ? mswRecordPath(ctx, route) : moveIdIntoPath(ctx, route);
  else if (suffix && route.query) why = rewritePath(ctx, route.path, undefined) ?? addToNockQuery(ctx, route.query, suffix);
  else if (suffix && route.library === 'nock' && !ctx.analysis.text.textOf(route.path)?.includes('?')) {
    why = rewritePath(ctx, route.path, undefined);
    if (!why) ctx.edit(route.node.end, route.node.end, `.query({ ${nockQuery(suffix)} })`);
  } else why = rewritePath(ctx, route.path, ctx.analysis.text.textOf(route.path)?.includes(suffix ?? '\u0000') ? undefined : suffix);
  if (why) ctx.todo(route.node, `this ${describeDouble(route)} could not be migrated with the calls it answers, which migrate: ${why}; migrate it by hand`);
}

/** msw matches the path alone: a read of one record matches any uid below the collection. */
function mswRecordPath(ctx: TransformContext, route: Route): string | undefined {
  if (!ts.isStringLiteralLike(route.path)) return 'its path is not a plain string';
  const source = rewriteV1Paths(ctx.textOf(route.path));
  ctx.replace(route.path, `${source.slice(0, -1).replace(/\/$/, '')}/*${source.slice(-1)}`);
  ctx.claim(route.path);
  return undefined;
}

/**
 * `.get('/iam/v1/groups').query({ id: x })` -> `.get(\`/iam/v2beta1/groups/${x}\`)`, and
 * `\`/iam/v1/identities?id=${encodeURIComponent(x)}\`` -> `\`/iam/v2beta1/identities/${x}\``: the
 * id stays where it is written (its own edits apply), the text around it changes.
 */
function moveIdIntoPath(ctx: TransformContext, route: Route): string | undefined {
  const placement = idPlacement(route, ctx.analysis.text);
  if (!placement) return 'the id it matches cannot be moved into the path';
  const id = encodedValue(placement.id);
  if ('query' in placement) {
    const path = route.path as ts.StringLiteralLike;
    // A literal id joins the path's own literal; anything else stays where it is written, in a hole.
    if (ts.isStringLiteral(id)) {
      ctx.edit(path.getStart(ctx.sf), placement.query.end, `${quoteLike(ctx.textOf(path), `${rewriteV1Paths(path.text)}/${id.text}`)})`);
      ctx.claim(placement.query);
    } else {
      const base = rewriteV1Paths(path.text).replace(/[`\\]/g, (c) => `\\${c}`).replace(/\$\{/g, '\\${');
      ctx.edit(path.getStart(ctx.sf), id.getStart(ctx.sf), `\`${base}/\${`);
      ctx.edit(id.end, placement.query.end, '}`)');
    }
    ctx.claim(path);
    return undefined;
  }
  const source = ctx.textOf(placement.literal);
  const path = route.path as ts.TemplateExpression;
  const value = encodedValue(placement.id);
  // `?id=${encodeURIComponent('gone')}` -> `/gone`: a literal id needs no hole.
  if (ts.isStringLiteralLike(value) && path.templateSpans.length === 1) {
    const text = `${rewriteV1Paths(path.head.text.slice(0, -'?id='.length))}/${value.text}`;
    ctx.replace(path, `\`${text.replace(/[`\\]/g, (c) => `\\${c}`).replace(/\$\{/g, '\\${')}\``);
    ctx.claim(path);
    return undefined;
  }
  ctx.replace(placement.literal, `${rewriteV1Paths(source.slice(0, source.lastIndexOf('?id=')))}/${source.slice(source.lastIndexOf('?id=') + 4)}`);
  ctx.claim(placement.literal);
  unwrapEncoding(ctx, placement.id);
  return undefined;
}

function migrateExpectation(ctx: TransformContext, d: DoubleDecision, e: Expectation): void {
  if (e.what === 'method') {
    ctx.replace(e.node, quoteLike(ctx.textOf(e.node), 'PATCH'));
    ctx.claim(e.node);
    return;
  }
  const text = ts.isRegularExpressionLiteral(e.node) ? regexText(e.node) : e.node.text;
  const suffix = wholeUrl(e, text) && !mixedPaging(ctx, d) ? querySuffixOf(ctx, d) : undefined;
  if (ts.isRegularExpressionLiteral(e.node)) rewriteRegex(ctx, e.node, suffix);
  else {
    const source = rewriteV1Paths(ctx.textOf(e.node));
    ctx.replace(e.node, suffix && (ts.isStringLiteral(e.node) || ts.isNoSubstitutionTemplateLiteral(e.node) || ts.isTemplateTail(e.node)) ? withQuery(source, text.includes('?') ? '&' : '?', suffix) : source);
  }
  ctx.claim(e.node);
}

/**
 * A regular expression matching a v1 request: its path rewritten (the source escapes every `/`), and,
 * when it is anchored at the end, the query the migrated call adds joined before the anchor.
 */
function rewriteRegex(ctx: TransformContext, node: ts.RegularExpressionLiteral, suffix: string | undefined): void {
  const source = node.text;
  const end = source.lastIndexOf('/');
  const text = regexText(node);
  let body = rewriteV1Paths(source.slice(1, end).replace(/\\\//g, '/')).replace(/\//g, '\\/');
  if (suffix) body = body.replace(/\$$/, `${text.includes('?') ? '&' : '\\?'}${suffix}$`);
  ctx.replace(node, `/${body}${source.slice(end)}`);
  ctx.claim(node);
}

/** The query every call an expectation sees adds, when they agree. */
function querySuffixOf(ctx: TransformContext, d: DoubleDecision): string | undefined {
  const ops = new Set(d.served.map((c) => c.operation));
  if (ops.size !== 1) return undefined;
  return querySuffix(ctx, { ...d, operation: d.served[0]!.operation });
}

/** v2's answer for a record that does not exist (v1-reference "Errors": NOT_FOUND is code 5, HTTP 404). */
function notFoundBody(resource: ResourceContract, json: boolean, quote: string): string {
  const q = json ? '"' : quote;
  const key = (k: string) => (json ? `"${k}"` : k);
  return `{ ${key('code')}: ${NOT_FOUND.code}, ${key('message')}: ${q}Not found: ${resource.singular}${q}, ${key('details')}: [] }`;
}

/** A reply of a read by list that answered no record: a 404 with v2's error body, in the reply's own form. */
function answerNotFound(ctx: TransformContext, d: DoubleDecision, reply: Reply, json = false): void {
  const body = notFoundBody(d.resource!, json, ctx.sf.text.includes("'") || !ctx.sf.text.includes('"') ? "'" : '"');
  const status = String(NOT_FOUND.http);
  const form = reply.form;
  ctx.replace(reply.body!, body);
  ctx.claim(reply.body!);
  if (form.kind === 'arguments' || form.kind === 'entry') {
    if (reply.status) ctx.replace(reply.status, status);
    else ctx.todo(reply.body!, 'this reply now answers 404: give it that status');
    return;
  }
  if (form.kind === 'helper') {
    if (reply.status) ctx.replace(reply.status, status);
    else ctx.edit(reply.body!.end, reply.body!.end, `, ${status}`);
    return;
  }
  if (form.kind === 'transformers') {
    if (reply.status) ctx.replace(reply.status, status);
    else ctx.edit(form.json.getStart(ctx.sf), form.json.getStart(ctx.sf), `${form.json.expression.getText(ctx.sf).replace(/\.json$/, '.status')}(${status}), `);
    return;
  }
  if (form.kind !== 'init') return;
  const init = form.init;
  const member = init?.properties.find((p) => p.name?.getText() === 'status');
  if (member && ts.isPropertyAssignment(member)) ctx.replace(member.initializer, status);
  else if (member) ctx.replace(member, `status: ${status}`);
  else if (init) addToObject(ctx, init, `status: ${status}`);
  else ctx.edit(form.call.arguments![0]!.end, form.call.arguments![0]!.end, `, { status: ${status} }`);
}

/** The node an edit of an answer starts from, for the file it belongs to. */
function editNode(e: BodyEdit): ts.Node {
  return e.edit === 'rename' ? e.property : e.edit === 'page' ? e.after : e.edit === 'one' ? e.outer : e.value;
}

interface AnswerEdit {
  edit: BodyEdit;
  /** The calls the answer serves ask for pages: it is their last page. */
  pages: boolean;
}

/** The answers' edits of every double that migrates, in this file (a double's data may live in another file). */
function answerEdits(ctx: TransformContext): AnswerEdit[] {
  const plan = ctx.analysis.doubles;
  const byKey = new Map<string, AnswerEdit>();
  for (const d of plan.decisions) {
    if (!plan.migrates(d)) continue;
    const pages = d.served.some((c) => ctx.analysis.sendsPages(c));
    for (const walk of d.walks) {
      for (const edit of walk.edits) {
        const node = editNode(edit);
        const key = `${edit.edit}:${node.pos}`;
        if (node.getSourceFile() !== ctx.sf) continue;
        const known = byKey.get(key);
        if (known) known.pages ||= pages;
        else byKey.set(key, { edit, pages });
      }
    }
  }
  return [...byKey.values()];
}

/** The list's size as v2 writes `totalCount` (a decimal string): counted when written, read from a name; nothing else is evaluated twice. */
function countOf(records: ts.Expression, json: boolean, ctx: TransformContext): string | undefined {
  const n = records;
  if (ts.isArrayLiteralExpression(n) && !n.elements.some(ts.isSpreadElement)) return `${json ? '"' : "'"}${n.elements.length}${json ? '"' : "'"}`;
  return ts.isIdentifier(n) ? `String(${ctx.textOf(n)}.length)` : undefined;
}

/** Indentation of the line a node starts on. */
function indentOf(ctx: TransformContext, node: ts.Node): string {
  const start = node.getStart(ctx.sf);
  const lineStart = ctx.sf.text.lastIndexOf('\n', start - 1) + 1;
  return /^[ \t]*/.exec(ctx.sf.text.slice(lineStart))![0];
}

/** `totalCount` and an empty `nextPageToken` after the records: a v2 list's one and last page. */
function completeEnvelope(ctx: TransformContext, e: Extract<BodyEdit, { edit: 'page' }>, pages: boolean, json: boolean): void {
  const key = (k: string) => (json ? `"${k}"` : k);
  const empty = json ? '""' : "''";
  const count = e.present.has(ENVELOPE.totalCount) ? undefined : countOf(e.records, json, ctx);
  const members = [...(pages && !e.present.has(ENVELOPE.nextPageToken) ? [`${key(ENVELOPE.nextPageToken)}: ${empty}`] : []), ...(count ? [`${key(ENVELOPE.totalCount)}: ${count}`] : [])];
  if (members.length === 0) return;
  const object = e.after.parent as ts.ObjectLiteralExpression;
  const multiline = ctx.sf.text.slice(object.getStart(ctx.sf), e.after.getStart(ctx.sf)).includes('\n');
  const comma = ctx.sf.text[e.after.end] === ',';
  const line = `${ctx.source.eol}${indentOf(ctx, e.after)}`;
  if (!multiline) ctx.edit(e.after.end, e.after.end, members.map((m) => `, ${m}`).join(''));
  else if (comma) ctx.edit(e.after.end + 1, e.after.end + 1, members.map((m) => `${line}${m},`).join(''));
  else ctx.edit(e.after.end, e.after.end, members.map((m) => `,${line}${m}`).join(''));
}

function applyAnswerEdit(ctx: TransformContext, { edit: e, pages }: AnswerEdit, json: boolean): void {
  switch (e.edit) {
    case 'rename': {
      const name = e.property.name;
      if (ctx.isClaimed(name)) return;
      const value = ts.isPropertyAssignment(e.property) ? e.property.initializer : undefined;
      if (ts.isShorthandPropertyAssignment(e.property)) ctx.replace(name, `${e.to}: ${name.getText(ctx.sf)}`);
      // `{ items: groups }` -> `{ groups }`
      else if (!json && value && ts.isIdentifier(value) && value.text === e.to && ts.isIdentifier(name)) {
        ctx.replace(e.property, e.to);
        ctx.claim(e.property);
      } else ctx.replace(name, ts.isStringLiteral(name) ? quoteLike(ctx.textOf(name), e.to) : e.to);
      ctx.claim(name);
      return;
    }
    case 'page':
      completeEnvelope(ctx, e, pages, json);
      return;
    case 'one':
      ctx.edit(e.outer.getStart(ctx.sf), e.inner.getStart(ctx.sf), '');
      ctx.edit(e.inner.end, e.outer.end, '');
      return;
    case 'hydrate': {
      const record = ctx.textOf(e.record);
      const members = e.field.reference!.hydratedFields.map((f) => `${f.name}: ${record}.${f.from}`);
      ctx.replace(e.value, `{ ${members.join(', ')} }`);
      ctx.claim(e.value);
      return;
    }
  }
}

/** `"GET /iam/v1/identities?id=<uid>"` -> the request line the migrated call sends. */
function recordedLine(ctx: TransformContext, d: DoubleDecision, entry: RecordedRoute): string {
  const method = d.operation === 'update' ? 'PATCH' : entry.method;
  let target = rewriteV1Paths(entry.target);
  if (d.operation === 'get-by-list') {
    const at = target.lastIndexOf('?id=');
    target = `${target.slice(0, at)}/${decodeURIComponent(target.slice(at + 4))}`;
  }
  const suffix = querySuffix(ctx, d);
  return `${method} ${target}${suffix ? `${target.includes('?') ? '&' : '?'}${suffix}` : ''}`;
}

export const testDoubles: Transform = {
  name: 'test-doubles',
  description: 'stubs (nock, msw, MockAgent), mocked clients, recorded JSON answers and request expectations of v1 -> v2, with the calls they stand in for',
  apply(ctx) {
    const plan = ctx.analysis.doubles;
    for (const [load, why] of plan.sharedData) if (load.getSourceFile() === ctx.sf) ctx.todo(load, why);
    for (const d of plan.decisions) {
      const double = d.double;
      if (double.kind === 'entry') {
        // A recording cannot hold a note: the code that loads it does.
        if (!plan.migrates(d)) for (const load of [...d.data].flatMap((f) => f.loads)) if (load.getSourceFile() === ctx.sf) note(ctx, d, load);
        continue;
      }
      if (double.node.getSourceFile() !== ctx.sf) continue;
      if (!plan.migrates(d)) {
        note(ctx, d);
        continue;
      }
      if (double.kind === 'route') migrateRoute(ctx, d, double);
      if (double.kind === 'expectation') migrateExpectation(ctx, d, double);
      for (const reply of d.missing) answerNotFound(ctx, d, reply);
    }
    for (const e of answerEdits(ctx)) applyAnswerEdit(ctx, e, false);
  },
  applyData(ctx) {
    const plan = ctx.analysis.doubles;
    for (const d of plan.decisions) {
      if (d.file !== ctx.sf || d.double.kind !== 'entry' || !plan.migrates(d) || mixedPaging(ctx, d)) continue;
      ctx.replace(d.double.key, JSON.stringify(recordedLine(ctx, d, d.double)));
      for (const reply of d.missing) answerNotFound(ctx, d, reply, true);
    }
    for (const e of answerEdits(ctx)) applyAnswerEdit(ctx, e, true);
  },
};
