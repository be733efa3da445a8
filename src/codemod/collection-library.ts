/**
 * lodash's and underscore's functions over a collection of records (`_.sortBy(groups, (g) => g.name)`,
 * `maxBy(identities, ...)` imported from 'lodash'): the data flow reads them as the array methods
 * they stand for, so what they give back and the callbacks they hand each record to keep the
 * records' kind, and their fields are renamed there too. lodash/fp takes the collection last: not read.
 */
import { ts } from 'ts-morph';
import type { StaticText } from './static-text.js';

const LIBRARY = /^(?:lodash(?:-es)?|underscore)$/;
/** `import sortBy from 'lodash/sortBy'`, `require('lodash.sortby')`: one function's own module. */
const ONE_FUNCTION = /^lodash(?:-es)?\/(\w+)(?:\.js)?$|^lodash\.(\w+)$/;

/** Functions giving some of the collection's records, in an array. */
const GIVES_ARRAY = new Set(['sortBy', 'orderBy', 'filter', 'reject', 'uniqBy', 'uniq', 'take', 'takeRight', 'drop', 'dropRight', 'compact', 'shuffle', 'sampleSize', 'initial', 'tail', 'rest', 'without', 'sortedUniqBy', 'takeWhile', 'dropWhile']);
/** Functions giving one of the collection's records. */
const GIVES_ELEMENT = new Set(['find', 'findLast', 'first', 'head', 'last', 'minBy', 'maxBy', 'sample', 'nth', 'detect', 'min', 'max']);
/** Functions giving the records by a key of each (an object used as an index). */
const GIVES_KEYED = new Set(['keyBy', 'indexBy']);
/** Functions giving their argument's copy, whatever it holds. */
const GIVES_COPY = new Set(['clone', 'cloneDeep']);
/** Functions giving no records at all: a count, a sum, a flag, an index. */
const GIVES_NO_RECORDS = new Set(['some', 'every', 'any', 'all', 'countBy', 'sumBy', 'meanBy', 'findIndex', 'findLastIndex']);
/** Functions that hand each record to their callbacks, as their first parameter. */
const EACH_RECORD = new Set([...GIVES_ARRAY, ...GIVES_ELEMENT, 'map', 'forEach', 'each', 'some', 'every', 'any', 'all', 'groupBy', 'keyBy', 'indexBy', 'countBy', 'partition', 'sumBy', 'meanBy', 'flatMap', 'findIndex', 'findLastIndex', 'collect', 'select']);

const KNOWN = [...EACH_RECORD, ...GIVES_COPY];

export type CollectionGives = 'array' | 'element' | 'keyed' | 'copy' | 'mapped' | 'other';

export interface CollectionCall {
  name: string;
  /** The collection (or, for a copy, the value) the function reads. */
  collection: ts.Expression;
  gives: CollectionGives;
  /** The callbacks that get each record as their first parameter (`sortBy`'s may come in an array). */
  callbacks: (ts.ArrowFunction | ts.FunctionExpression)[];
  /** Whether the flow follows all it gives: records as an array, an index or one, or none (`groupBy`'s object of arrays it does not). */
  followed: boolean;
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
  if (!name || !KNOWN.includes(name)) return undefined;
  const gives: CollectionGives = GIVES_ARRAY.has(name) ? 'array' : GIVES_ELEMENT.has(name) ? 'element' : GIVES_KEYED.has(name) ? 'keyed' : GIVES_COPY.has(name) ? 'copy' : name === 'map' || name === 'collect' ? 'mapped' : 'other';
  const isCallback = (e: ts.Expression): e is ts.ArrowFunction | ts.FunctionExpression => ts.isArrowFunction(e) || ts.isFunctionExpression(e);
  const callbacks = GIVES_COPY.has(name) ? [] : rest.flatMap((arg) => (isCallback(arg) ? [arg] : ts.isArrayLiteralExpression(arg) ? arg.elements.filter(isCallback) : []));
  return { name, collection, gives, callbacks, followed: gives !== 'other' || GIVES_NO_RECORDS.has(name) };
}
