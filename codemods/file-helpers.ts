/**
 * The small helpers written into a migrated file, not imported: a reviewer reads them there.
 *
 * Page helpers, for a file that reads every record of a list: v1 answered them all at once, v2
 * answers a page at a time. Each asks for the largest pages the contract allows until
 * `nextPageToken` is empty, and answers what the original call answered (a body, a fetch
 * Response, an axios, undici or got response) holding every record, so that the code after
 * the call stays as it was.
 *
 * The missing-record helper, for a read of one record through a client that throws on an error
 * status (axios, got, ky): v1 answered a missing record with an empty list, v2 answers 404. It
 * turns that 404 into the value the code now tests for "no record".
 */
import type { ts } from 'ts-morph';
import type { TransformContext } from '../src/codemod/transform.js';
import { ENVELOPE, GRPC_CODES, LIST_CONTRACT, LIST_PARAMS, uidField } from '../src/contract/index.js';

import type { PageKind } from '../src/codemod/answers.js';
import { FIRST_PAGE } from '../src/codemod/paging.js';
import { awaitsItself } from '../src/codemod/syntax.js';

export const PAGE_HELPER_NAMES: Record<PageKind, string> = {
  body: 'everyPage',
  response: 'everyPageResponse',
  axios: 'everyAxiosPage',
  undici: 'everyRequestPage',
  got: 'everyGotPage',
  'ofetch-raw': 'everyRawPage',
};

/**
 * What opens the page helper's call around a request: `everyPage((page) => `, with an async arrow
 * where the request awaits (`check(await fetch(url))`, a URL built with `await`), and awaited where
 * the request gave a value, not a promise (`awaitIt`).
 */
export function pageCallOpening(kind: PageKind, request: ts.Node, page: string, awaitIt = false): string {
  return `${awaitIt ? 'await ' : ''}${PAGE_HELPER_NAMES[kind]}(${awaitsItself(request) ? 'async ' : ''}(${page}) => `;
}

const FIRST = FIRST_PAGE;
const NEXT = (token: string) => `\`${FIRST}&${LIST_PARAMS.pageToken}=\${encodeURIComponent(${token})}\``;
const DOC = `// migrate-v2: v2 lists answer a page at a time (v1 answered every record at once); this reads every page, ${LIST_CONTRACT.pageSize.max} records at a time, and answers as one.`;
/**
 * A page's parsed body. The token is named, not read through the index signature, so that a project
 * built with `noPropertyAccessFromIndexSignature` compiles the helper.
 */
const PAGE_BODY = `{ ${ENVELOPE.nextPageToken}?: string; [key: string]: any }`;
/** What the response helper reads of a fetch Response. */
const FETCH_RESPONSE = '{ ok: boolean; status: number; json(): Promise<unknown> }';
const WHOLE_RESPONSE = "new Response(JSON.stringify(all), { status: res.status, headers: { 'content-type': 'application/json' } })";

/** `expr` cast to a page's body; `bare` where TypeScript's `as` needs no parentheses around it. */
const asBody = (expr: string, bare = false): [ts: string, js: string] => [`${bare ? expr : `(${expr})`} as ${PAGE_BODY}`, `/** @type {${PAGE_BODY}} */ (${expr})`];

interface Parts {
  signature: [ts: string, js: string];
  /** The JavaScript helper's JSDoc, so that a checked script (`// @ts-check`, `checkJs`) types its parameters as the TypeScript one does. */
  jsdoc: string[];
  /** Statements that get `res` for one page and return early on an error answer. */
  fetchPage: string[];
  /** The expression of the page's parsed body. */
  body: [ts: string, js: string];
  /** What is returned at the end, with `all` the body holding every record. */
  answer: [ts: string, js: string];
}

