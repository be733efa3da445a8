/**
 * `/iam/v1/` -> `/iam/v2beta1/` (and `/registry/`, `/vulnerabilities/`), with the collection
 * spellings that changed (`rolebindings` -> `roleBindings`), in the literals of the calls that
 * migrate: call arguments, constants, endpoint tables, `new URL(path, base)`, axios `baseURL`.
 * A constant shared with a call that stays on v1 gets a v1 copy for it. Every call that does not
 * migrate, and every v1 path no recognised call reads, gets a note and keeps its v1 path.
 */
import { ts } from 'ts-morph';
import type { Transform, TransformContext } from '../src/codemod/transform.js';
import { isPathLiteral, unwrap, type PathLiteral } from '../src/codemod/static-text.js';
import { v2CopyText, type PathCopy } from '../src/codemod/call-plan.js';
import { changesInWords, endsWithDomain, endsWithV1Prefix, hasV1Path, pluralWords, renamedCollections, resourceOfPath, V1_SEGMENT } from '../src/contract/index.js';
import { nodesOf } from './helpers.js';
import { calleeOf, placeIn } from '../src/codemod/places.js';
import { handedAsWritten } from '../src/codemod/analysis.js';
import { importedModule, recognise } from '../src/codemod/v1-calls.js';

function insertCopy(ctx: TransformContext, copy: PathCopy): void {
  const d = copy.declaration;
  if (ts.isPropertyAssignment(d)) {
    const indent = /[ \t]*$/.exec(ctx.sf.text.slice(0, d.getStart(ctx.sf)))![0];
    ctx.edit(d.end, d.end, `,${ctx.source.eol}${indent}${copy.name}: ${copy.text}`);
  } else {
    const statement = d.parent.parent;
    const indent = /[ \t]*$/.exec(ctx.sf.text.slice(0, statement.getStart(ctx.sf)))![0];
    const keyword = d.parent.flags & ts.NodeFlags.Const ? 'const' : 'let';
    ctx.edit(statement.end, statement.end, `${ctx.source.eol}${indent}${keyword} ${copy.name} = ${copy.text};`);
  }
  for (const ref of copy.redirect) ctx.replace(ts.isPropertyAccessExpression(ref.node) ? ref.node.name : ref.node, copy.name);
}

function alsoReadUnfollowed(copyName: string): string {
  return `this v1 path is also read where migrate-v2 cannot follow, so it stays on v1; the migrated calls use ${copyName}`;
}

/**
 * `const IAM = '/iam/v1'` followed by the `IAM_V2` (or a table's `groupsV2`) a run made for the
 * calls it migrated (insertCopy): the constant and the copy's name, found by the copy's text.
 */
function splitEarlier(literal: PathLiteral): { holder: ts.Node; copy: string } | undefined {
  let holder: ts.Node = literal.parent;
  while (ts.isTemplateSpan(holder) || ts.isTemplateExpression(holder) || ts.isAsExpression(holder) || ts.isParenthesizedExpression(holder) || ts.isSatisfiesExpression(holder)) holder = holder.parent;
  if ((!ts.isVariableDeclaration(holder) && !ts.isPropertyAssignment(holder)) || !holder.initializer) return undefined;
  const siblings: readonly ts.Node[] = ts.isPropertyAssignment(holder) ? holder.parent.properties : ts.isVariableStatement(holder.parent.parent) && (ts.isSourceFile(holder.parent.parent.parent) || ts.isBlock(holder.parent.parent.parent)) ? holder.parent.parent.parent.statements : [];
  const own = ts.isPropertyAssignment(holder) ? holder : holder.parent.parent;
  const next = siblings[siblings.indexOf(own) + 1];
  const copy = next && (ts.isPropertyAssignment(next) ? next : ts.isVariableStatement(next) && next.declarationList.declarations.length === 1 ? next.declarationList.declarations[0] : undefined);
  return copy && ts.isIdentifier(copy.name) && copy.initializer?.getText() === v2CopyText(holder.initializer, literal) ? { holder, copy: copy.name.text } : undefined;
}

