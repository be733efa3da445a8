/**
 * v1 has no Get: one record is read by listing with `?id=` and taking `items[0]`. v2 has Get:
 * `/collection/<uid>` answers the record itself, or 404 (code 5) when it does not exist.
 */
import { ts } from 'ts-morph';
import type { Transform, TransformContext } from '../src/codemod/transform.js';
import { readOneLiteral, readOneOption } from '../src/codemod/call-plan.js';
import type { V1Call } from '../src/codemod/v1-calls.js';
import { notFoundMeets, responseVariable, type Tag, type WrapperFunction } from '../src/codemod/wrappers.js';
import type { ReaderGet } from '../src/codemod/reader-gets.js';
import { GRPC_CODES, missingRecordChange, readOneQuery } from '../src/contract/index.js';

const NOT_FOUND = GRPC_CODES.NOT_FOUND.http;
import { appendQuery, encodedValue, enclosingScope, forEachNode, nodesOf, removeProperty, unwrapEncoding } from './helpers.js';
import { unwrap } from '../src/codemod/static-text.js';
import { emptinessCheck, firstElementBinding, listTakenOnly, missingBy, statusReadIn, type Missing } from '../src/codemod/read-one.js';
import { addHelper, MISSING_HELPER, missingHelper } from './file-helpers.js';

/**
 * `if (!res.ok) throw ...` between the read and its not-found test: v2's 404 for a missing record
 * must reach that test, as v1's empty list did.
 */
function letNotFoundThrough(ctx: TransformContext, call: V1Call, missing: Extract<Missing, { by: 'status' }>, before: number): void {
  // Where the response is kept, which a retry helper's callback (`pRetry(() => fetch(url))`) is not.
  const fn = enclosingScope(missing.response);
  if (!fn) return;
  forEachNode(fn, (node) => {
    if (!ts.isIfStatement(node) || node.pos < call.call.end || node.pos > before) return;
    if (!statusReadIn(node.expression, missing.response.text, missing.bare) || ctx.isClaimed(node.expression)) return;
    const condition = node.expression;
    const simple = !ts.isBinaryExpression(condition) || condition.operatorToken.kind !== ts.SyntaxKind.BarBarToken;
    const start = condition.getStart(ctx.sf);
    if (!simple) ctx.edit(start, start, '(');
    ctx.edit(condition.end, condition.end, `${simple ? '' : ')'} && ${missing.status} !== ${NOT_FOUND}`);
    ctx.claim(condition);
  });
}

/** The expression that follows a literal piece of a URL: the next template hole, or the right of a `+`. */
function valueAfter(literal: ts.Node): ts.Expression | undefined {
  if (ts.isTemplateHead(literal)) return (literal.parent as ts.TemplateExpression).templateSpans[0]?.expression;
  if (ts.isTemplateMiddle(literal)) {
    const span = literal.parent as ts.TemplateSpan;
    const spans = (span.parent as ts.TemplateExpression).templateSpans;
    return spans[spans.indexOf(span) + 1]?.expression;
  }
  if (ts.isStringLiteral(literal) && ts.isBinaryExpression(literal.parent) && literal.parent.left === literal) return literal.parent.right;
  return undefined;
}

/**
 * `throw new Error(...)` after `if (!res.ok)` in a wrapper that a migrated read of one record goes
 * through: the error now carries the status, so that the missing-record helper can see the 404.
 */
function tagWrapperErrors(ctx: TransformContext): void {
  const tags = new Set<Tag>();
  for (const call of ctx.analysis.plan.calls) {
    if (call.operation !== 'get-by-list' || !ctx.analysis.plan.migrates(call)) continue;
    for (const tag of call.via?.untagged ?? []) if (tag.error.getSourceFile() === ctx.sf) tags.add(tag);
  }
  for (const { error, status } of tags) {
    const start = error.getStart(ctx.sf);
    ctx.edit(start, start, 'Object.assign(');
    ctx.edit(error.end, error.end, `, { ${status.slice(status.indexOf('.') + 1)}: ${status} })`);
  }
}

/** `.then(...)` that gives the record back as v1's list of one, or of none, for code that takes the list apart. */
function asListOfOne(call: V1Call): string {
  return `.then((record) => ({ ${call.resource.v1.endpoints.list!.envelopeKey}: record === undefined ? [] : [record] }))`;
}

