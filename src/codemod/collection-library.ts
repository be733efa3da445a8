/**
 * lodash's and underscore's functions over a collection of records (`_.sortBy(groups, (g) => g.name)`,
 * `maxBy(identities, ...)` imported from 'lodash'): the data flow reads them as the array methods
 * they stand for, so what they give back and the callbacks they hand each record to keep the
 * records' kind, and their fields are renamed there too. lodash/fp takes the collection last: not read.
 * p-map's `pMap(records, mapper, options)` is read as lodash's `map`.
 */
import { ts } from 'ts-morph';
import { unwrap, type StaticText } from './static-text.js';

const LIBRARY = /^(?:lodash(?:-es)?|underscore)$/;
/** A file that may call one of these: a cheap test of its text before any call is read. */
export const NAMES_A_LIBRARY = /\b(?:lodash|underscore|p-map)\b/;
/** Packages of one function over a collection, by the function of the table each stands for: `pMap(groups, mapper)` maps as `map` does, awaited. */
const ONE_FUNCTION_PACKAGES: Readonly<Record<string, string>> = { 'p-map': 'map' };
/** `import sortBy from 'lodash/sortBy'`, `require('lodash.sortby')`: one function's own module. */
const ONE_FUNCTION = /^lodash(?:-es)?\/(\w+)(?:\.js)?$|^lodash\.(\w+)$/;

/** Functions giving some of the collection's records, in an array. */
const GIVES_ARRAY = new Set(['sortBy', 'orderBy', 'filter', 'reject', 'uniqBy', 'uniq', 'take', 'takeRight', 'drop', 'dropRight', 'compact', 'shuffle', 'sampleSize', 'initial', 'tail', 'rest', 'without', 'sortedUniqBy', 'takeWhile', 'dropWhile', 'select']);
/** Functions giving one of the collection's records. */
const GIVES_ELEMENT = new Set(['find', 'findLast', 'first', 'head', 'last', 'minBy', 'maxBy', 'sample', 'nth', 'detect', 'min', 'max']);
/** Functions giving the records by a key of each (an object used as an index). */
const GIVES_KEYED = new Set(['keyBy', 'indexBy']);
/** Functions giving the records in groups, by a key of each: an object of arrays. */
const GIVES_GROUPS = new Set(['groupBy']);
/** Functions giving the records in arrays: `[passing, failing]`, chunks. */
const GIVES_ARRAYS = new Set(['partition', 'chunk']);
/** Functions giving a collection's values (an index's records, a grouping's arrays) as an array, or its `[key, value]` pairs. */
const GIVES_VALUES = new Set(['values']);
const GIVES_PAIRS = new Set(['toPairs', 'entries']);
/** Functions giving their argument's copy, whatever it holds. */
const GIVES_COPY = new Set(['clone', 'cloneDeep']);
/** Functions giving no records at all: a count, a sum, a flag, an index. */
const GIVES_NO_RECORDS = new Set(['some', 'every', 'any', 'all', 'countBy', 'sumBy', 'meanBy', 'findIndex', 'findLastIndex', 'size', 'isEmpty', 'keys']);
/**
 * Functions that hand each member to their callbacks, as their first parameter: each record of an
 * array, each value of an object (an index's record, a grouping's array).
 */
const EACH_RECORD = new Set([...GIVES_ARRAY, ...GIVES_ELEMENT, ...GIVES_NO_RECORDS, ...GIVES_KEYED, ...GIVES_GROUPS, ...GIVES_ARRAYS, 'map', 'mapValues', 'forEach', 'each', 'flatMap', 'collect']);

/** Functions giving each record's field that a text names: `_.map(bindings, 'group')`, underscore's `_.pluck`. */
const PLUCKS = new Set(['map', 'collect', 'pluck']);

const KNOWN = [...EACH_RECORD, ...GIVES_COPY, ...GIVES_VALUES, ...GIVES_PAIRS, 'pluck'];

/** `mapped`: an array of what the callback returns (`flatMapped`: flattened once); `mappedValues`: an object of it, by the same keys (`mapValues`). */
export type CollectionGives = 'array' | 'element' | 'keyed' | 'groups' | 'arrays' | 'values' | 'pairs' | 'copy' | 'mapped' | 'flatMapped' | 'mappedValues' | 'other';

function givesOf(name: string): CollectionGives {
  if (GIVES_ARRAY.has(name)) return 'array';
  if (GIVES_ELEMENT.has(name)) return 'element';
  if (GIVES_KEYED.has(name)) return 'keyed';
  if (GIVES_GROUPS.has(name)) return 'groups';
  if (GIVES_ARRAYS.has(name)) return 'arrays';
  if (GIVES_VALUES.has(name)) return 'values';
  if (GIVES_PAIRS.has(name)) return 'pairs';
  if (GIVES_COPY.has(name)) return 'copy';
  if (name === 'map' || name === 'collect' || name === 'pluck') return 'mapped';
  if (name === 'flatMap') return 'flatMapped';
  if (name === 'mapValues') return 'mappedValues';
  return 'other';
}