/** `.../iam/${version}/groups` where `version` is a parameter or variable that defaults to 'v1'. */
function versionChosenAtRunTime(ctx: TransformContext): PathLiteral[] {
  const out: PathLiteral[] = [];
  for (const node of nodesOf(ctx.sf).of<ts.TemplateExpression>(ts.SyntaxKind.TemplateExpression)) {
    const pieces = [node.head, ...node.templateSpans.map((s) => s.literal)];
    node.templateSpans.forEach((span, i) => {
      if (!endsWithDomain(pieces[i]!.text) || !ts.isIdentifier(span.expression)) return;
      const d = ctx.analysis.text.declarationOf(span.expression);
      const init = d && (ts.isParameter(d) || ts.isVariableDeclaration(d)) ? d.initializer : undefined;
      if (init && ts.isStringLiteralLike(init) && init.text === V1_SEGMENT) out.push(pieces[i]!);
    });
  }
  return out;
}

function someLiteral(node: ts.Node, test: (l: PathLiteral) => boolean): boolean {
  return (isPathLiteral(node) && test(node)) || (ts.forEachChild(node, (child) => someLiteral(child, test) || undefined) ?? false);
}

/** `ENDPOINTS[kind]` or `Object.entries(ENDPOINTS)` in this file, where a path literal is a member of the const table ENDPOINTS. */
function tableReadByKey(ctx: TransformContext, literal: ts.Node): string | undefined {
  const member = literal.parent;
  if (!ts.isPropertyAssignment(member) || member.initializer !== literal) return undefined;
  let holder: ts.Node = member.parent.parent;
  while (ts.isAsExpression(holder) || ts.isSatisfiesExpression(holder) || ts.isParenthesizedExpression(holder)) holder = holder.parent;
  if (!ts.isVariableDeclaration(holder) || !ts.isIdentifier(holder.name)) return undefined;
  const name = holder.name.text;
  for (const id of nodesOf(ctx.sf).of<ts.Identifier>(ts.SyntaxKind.Identifier)) {
    if (id.text !== name || id === holder.name || ctx.analysis.text.declarationOf(id) !== holder) continue;
    const read = id.parent;
    if (ts.isElementAccessExpression(read) && read.expression === id && !ts.isStringLiteralLike(read.argumentExpression)) return `\`${read.getText()}\``;
    if (ts.isCallExpression(read) && /^Object\.(keys|values|entries)$/.test(read.expression.getText()) && read.arguments[0] === id) return `\`${read.getText()}\``;
  }
  return undefined;
}

/** `fetchList('/iam/v1/groups', GroupSchema)`: a path handed to a function of the program that makes a request (fetch, axios...) but is no wrapper migrate-v2 knows. */
function handedToFunction(ctx: TransformContext, literal: ts.Node): string | undefined {
  const call = handedAsWritten(literal);
  return call && ctx.analysis.callsRequestingFunction(call) ? call.expression.getText(ctx.sf) : undefined;
}

/** A literal given to the variable an unplaced call takes its URL from (`url = `${BASE}/iam/v1/...``): that call's note covers it. */
function urlOfUnplaced(ctx: TransformContext, literal: ts.Node): boolean {
  const declarationOf = (n: ts.Node) => ctx.analysis.text.declarationOf(n);
  const urls = new Set(ctx.file.unplaced.flatMap((u) => (u.arguments[0] && ts.isIdentifier(unwrap(u.arguments[0])) ? [declarationOf(unwrap(u.arguments[0]))] : [])));
  for (let n: ts.Node = literal; !ts.isStatement(n) && !ts.isSourceFile(n); n = n.parent) {
    if (ts.isVariableDeclaration(n) && urls.has(n)) return true;
    if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isIdentifier(n.left) && urls.has(declarationOf(n.left))) return true;
  }
  return false;
}