/** `?id=${id}` -> `/${id}`, or `searchParams: { id }` -> `/${id}` at the end of the URL. */
function moveIdIntoPath(ctx: TransformContext, call: V1Call): void {
  const literal = readOneLiteral(call);
  if (!literal) {
    const option = readOneOption(call)!;
    appendQuery(ctx, call.urlNode, pathSegment(ctx, option.id), true, '/');
    if (option.keepEmpty) ctx.replace(option.keepEmpty, '{}');
    else removeProperty(ctx, option.property);
    return;
  }
  const raw = ctx.plannedText(literal);
  const query = readOneQuery(call.resource);
  const at = raw.lastIndexOf(query);
  ctx.replace(literal, `${raw.slice(0, at)}/${raw.slice(at + query.length)}`);
  ctx.claim(literal);
  // A query value is encoded; a path binds the uid with its slashes as they are (v1-reference "Identifiers").
  const encoded = valueAfter(literal);
  if (encoded) unwrapEncoding(ctx, encoded);
}

/** The text a plain id value (a name, a string, a template of names) adds to a template literal's path. */
function pathSegment(ctx: TransformContext, id: ts.Expression): string {
  if (ts.isIdentifier(id)) return `\${${id.text}}`;
  const source = ctx.textOf(id);
  if (ts.isStringLiteral(id)) return id.text.replace(/[`\\]/g, (c) => `\\${c}`).replace(/\$\{/g, '\\${');
  // A template's text between its backticks; a read of a name (`process.argv[2]`) as a hole of its own.
  return ts.isTemplateLiteral(id) ? source.slice(1, -1) : `\${${source}}`;
}

/**
 * `one(api, 'iam/v1/identities', { id })` through a list reader -> the reader's own request for
 * `iam/v2beta1/identities/${id}`, its 404 answered as the reader's "none" (undefined, or []).
 * The id stays where it is: edits inside it (`b.identity` -> `b.identity.uid`) still apply.
 */
function readThroughReader(ctx: TransformContext, call: V1Call, get: ReaderGet): void {
  const id = encodedValue(get.id);
  const path = call.urlNode;
  const literal = ts.isStringLiteral(path) || ts.isNoSubstitutionTemplateLiteral(path) ? path : undefined;
  const base = literal ? ctx.plannedText(literal).slice(1, -1).replace(/[`\\]/g, (c) => `\\${c}`) : `\${${ctx.textOf(path)}}`;
  if (literal) ctx.claim(literal);
  const [missing, asList] = get.gives === 'array' ? ['[]', '.then((record) => [record])'] : ['undefined', ''];
  ctx.edit(call.call.getStart(ctx.sf), id.getStart(ctx.sf), `${MISSING_HELPER}(${get.before}\`${base}/\${`);
  ctx.edit(id.end, call.call.end, `}\`${get.after}${asList}, ${missing})`);
  addHelper(ctx, MISSING_HELPER, missingHelper);
}

/** Hooks a client of the file runs on every response: ky's and got's `afterResponse` and `beforeError`, axios's response interceptors. */
const RESPONSE_HOOKS = /\b(?:afterResponse|beforeError|interceptors\.response|onResponse|onResponseError)\b/;

/**
 * The migrated read tells a missing record as before (missingRecordChange), but a hook that sees
 * every response of the client now sees the 404: a failure counted, logged or reported where there
 * was none.
 */
function noteResponseHooks(ctx: TransformContext, call: V1Call): void {
  const hook = call.client === 'fetch' || call.client === 'undici' ? undefined : RESPONSE_HOOKS.exec(ctx.sf.text)?.[0];
  const handed = call.via?.fn && call.via.transport ? responseHandedOn(call.via.fn, call.via.transport) : undefined;
  const seen = hook
    ? `this file's response hooks (${hook}) now see a 404 there; check what they count, log or report`
    : call.via?.fn && statusSeenIn(call.via.fn)
      ? `${call.via.name}() reads the status of every response it is given, and now sees a 404 there; check what it counts, logs or reports`
      : handed
        ? `${call.via!.name}() hands every response to other code (\`${handed.getText().length <= 40 ? handed.getText() : 'a call'}\`), which now sees a 404 there; check what it counts, logs or reports`
        : undefined;
  if (seen) ctx.todo(call.call, `${missingRecordChange(call.resource)}: this read still tells it as missing, but ${seen}`);
}

/**
 * Whether a wrapper reads a response's status for something other than an error it throws or an
 * answer it returns, where a 404 reaches: handed to a call (`console.log(`${init?.method} ${res.status}`)`),
 * or tested in an `if` whose branch goes on (`if (!res.ok) failures += 1`).
 */
