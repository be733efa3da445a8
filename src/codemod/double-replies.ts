/**
 * What a test double answers, in the form its library writes it: the status and the body, and how
 * the reply is put together (so that a read-by-list stub answering an empty list can become a Get
 * stub answering 404). nock and MockAgent `.reply(status, body, ...)`, msw resolvers returning
 * `HttpResponse.json(body, init)`, fetch mocks resolving to a `Response` (also through a helper of
 * the test's own, `json(body, status)`), axios mocks resolving to `{ data: body }`.
 */
import { ts } from 'ts-morph';
import { functionOf, returnedExpressions, unwrap, type StaticText } from './static-text.js';
import { propertyOf } from './syntax.js';
import type { MockTarget, RouteLibrary } from './test-doubles.js';

export type ReplyForm =
  /** `.reply(status, body, headers)` of nock and MockAgent. */
  | { kind: 'arguments'; call: ts.CallExpression }
  /** `HttpResponse.json(body, init)`, `Response.json(body, init)`, `new Response(JSON.stringify(body), init)`. */
  | { kind: 'init'; call: ts.CallExpression | ts.NewExpression; init?: ts.ObjectLiteralExpression }
  /** msw 1: `res(ctx.status(404), ctx.json(body))`, the transformers `res` is given. */
  | { kind: 'transformers'; call: ts.CallExpression; json: ts.CallExpression }
  /** A function of the test that makes a response: `json(body, status)`. */
  | { kind: 'helper'; call: ts.CallExpression; statusIndex?: number }
  /** An axios response `{ data: body }`, resolved by a mock. */
  | { kind: 'axios'; object: ts.ObjectLiteralExpression }
  /** The body itself: what a mocked function of the program answers. */
  | { kind: 'value' }
  /** An entry of a JSON recording: `{ "status": 200, "body": ... }`, or the body alone. */
  | { kind: 'entry'; entry?: ts.ObjectLiteralExpression }
  /** A reply whose parts cannot be told apart here (`.reply((uri) => [200, body])`, `res(ctx.json(...))`). */
  | { kind: 'opaque'; why: string };

export interface Reply {
  /** The body as written (a function when the double computes it per request); absent when the reply has none. */
  body?: ts.Expression;
  /** The status as written; absent when implied. */
  status?: ts.Expression;
  /** The status: 200 when implied, undefined when known only at run time. */
  code: number | undefined;
  form: ReplyForm;
  /** Returned by a function the double runs per request: its status is not rewritten. */
  computed?: boolean;
}

function codeOf(status: ts.Expression | undefined): number | undefined {
  if (!status) return 200;
  const n = unwrap(status);
  return ts.isNumericLiteral(n) ? Number(n.text) : undefined;
}

/** The `.reply(...)` an interceptor's chain ends with. */
function replyCall(interceptor: ts.CallExpression): ts.CallExpression | undefined {
  for (let n: ts.Node = interceptor; ts.isPropertyAccessExpression(n.parent) && ts.isCallExpression(n.parent.parent); n = n.parent.parent) {
    if (n.parent.name.text.startsWith('reply')) return n.parent.name.text === 'reply' ? n.parent.parent : undefined;
  }
  return undefined;
}

function isFunction(e: ts.Expression | undefined): e is ts.ArrowFunction | ts.FunctionExpression {
  const n = e && unwrap(e);
  return Boolean(n && (ts.isArrowFunction(n) || ts.isFunctionExpression(n)));
}

/** nock and MockAgent: `.reply(status, body, ...)`, `.reply(status, (req) => body)`; a reply function answering the status too is opaque. */
function argumentsReply(interceptor: ts.CallExpression): Reply[] {
  const call = replyCall(interceptor);
  if (!call) return [{ code: undefined, form: { kind: 'opaque', why: 'it answers with something other than .reply(status, body)' } }];
  const [first, second] = call.arguments;
  if (isFunction(first)) return [{ code: undefined, form: { kind: 'opaque', why: 'its reply function answers the status and the body together' } }];
  return [{ ...(second ? { body: second } : {}), ...(first ? { status: first } : {}), code: codeOf(first), form: { kind: 'arguments', call } }];
}