export const paths: Transform = {
  name: 'paths',
  description: 'v1 path prefixes to v2beta1, with the collection spellings that changed, for the calls that migrate',
  apply(ctx) {
    const plan = ctx.analysis.plan;
    for (const call of ctx.file.calls) {
      const decision = plan.decisions.get(call)!;
      if (decision.why) ctx.todo(call.call, decision.why);
    }
    for (const copy of plan.copies) if (copy.declaration.getSourceFile() === ctx.sf) insertCopy(ctx, copy);
    for (const [holder, copyName] of plan.unfollowed) if (holder.getSourceFile() === ctx.sf) ctx.todo(holder, alsoReadUnfollowed(copyName));
    for (const [literal, text] of plan.rewritesIn(ctx.sf)) if (!ctx.isClaimed(literal)) ctx.replace(literal, text);
    for (const [use, text] of plan.baseRewrites) if (use.getSourceFile() === ctx.sf && !ctx.isClaimed(use)) ctx.replace(use, text);
    const runtimeCollection = (l: PathLiteral) => (ts.isTemplateHead(l) || ts.isTemplateMiddle(l)) && endsWithV1Prefix(l.text);
    for (const call of ctx.file.unplaced) {
      // A collection chosen at run time gets its own note below.
      if (call.arguments[0] && someLiteral(call.arguments[0], runtimeCollection)) continue;
      ctx.todo(call, ctx.file.unplacedWhy?.get(call) ?? 'a v1 call the migration contract does not describe (method or path): it stays on v1; migrate it by hand');
    }
    for (const literal of versionChosenAtRunTime(ctx)) {
      ctx.todo(literal, `the API version in this path is a parameter that defaults to '${V1_SEGMENT}': v2beta1 differs in more than the version (collection spellings, list keys, field names, pages), so its calls stay on v1; migrate them by hand`);
    }
    for (const literal of ctx.analysis.strayLiterals(ctx.sf)) {
      if (runtimeCollection(literal)) {
        const spellings = renamedCollections().map(([v1, v2]) => `${v1} as ${v2}`).join(', ');
        ctx.todo(literal, `the collection in this v1 path is chosen at run time, so it stays on v1: v2beta1 spells ${spellings}; migrate it by hand`);
      } else if (!ctx.file.unplaced.some((u) => literal.pos >= u.pos && literal.end <= u.end) && !urlOfUnplaced(ctx, literal)) {
        // The run that split it noted why it stays; its calls read the copy now.
        const split = splitEarlier(literal);
        if (split) {
          ctx.todo(split.holder, alsoReadUnfollowed(split.copy));
          continue;
        }
        const byKey = tableReadByKey(ctx, literal);
        const kept = byKey ? undefined : ctx.analysis.keptByConstructor(literal);
        if (kept) {
          ctx.todo(literal, `this v1 path is handed to the constructor of ${kept.owner}, which keeps it in this.${kept.field} for ${kept.readers.join(', ')} to request; migrate-v2 does not follow a path through an object's field, so those requests stay on v1: migrate ${kept.owner} with the classes and calls that hand it paths by hand ${checklist(literal)}`);
          continue;
        }
        const handedTo = byKey ? undefined : handedToFunction(ctx, literal);
        if (handedTo) {
          ctx.todo(literal, `this v1 path is handed to ${handedTo}(), a function of this program that requests it in a form migrate-v2 does not migrate as a request wrapper, so it stays on v1: migrate ${handedTo}() with its callers by hand ${checklist(literal)}`);
          continue;
        }
        const exported = byKey ? undefined : commonJsExport(literal);
        if (exported) {
          ctx.todo(literal, `this v1 path is exported through ${exported} (CommonJS), and migrate-v2 does not follow it into the modules that require it, so it stays on v1 with their calls: migrate it with the code that reads it ${checklist(literal)}`);
          continue;
        }
        ctx.todo(literal, byKey ? `this table is read as ${byKey}, whole or by a key known only at run time, which migrate-v2 cannot follow to the calls its paths feed, so they stay on v1: migrate the code that reads it by hand ${checklist(literal)}` : `no call migrate-v2 recognises reads this v1 path, ${pathInWords(literal)}${readBy(ctx, literal)}, so it stays on v1: migrate it with the code that reads it ${checklist(literal)}`);
      }
    }
    for (const literal of ctx.analysis.plan.readLiteralsIn(ctx.sf)) {
      if (!keptByItsCalls(ctx, literal as PathLiteral)) continue;
      const others = readBy(ctx, literal as PathLiteral);
      if (others) ctx.todo(literal, `the calls migrate-v2 recognises keep this v1 path, ${pathInWords(literal as PathLiteral)}, on v1 (see their notes), and it is also read where it sees no request${others}: those reads stay on v1 too; migrate them with it ${checklist(literal as PathLiteral)}`);
    }
  },
};

/** A path every recognised call that reads it keeps on v1. */
function keptByItsCalls(ctx: TransformContext, literal: PathLiteral): boolean {
  const plan = ctx.analysis.plan;
  const readers = plan.callsReading.get(literal) ?? [];
  return hasV1Path(literal.text) && readers.length > 0 && !readers.some((c) => plan.migrates(c));
}