function statusSeenIn(fn: ts.Node): boolean {
  let seen = false;
  forEachNode(fn, (n) => {
    if (seen || !ts.isPropertyAccessExpression(n) || !ts.isIdentifier(n.expression) || !/^(ok|status|statusCode)$/.test(n.name.text)) return;
    let statement: ts.Node = n;
    while (statement !== fn && !ts.isStatement(statement)) statement = statement.parent;
    if (statement === fn || !reachedByNotFound(statement, fn, n.expression.text)) return;
    if (ts.isExpressionStatement(statement)) seen = handedToCall(n, statement);
    else if (ts.isIfStatement(statement) && n.pos >= statement.expression.pos && n.end <= statement.expression.end) seen = notFoundMeets(statement.expression, n.expression.text) !== false && !endsTheCall(statement.thenStatement);
  });
  return seen;
}

/**
 * `for (const hook of this.onResponse) hook(res)`: a call in a wrapper, made for its effect, that is
 * handed the response its client answered, whole, where a 404 reaches (not a method of the response).
 */
function responseHandedOn(fn: WrapperFunction, transport: ts.CallExpression): ts.CallExpression | undefined {
  const response = responseVariable(fn, transport);
  if (!response) return undefined;
  let handed: ts.CallExpression | undefined;
  forEachNode(fn, (n) => {
    if (handed || !ts.isCallExpression(n) || n === transport || !n.arguments.some((a) => ts.isIdentifier(a) && a.text === response!.text)) return;
    if (ts.isPropertyAccessExpression(n.expression) && ts.isIdentifier(n.expression.expression) && n.expression.expression.text === response!.text) return;
    let statement: ts.Node = n;
    while (statement !== fn && !ts.isStatement(statement)) statement = statement.parent;
    // For its side effect (a hook, a logger, an event): a call whose answer is returned or kept is the answer's reading.
    const effect = ts.isExpressionStatement(statement) && unwrap(statement.expression) === n;
    if (effect && reachedByNotFound(statement, fn, response!.text)) handed = n;
  });
  return handed;
}

/** Whether a 404 may reach a statement: not in the branch of an `if` whose test a 404 fails. */
function reachedByNotFound(statement: ts.Node, fn: ts.Node, response: string): boolean {
  for (let n = statement; n !== fn; n = n.parent) {
    if (ts.isIfStatement(n.parent) && n === n.parent.thenStatement && notFoundMeets(n.parent.expression, response) === false) return false;
  }
  return true;
}

/** A read handed to a call (a logger, a counter), not to an error being made. */
function handedToCall(read: ts.Node, statement: ts.Node): boolean {
  for (let n = read.parent; n !== statement; n = n.parent) {
    if (ts.isNewExpression(n)) return false;
    if (ts.isCallExpression(n)) return true;
  }
  return false;
}

/** A branch that throws or returns: what it does with the status is the answer's, not a side effect. */
function endsTheCall(branch: ts.Statement): boolean {
  const last = ts.isBlock(branch) ? branch.statements.at(-1) : branch;
  return last !== undefined && (ts.isThrowStatement(last) || ts.isReturnStatement(last));
}