const PARTS: Record<PageKind, Parts> = {
  body: {
    signature: ['<T>(getPage: (page: string) => Promise<T>, key: string): Promise<T>', '(getPage, key)'],
    jsdoc: ['@template T', '@param {(page: string) => Promise<T>} getPage', '@param {string} key', '@returns {Promise<T>}'],
    fetchPage: [],
    body: asBody('await getPage(page)'),
    answer: ['all as T', '/** @type {T} */ (all)'],
  },
  response: {
    // Generic, not the global Response: a fetch of the undici package answers its own Response class.
    signature: [`<R extends ${FETCH_RESPONSE}>(getPage: (page: string) => Promise<R>, key: string): Promise<R>`, '(getPage, key)'],
    jsdoc: [`@template {${FETCH_RESPONSE}} R`, '@param {(page: string) => Promise<R>} getPage', '@param {string} key', '@returns {Promise<R>}'],
    fetchPage: ['const res = await getPage(page);', 'if (!res.ok) return res;'],
    // Under Node's own types (undici-types) res.json() is Promise<unknown>; under the DOM lib, Promise<any>.
    body: asBody('await res.json()'),
    answer: [`${WHOLE_RESPONSE} as unknown as R`, `/** @type {R} */ (/** @type {unknown} */ (${WHOLE_RESPONSE}))`],
  },
  axios: {
    signature: ['<R extends { data: unknown }>(getPage: (page: string) => Promise<R>, key: string): Promise<R>', '(getPage, key)'],
    jsdoc: ['@template {{ data: unknown }} R', '@param {(page: string) => Promise<R>} getPage', '@param {string} key', '@returns {Promise<R>}'],
    fetchPage: ['const res = await getPage(page);'],
    body: asBody('res.data', true),
    answer: ['{ ...res, data: all }', '{ ...res, data: all }'],
  },
  undici: {
    signature: ['<R extends { statusCode: number; body: { json(): Promise<unknown> } }>(getPage: (page: string) => Promise<R>, key: string): Promise<R>', '(getPage, key)'],
    jsdoc: ['@template {{ statusCode: number; body: { json(): Promise<unknown> } }} R', '@param {(page: string) => Promise<R>} getPage', '@param {string} key', '@returns {Promise<R>}'],
    fetchPage: ['const res = await getPage(page);', 'if (res.statusCode >= 300) return res;'],
    body: asBody('await res.body.json()'),
    answer: ['{ ...res, body: { json: async () => all, text: async () => JSON.stringify(all) } } as unknown as R', '/** @type {R} */ (/** @type {unknown} */ ({ ...res, body: { json: async () => all, text: async () => JSON.stringify(all) } }))'],
  },
  // got's response holds the body parsed (responseType 'json') or as text; the answer keeps the form.
  got: {
    signature: ['<R extends { statusCode: number; body: unknown }>(getPage: (page: string) => Promise<R>, key: string): Promise<R>', '(getPage, key)'],
    jsdoc: ['@template {{ statusCode: number; body: unknown }} R', '@param {(page: string) => Promise<R>} getPage', '@param {string} key', '@returns {Promise<R>}'],
    fetchPage: ['const res = await getPage(page);', 'if (res.statusCode >= 300) return res;'],
    body: asBody("typeof res.body === 'string' ? JSON.parse(res.body) : res.body"),
    answer: ["{ ...res, body: typeof res.body === 'string' ? JSON.stringify(all) : all } as R", "/** @type {R} */ ({ ...res, body: typeof res.body === 'string' ? JSON.stringify(all) : all })"],
  },
  // ofetch's `.raw` answers a fetch Response (its getters do not spread) with the parsed body in `_data`; it throws on an error status.
  'ofetch-raw': {
    signature: ['<R extends { _data?: unknown }>(getPage: (page: string) => Promise<R>, key: string): Promise<R>', '(getPage, key)'],
    jsdoc: ['@template {{ _data?: unknown }} R', '@param {(page: string) => Promise<R>} getPage', '@param {string} key', '@returns {Promise<R>}'],
    fetchPage: ['const res = await getPage(page);'],
    body: asBody('res._data', true),
    answer: ['Object.assign(res, { _data: all })', 'Object.assign(res, { _data: all })'],
  },
};

/** The helper's source, for a TypeScript file or a JavaScript one, with the file's line ending. */
export function pageHelper(kind: PageKind, name: string, typed: boolean, eol: string): string {
  const p = PARTS[kind];
  const t = typed ? 0 : 1;
  const lines = [
    DOC,
    ...(typed ? [] : jsdoc(p.jsdoc)),
    `async function ${name}${p.signature[t]} {`,
    typed ? '  const records: unknown[] = [];' : '  /** @type {unknown[]} */ const records = [];',
    typed ? '  let firstUid: unknown;' : '  /** @type {unknown} */ let firstUid;',
    `  for (let page = '${FIRST}'; ; ) {`,
    ...p.fetchPage.map((l) => `    ${l}`),
    `    const body = ${p.body[t]};`,
    // A client that drops the page parameters (a wrapper that sets the whole query) gets the first
    // page again and again, each with a fresh token: a first record seen twice stops it, never a loop.
    `    const uid = body[key]?.[0]?.${uidField.v2};`,
    "    if (uid !== undefined && uid === firstUid) throw new Error('v2 answered the first page again: the page parameters did not reach the server');",
    '    if (firstUid === undefined) firstUid = uid;',
    // An empty list may leave its key out (proto3 JSON omits empty repeated fields).
    `    records.push(...(body[key] ?? []));`,
    `    if (!body.${ENVELOPE.nextPageToken}) {`,
    `      const all = { ...body, [key]: records };`,
    `      return ${p.answer[t]};`,
    '    }',
    `    page = ${NEXT(`body.${ENVELOPE.nextPageToken}`)};`,
    '  }',
    '}',
  ];
  return lines.join(eol);
}

export const MISSING_HELPER = 'unlessMissing';