const RESPONSE_MAKERS = /^(HttpResponse|Response)\.json$/;

/** `HttpResponse.json(body, init)`, `new Response(JSON.stringify(body), init)`: the body and status of a response made in place. */
function madeResponse(e: ts.Expression): Reply | undefined {
  const n = unwrap(e);
  const made = ts.isCallExpression(n) && RESPONSE_MAKERS.test(n.expression.getText());
  const constructed = ts.isNewExpression(n) && ts.isIdentifier(n.expression) && /^(HttpResponse|Response)$/.test(n.expression.text);
  if (!made && !constructed) return undefined;
  const [first, second] = n.arguments ?? [];
  const init = second && ts.isObjectLiteralExpression(unwrap(second)) ? (unwrap(second) as ts.ObjectLiteralExpression) : undefined;
  if (second && !init) return { code: undefined, form: { kind: 'opaque', why: 'its response options are built elsewhere' } };
  const status = init && propertyOf(init, 'status');
  const body = made ? first : first && stringified(first);
  if (first && !body) return { code: codeOf(status), ...(status ? { status } : {}), form: { kind: 'opaque', why: 'its body is not JSON written in place' } };
  return { ...(body ? { body } : {}), ...(status ? { status } : {}), code: codeOf(status), form: { kind: 'init', call: n as ts.CallExpression | ts.NewExpression, ...(init ? { init } : {}) } };
}

/** `JSON.stringify(x)` -> x. */
function stringified(e: ts.Expression): ts.Expression | undefined {
  const n = unwrap(e);
  return ts.isCallExpression(n) && n.expression.getText() === 'JSON.stringify' && n.arguments[0] ? n.arguments[0] : undefined;
}


/**
 * `json(body, status)` where the test's own `json` makes a response of a parameter: the argument
 * at the body's place is the body, the one at the status's place (if it takes one) the status.
 */
function helperResponse(e: ts.Expression, text: StaticText): Reply | undefined {
  const n = unwrap(e);
  if (!ts.isCallExpression(n)) return undefined;
  const fn = functionOf(n.expression, (x) => text.declarationOf(x));
  const returned = fn ? returnedExpressions(fn) : [];
  const made = returned.length === 1 ? madeResponse(returned[0]!) : undefined;
  if (!fn || !made || made.form.kind !== 'init') return undefined;
  const index = (x: ts.Expression | undefined) => {
    const p = x && unwrap(x);
    const d = p && ts.isIdentifier(p) ? text.declarationOf(p) : undefined;
    return d && ts.isParameter(d) ? fn.parameters.indexOf(d) : -1;
  };
  const bodyIndex = index(made.body);
  const statusIndex = index(made.status);
  if (bodyIndex < 0 || (made.status && statusIndex < 0)) return undefined;
  const body = n.arguments[bodyIndex];
  const status = statusIndex >= 0 ? n.arguments[statusIndex] : undefined;
  const fallback = statusIndex >= 0 ? fn.parameters[statusIndex]!.initializer : undefined;
  return { ...(body ? { body } : {}), ...(status ? { status } : {}), code: codeOf(status ?? fallback), form: { kind: 'helper', call: n, ...(statusIndex >= 0 ? { statusIndex } : {}) } };
}

