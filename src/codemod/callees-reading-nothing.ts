/**
 * Calls that read no field of what they are handed by name: they print it, serialise it, compare it
 * whole, or hand it on where the data flow follows it (a Map, a copy, a list). A record or a list's
 * body handed to any other function the run does not see is read there by v1's names.
 */
import { ts } from 'ts-morph';
import type { Shape } from './data-flow.js';

/** Printing, serialising, converting, and the holders and copies the flow follows. */
const HARMLESS_CALLEES = /^(console\.\w+|JSON\.stringify|String|Number|Boolean|structuredClone|Object\.(keys|values|entries|fromEntries|assign|freeze|hasOwn)|Object\.prototype\.hasOwnProperty\.call|Array\.(from|isArray)|Promise\.\w+|(?:[\w$]+\.)+(push|unshift|includes|indexOf|join|concat|set|add|has|get|hasOwnProperty))$/;
/** React's hooks over a callback written in place: the records in their dependency list are compared by identity. */
const HOOKS_WITH_DEPENDENCIES = /^(React\.)?use(Memo|Callback|Effect|LayoutEffect|InsertionEffect)$/;
/** A test's `expect(value)` and its matchers compare values whole; they read no field by name. */
const EXPECTATION = /^expect(\(.*\))?(\.(not|resolves|rejects))*(\.to\w+)?$/s;

/** A function, by the text that names it, that reads no field of what it is handed by name (`String`, `console.log`, `expect`). */
export function harmlessCallee(callee: string): boolean {
  return HARMLESS_CALLEES.test(callee) || EXPECTATION.test(callee) || HOOKS_WITH_DEPENDENCIES.test(callee);
}

/** Whether a call reads no field of its arguments by name: by its callee, or as a push into a list the flow follows (`byGroup.get(key).push(record)`). */
export function readsNoFieldByName(call: ts.CallExpression, shapeOf: (e: ts.Expression) => Shape | undefined): boolean {
  if (harmlessCallee(call.expression.getText())) return true;
  return ts.isPropertyAccessExpression(call.expression) && /^(push|unshift)$/.test(call.expression.name.text) && shapeOf(call.expression.expression)?.kind === 'array';
}