export interface CollectionCall {
  name: string;
  /** The collection (or, for a copy, the value) the function reads. */
  collection: ts.Expression;
  gives: CollectionGives;
  /** The callbacks that get each record as their first parameter (`sortBy`'s may come in an array). */
  callbacks: (ts.ArrowFunction | ts.FunctionExpression)[];
  /** The field each record gives, where a text names it in place of a callback (`_.map(bindings, 'group')`). */
  pluck?: string;
  /** Whether the flow follows all it gives: records as an array, an index, groups or one, or none. */
  followed: boolean;
  /** Whether the table knows the function, and so which callbacks get each record (an unknown one's are not followed). */
  known: boolean;
}

/** The library's name for a call's function, when the callee is one of lodash's or underscore's, as imported or required. */
function libraryFunction(callee: ts.Expression, text: StaticText): string | undefined {
  if (ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression)) {
    const from = moduleOf(callee.expression, text);
    return from && LIBRARY.test(from.module) && from.whole ? callee.name.text : undefined;
  }
  if (!ts.isIdentifier(callee)) return undefined;
  const from = moduleOf(callee, text);
  if (!from) return undefined;
  const single = ONE_FUNCTION_PACKAGES[from.module];
  if (single) return from.whole || from.imported === 'default' ? single : undefined;
  if (LIBRARY.test(from.module)) return from.whole ? undefined : from.imported;
  const own = ONE_FUNCTION.exec(from.module);
  // The per-function packages are named in lower case: lodash.sortby.
  return own && from.whole ? (own[1] ?? KNOWN.find((known) => known.toLowerCase() === own[2])) : undefined;
}

interface Imported {
  module: string;
  /** The module itself (a default, namespace or `require` of it), not one named export of it. */
  whole: boolean;
  /** The exported name, or the local one for a whole module. */
  imported: string;
}

/** Where a name comes from: an import, `const x = require('...')`, `const { x } = require('...')`, or `const { x } = _`. */
function moduleOf(name: ts.Identifier, text: StaticText): Imported | undefined {
  const declaration = text.importOf(name) ?? text.declarationOf(name);
  if (!declaration) return undefined;
  if (ts.isImportClause(declaration) || ts.isNamespaceImport(declaration) || ts.isImportSpecifier(declaration)) {
    const statement = ts.isImportSpecifier(declaration) ? declaration.parent.parent.parent : ts.isNamespaceImport(declaration) ? declaration.parent.parent : declaration.parent;
    const module = ts.isStringLiteral(statement.moduleSpecifier) ? statement.moduleSpecifier.text : undefined;
    if (!module) return undefined;
    if (ts.isImportSpecifier(declaration)) return { module, whole: false, imported: (declaration.propertyName ?? declaration.name).text };
    return { module, whole: true, imported: name.text };
  }
  const variable = ts.isBindingElement(declaration) ? declaration.parent.parent : declaration;
  if (!ts.isVariableDeclaration(variable) || !variable.initializer) return undefined;
  const init = variable.initializer;
  // `const { keyBy } = _`: a function taken from the whole module.
  if (ts.isBindingElement(declaration) && ts.isIdentifier(init)) {
    const whole = moduleOf(init, text);
    const key = declaration.propertyName ?? declaration.name;
    return whole?.whole && ts.isIdentifier(key) ? { module: whole.module, whole: false, imported: key.text } : undefined;
  }
  const required = ts.isCallExpression(init) && ts.isIdentifier(init.expression) && init.expression.text === 'require' && init.arguments[0] && ts.isStringLiteral(init.arguments[0]) ? init.arguments[0].text : undefined;
  if (!required) return undefined;
  if (ts.isBindingElement(declaration)) {
    const key = declaration.propertyName ?? declaration.name;
    return ts.isIdentifier(key) ? { module: required, whole: false, imported: key.text } : undefined;
  }
  return { module: required, whole: true, imported: name.text };
}

/** A call of lodash's or underscore's over a collection, with what it gives and the callbacks it hands records to. */
export function collectionCall(call: ts.CallExpression, text: StaticText): CollectionCall | undefined {
  const [collection, ...rest] = call.arguments;
  if (!collection || ts.isSpreadElement(collection)) return undefined;
  const name = libraryFunction(call.expression, text);
  if (!name) return undefined;
  // A function of the library this table does not know: what it does with the records is not followed.
  if (!KNOWN.includes(name)) return { name, collection, gives: 'other', callbacks: [], followed: false, known: false };
  const gives = givesOf(name);
  const isCallback = (e: ts.Expression): e is ts.ArrowFunction | ts.FunctionExpression => ts.isArrowFunction(e) || ts.isFunctionExpression(e);
  const callbacks = GIVES_COPY.has(name) ? [] : rest.flatMap((arg) => (isCallback(arg) ? [arg] : ts.isArrayLiteralExpression(arg) ? arg.elements.filter(isCallback) : []));
  const iteratee = rest[0] && unwrap(rest[0]);
  const pluck = PLUCKS.has(name) && iteratee && ts.isStringLiteralLike(iteratee) ? { pluck: iteratee.text } : {};
  return { name, collection, gives, callbacks, ...pluck, followed: gives !== 'other' || GIVES_NO_RECORDS.has(name), known: true };
}