/** `res(ctx.status(s), ctx.json(body))` (or `res.once(...)`) of an msw 1 resolver `(req, res, ctx) => ...`. */
function transformedResponse(e: ts.Expression, resolver: ts.ArrowFunction | ts.FunctionExpression): Reply | undefined {
  const [, res, ctx] = resolver.parameters.map((p) => (ts.isIdentifier(p.name) ? p.name.text : ''));
  const n = unwrap(e);
  if (!res || !ctx || !ts.isCallExpression(n) || !new RegExp(`^${res}(\\.once)?$`).test(n.expression.getText())) return undefined;
  const transformer = (name: string) => n.arguments.find((a): a is ts.CallExpression => ts.isCallExpression(a) && a.expression.getText() === `${ctx}.${name}`);
  const json = transformer('json');
  const status = transformer('status')?.arguments[0];
  if (!json) return { ...(status ? { status } : {}), code: codeOf(status), form: { kind: 'opaque', why: 'it answers no JSON' } };
  return { ...(json.arguments[0] ? { body: json.arguments[0] } : {}), ...(status ? { status } : {}), code: codeOf(status), form: { kind: 'transformers', call: n, json } };
}

/** What an msw resolver returns, branch by branch. */
function mswReplies(resolver: ts.Expression | undefined): Reply[] {
  if (!isFunction(resolver)) return [{ code: undefined, form: { kind: 'opaque', why: 'its resolver is defined elsewhere' } }];
  const fn = unwrap(resolver) as ts.ArrowFunction | ts.FunctionExpression;
  return answers(fn).map((e) => madeResponse(e) ?? transformedResponse(e, fn) ?? { code: undefined, form: { kind: 'opaque', why: `it answers ${e.getText().slice(0, 40)}` }, computed: true });
}

/** The expressions a function answers, through conditionals and `await`. */
function answers(fn: ts.ArrowFunction | ts.FunctionExpression | ts.FunctionDeclaration | ts.MethodDeclaration): ts.Expression[] {
  const out: ts.Expression[] = [];
  const add = (e: ts.Expression): void => {
    const n = unwrap(e);
    if (ts.isConditionalExpression(n)) {
      add(n.whenTrue);
      add(n.whenFalse);
    } else out.push(n);
  };
  for (const e of returnedExpressions(fn)) add(e);
  return out;
}

/** The replies of a route stub. */
export function readReplies(library: RouteLibrary, route: ts.CallExpression): Reply[] {
  if (library === 'msw') return mswReplies(route.arguments[1]);
  return argumentsReply(route);
}

/** What one value a mock gives stands for, by what the mock stands in for. */
function mockValue(e: ts.Expression, target: MockTarget, text: StaticText): Reply {
  let n = unwrap(e);
  // mockReturnValue(Promise.resolve(x)) gives what mockResolvedValue(x) gives.
  if (ts.isCallExpression(n) && n.expression.getText() === 'Promise.resolve' && n.arguments[0]) n = unwrap(n.arguments[0]);
  if (target.kind === 'fetch') return madeResponse(n) ?? helperResponse(n, text) ?? { code: undefined, form: { kind: 'opaque', why: `the response it gives is made where migrate-v2 cannot read it (${n.getText().slice(0, 40)})` } };
  if (target.kind === 'client') {
    if (!ts.isObjectLiteralExpression(n)) return { code: undefined, form: { kind: 'opaque', why: 'the axios response it gives is not written in place' } };
    const data = propertyOf(n, 'data');
    const status = propertyOf(n, 'status');
    return { ...(data ? { body: data } : {}), ...(status ? { status } : {}), code: codeOf(status), form: { kind: 'axios', object: n } };
  }
  return { body: n, code: 200, form: { kind: 'value' } };
}

/** The replies of a mock: the value it resolves to or returns, or what its implementation returns. */
export function readMockReplies(call: ts.CallExpression, target: MockTarget, text: StaticText): Reply[] {
  const verb = ts.isPropertyAccessExpression(call.expression) ? call.expression.name.text : 'fn';
  const given = call.arguments[0];
  if (!given) return [];
  if (!/Implementation/.test(verb) && verb !== 'fn') return [mockValue(given, target, text)];
  if (!isFunction(given)) return [{ code: undefined, form: { kind: 'opaque', why: 'its implementation is defined elsewhere' } }];
  return answers(unwrap(given) as ts.ArrowFunction).map((e) => ({ ...mockValue(e, target, text), computed: true }));
}