/** `'/iam/v1/groups'`, `'/iam/v1/groups/…'`: the path a literal holds, for a note that sits on a statement holding several. */
function pathInWords(literal: PathLiteral): string {
  const open = ts.isTemplateHead(literal) || ts.isTemplateMiddle(literal) ? '…' : '';
  return `'${literal.text.trim()}${open}'`;
}

/** What the code reading a path must change, by the path's kind where it names one: `(groups on v2: id -> uid; ...)`. */
function checklist(literal: PathLiteral): string {
  const resource = resourceOfPath(literal.text, 'v1');
  return resource ? `(${pluralWords(resource)} on v2: ${changesInWords(resource)})` : '(uid, createTime, list keys, pages)';
}

/**
 * ` (this.http.get() in list(), group.service.ts: calls it does not take for requests)`: where the path
 * is read. No line numbers: the run's notes above them move them, and the next run must write the same note.
 */
function readBy(ctx: TransformContext, literal: PathLiteral): string {
  // A recognised client's call reads it too where the path is not placed (`fetch(base + this.PATH)`): that call is no unrecognised one.
  const calls = new Set(ctx.analysis.plan.calls.map((c) => c.call));
  const readers = ctx.analysis.readersOf(literal).filter((call) => !calls.has(call) && !recognise(call, ctx.analysis.text));
  if (readers.length === 0) return '';
  const shown = [...new Set(readers.map((call) => `${calleeOf(call)}() ${placeIn(call, ctx.sf)}`))];
  const unread = readers.map((call) => unreadModule(ctx, call)).find((m) => m !== undefined);
  const typed = unread ? undefined : readers.map((call) => interfaceInWords(ctx, call)).find((m) => m !== undefined);
  const why = unread ? `calls of a module of the program, ${unread}, which it reads with this file only when a jsconfig.json or tsconfig.json holds them both: add one at the project's root` : typed ?? 'calls it does not take for requests';
  return ` (${shown.slice(0, 3).join('; ')}${shown.length > 3 ? `; and ${shown.length - 3} more` : ''}: ${why})`;
}

/** `this.client.get()` typed by an interface that no class of the run, or more than one, implements: which one sends is not known. */
function interfaceInWords(ctx: TransformContext, call: ts.CallExpression): string | undefined {
  const found = ctx.analysis.wrappers.implementersOf(call.expression);
  if (!found || found.classes.length === 1) return undefined;
  const names = found.classes.map((c) => c.name?.text ?? 'a class');
  const who = names.length === 0 ? 'no class of the run implements' : `${names.length} classes implement (${names.slice(0, 3).join(', ')})`;
  return `calls typed by the interface ${found.iface.name.text}, which ${who}, so which one sends them is not known`;
}

/** `'./api.mjs'` of `getJson()` imported from it, when the run reads the call's file alone and so cannot see what that module's function does. */
function unreadModule(ctx: TransformContext, call: ts.CallExpression): string | undefined {
  const callee = ts.isIdentifier(call.expression) ? call.expression : undefined;
  const module = callee && importedModule(callee, ctx.analysis.text);
  // Resolved to a declaration in another file, the module was read (the call is no wrapper for some other reason).
  const declared = module?.startsWith('.') ? ctx.analysis.text.declarationOf(callee!) : undefined;
  if (!module?.startsWith('.') || (declared && declared.getSourceFile() !== call.getSourceFile())) return undefined;
  return `'${module}'`;
}

/** `module.exports` of `module.exports = { REPOS: '/registry/v1/repos' }`, `exports.REPOS` of `exports.REPOS = '...'`: where a literal leaves its module. */
function commonJsExport(literal: PathLiteral): string | undefined {
  let n: ts.Node = literal;
  while (ts.isPropertyAssignment(n.parent) || ts.isObjectLiteralExpression(n.parent) || ts.isParenthesizedExpression(n.parent)) n = n.parent;
  const assignment = n.parent;
  if (!ts.isBinaryExpression(assignment) || assignment.operatorToken.kind !== ts.SyntaxKind.EqualsToken || assignment.right !== n) return undefined;
  const target = assignment.left.getText().replace(/\s+/g, '');
  return /^(?:module\.)?exports(?:\.[\w$]+)?$/.test(target) ? target : undefined;
}