export const getByList: Transform = {
  name: 'get-by-list',
  description: 'v1 list-with-id then items[0] -> v2 Get; the not-found test reads the 404 (and error guards let it through)',
  apply(ctx) {
    /** Each migrated call, how it tells a missing record, and whether its not-found test was found. */
    // tested: where the first not-found test stands; read: where a first record is read with no test before it.
    const reads = new Map<V1Call, { missing: Missing; tested: number | undefined; read?: number }>();
    for (const call of ctx.calls) {
      if (call.operation !== 'get-by-list') continue;
      const throughReader = ctx.analysis.readerGets.get(call);
      if (throughReader) {
        readThroughReader(ctx, call, throughReader);
        noteResponseHooks(ctx, call);
        continue;
      }
      moveIdIntoPath(ctx, call);
      noteResponseHooks(ctx, call);
      const missing = missingBy(call, ctx.file.flow, (n) => ctx.analysis.text.declarationOf(n));
      if (missing.by === 'helper') {
        const start = missing.target.getStart(ctx.sf);
        ctx.edit(start, start, `${MISSING_HELPER}(`);
        ctx.edit(missing.target.end, missing.target.end, `${missing.missing ? `, ${missing.missing}` : ''})${ctx.file.flow.takesApart(call) ? asListOfOne(call) : ''}`);
        addHelper(ctx, MISSING_HELPER, missingHelper);
        // The stand-in answer of a missing record says 404: the program's own status tests let it through, as v1's 200 went.
        if (missing.response) letNotFoundThrough(ctx, call, { by: 'status', response: missing.response, status: `${missing.response.text}.status` }, Infinity);
      }
      reads.set(call, { missing, tested: undefined });
    }
    tagWrapperErrors(ctx);
    if (reads.size === 0) return;
    // `{ items: Group[] }` -> `Group`: only the list around the element goes, the element keeps its own edits;
    // a named list type (`GroupList`, declared elsewhere) gives way to its element's name.
    for (const [literal, element] of ctx.analysis.readOneTypes) {
      if (literal.getSourceFile() !== ctx.sf) continue;
      if (element.pos < literal.pos || element.end > literal.end) {
        ctx.replace(literal, element.getText());
        continue;
      }
      ctx.edit(literal.getStart(ctx.sf), element.getStart(ctx.sf), '');
      ctx.edit(element.end, literal.end, '');
    }
    const envelopeReads: [ts.PropertyAccessExpression, V1Call][] = [];
    for (const node of nodesOf(ctx.sf).of<ts.PropertyAccessExpression>(ts.SyntaxKind.PropertyAccessExpression)) {
      if (ctx.isClaimed(node.name)) continue;
      const shape = ctx.shapeOf(node.expression);
      const call = shape?.kind === 'envelope' ? shape.call : undefined;
      if (call && reads.has(call) && node.name.text === call.resource.v1.endpoints.list!.envelopeKey) envelopeReads.push([node, call]);
    }
    // The not-found tests first: a first record read after one needs no test of its own.
    for (const [node, call] of envelopeReads) {
      const read = reads.get(call)!;
      const check = emptinessCheck(node);
      if (!check || read.missing.by === 'none') continue;
      const test = read.missing.by === 'status' ? `${read.missing.status} ${check.missing ? '===' : '!=='} ${NOT_FOUND}` : `${ctx.textOf(node.expression)} ${check.missing ? '===' : '!=='} undefined`;
      ctx.edit(check.node.getStart(ctx.sf), check.node.end, test);
      ctx.claim(node.name);
      read.tested = Math.min(read.tested ?? Infinity, check.node.getStart(ctx.sf));
    }
    for (const [node, call] of envelopeReads) {
      if (ctx.isClaimed(node.name)) continue;
      const read = reads.get(call)!;
      const parent = node.parent;
      const first = firstElementBinding(node);
      if (first || (ts.isElementAccessExpression(parent) && parent.expression === node && ctx.textOf(parent.argumentExpression) === '0')) {
        // `const [repo] = body.items` -> `const repo = body`
        if (first) ctx.replace(first.pattern, first.name.text);
        const end = first ? node.end : parent.end;
        if (read.missing.by === 'status' && (read.tested === undefined || read.tested > node.pos)) {
          // No test before it: the first record of an empty list was undefined, and so is a 404's.
          const start = node.getStart(ctx.sf);
          ctx.edit(start, start, `(${read.missing.status} === ${NOT_FOUND} ? undefined : `);
          ctx.edit(node.expression.end, end, ')');
          read.read = Math.min(read.read ?? Infinity, start);
        } else {
          // `.items[0]` goes; what comes before it may hold other edits (the URL's).
          ctx.edit(node.expression.end, end, '');
        }
        ctx.claim(node.name);
        continue;
      }
      ctx.todo(node, `v2 Get has no ${node.name.text}: a ${call.resource.singular} that does not exist is a 404 (code 5), not an empty list`);
      ctx.claim(node.name);
    }
    // `const { items } = await res.json()` -> `const { items } = res.status === 404 ? { items: [] } : { items: [await res.json()] }`: v1's list of one, or of none.
    for (const [pattern, shape] of ctx.file.flow.destructured()) {
      const read = shape.kind === 'envelope' && shape.call ? reads.get(shape.call) : undefined;
      if (!read || read.missing.by !== 'status' || pattern.getSourceFile() !== ctx.sf || !listTakenOnly(pattern, shape.call!)) continue;
      const init = (pattern.parent as ts.VariableDeclaration).initializer!;
      const key = shape.call!.resource.v1.endpoints.list!.envelopeKey;
      const start = init.getStart(ctx.sf);
      ctx.edit(start, start, `${read.missing.status} === ${NOT_FOUND} ? { ${key}: [] } : { ${key}: [`);
      ctx.edit(init.end, init.end, '] }');
      read.read = Math.min(read.read ?? Infinity, start);
    }
    for (const [call, read] of reads) {
      const before = read.tested ?? read.read;
      if (read.missing.by === 'status' && before !== undefined) letNotFoundThrough(ctx, call, read.missing, before);
    }
  },
};