const NOT_FOUND = GRPC_CODES.NOT_FOUND.http;

/** `unlessMissing(request, missing)`: the request's value, or `missing` when the record does not exist (404). */
export function missingHelper(typed: boolean, eol: string): string {
  const lines = typed
    ? [
        `async function ${MISSING_HELPER}<R>(request: Promise<R>, missing?: unknown): Promise<R> {`,
        '  try {',
        '    return await request;',
        '  } catch (error) {',
        '    const failed = error as { status?: number; statusCode?: number; response?: { status?: number; statusCode?: number } };',
        `    if ((failed.status ?? failed.statusCode ?? failed.response?.status ?? failed.response?.statusCode) === ${NOT_FOUND}) return missing as R;`,
        '    throw error;',
        '  }',
        '}',
      ]
    : [
        ...jsdoc(['@template R', '@param {Promise<R>} request', '@param {unknown} [missing]', '@returns {Promise<R>}']),
        `async function ${MISSING_HELPER}(request, missing) {`,
        '  try {',
        '    return await request;',
        '  } catch (error) {',
        '    const failed = /** @type {any} */ (error);',
        `    if ((failed?.status ?? failed?.statusCode ?? failed?.response?.status ?? failed?.response?.statusCode) === ${NOT_FOUND}) return /** @type {R} */ (missing);`,
        '    throw error;',
        '  }',
        '}',
      ];
  return [`// migrate-v2: v1 answered a missing record with an empty list; v2 answers ${NOT_FOUND}, which this client throws (its error carries the status). This answers it as "no record".`, ...lines].join(eol);
}

/** A JSDoc block of the tags given. */
function jsdoc(tags: readonly string[]): string[] {
  return ['/**', ...tags.map((tag) => ` * ${tag}`), ' */'];
}

/** Whether a file is TypeScript (its helpers and edits may carry types). */
export function isTyped(sf: { fileName: string }): boolean {
  return !/\.[cm]?jsx?$/.test(sf.fileName);
}

/** Writes a helper at the end of the file, once: a file that already has it (an earlier run) keeps its own. */
export function addHelper(ctx: TransformContext, name: string, text: (typed: boolean, eol: string) => string): void {
  if (ctx.helpers.has(name) || new RegExp(`\\bfunction ${name}\\b`).test(ctx.sf.text)) return;
  ctx.helpers.add(name);
  const eol = ctx.source.eol;
  const end = ctx.sf.text.length;
  const gap = ctx.sf.text.endsWith('\n') ? eol : eol + eol;
  ctx.edit(end, end, `${gap}${text(isTyped(ctx.sf), eol)}${eol}`);
}

export const LIST_KEY_HELPER = 'listKey';
export const WITH_PAGE_HELPER = 'withPage';

/** `listKey(path)`: the key a v2 list names its records by, for a function handed lists of every kind. */
export function listKeyHelper(typed: boolean, eol: string): string {
  return [
    "// migrate-v2: a v2 list names its records after the collection (`groups`, `roleBindings`), the last segment of the list's path; v1 named them all `items`.",
    ...(typed ? [] : jsdoc(['@param {string} path', '@returns {string}'])),
    `function ${LIST_KEY_HELPER}(path${typed ? ': string' : ''})${typed ? ': string' : ''} {`,
    typed ? "  return path.split('?')[0]!.split('/').pop()!;" : "  return /** @type {string} */ (/** @type {string} */ (path.split('?')[0]).split('/').pop());",
    '}',
  ].join(eol);
}

/**
 * `withPage(url, page)`: a URL whose query is known only at run time, with the page parameters
 * added; a URL object stays one, for a client that takes only URL objects (`getJson(url: URL)`).
 */
export function withPageHelper(typed: boolean, eol: string): string {
  return [
    '// migrate-v2: adds the page parameters to a URL whose query is known only at run time.',
    ...(typed ? [] : jsdoc(['@template {string | URL} U', '@param {U} url', '@param {string} page', '@returns {U}'])),
    `function ${WITH_PAGE_HELPER}${typed ? '<U extends string | URL>' : ''}(url${typed ? ': U' : ''}, page${typed ? ': string' : ''})${typed ? ': U' : ''} {`,
    '  if (url instanceof URL) {',
    '    const paged = new URL(url);',
    // forEach, not for...of: a lib without dom.iterable gives URLSearchParams no iterator.
    '    new URLSearchParams(page).forEach((value, key) => paged.searchParams.set(key, value));',
    typed ? '    return paged as U;' : '    return /** @type {U} */ (paged);',
    '  }',
    '  const text = String(url);',
    typed ? "  return `${text}${text.includes('?') ? '&' : '?'}${page}` as U;" : "  return /** @type {U} */ (`${text}${text.includes('?') ? '&' : '?'}${page}`);",
    '}',
  ].join(eol);
}
