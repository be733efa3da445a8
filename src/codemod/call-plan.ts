/**
 * One decision per v1 call: migrate it whole, keep it on v1 (v2beta1 has no such endpoint), or
 * leave it with a note (it cannot be migrated with certainty). The path literals follow the
 * decisions: a literal is rewritten only when every call that uses it migrates and nothing else
 * reads it; a constant shared with calls that stay on v1 keeps a v1 copy for them.
 */
import { ts } from 'ts-morph';
import { collectionAfterV1Prefix, collectionBase, hasV1Path, pluralWords, readOneQuery, renamedFieldNames, rewriteV1Paths, V1_LIST_KEYS, type Operation } from '../contract/index.js';
import { placeOf } from './places.js';
import { HOLE, unwrap, type BaseUse, type FollowedReference, type PathLiteral } from './static-text.js';
import type { V1Call } from './v1-calls.js';

export type Verdict = 'migrate' | 'keep' | 'note';

export interface Decision {
  verdict: Verdict;
  /** For keep and note: the review note, naming the call's own kind. */
  why?: string;
}

/** A copy of a path constant (or table member) for the calls that must not share the original. */
export interface PathCopy {
  declaration: ts.VariableDeclaration | ts.PropertyAssignment;
  name: string;
  /** The copy's initialiser text. */
  text: string;
  /** Names that now refer to the copy. */
  redirect: FollowedReference[];
}

const V2_OPERATION: Record<V1Call['operation'], Operation> = { list: 'list', 'get-by-list': 'get', create: 'create', update: 'update', delete: 'delete' };

/** A note of calls kept together, naming the one that stays (where it is, seen from `noted`'s file). */
function withStaying(why: string, staying: V1Call, noted: V1Call): string {
  return `${why}: the one that stays is the ${callInWords(staying)} ${placeOf(staying.call, noted.call.getSourceFile())}`;
}

/** `group list`, `read of one group`: a call's resource and operation as a note says them. */
function callInWords(call: V1Call): string {
  return call.operation === 'get-by-list' ? `read of one ${call.resource.singular}` : `${call.resource.singular} ${call.operation}`;
}

export function initialDecision(call: V1Call): Decision {
  if (!call.resource.v2.endpoints[V2_OPERATION[call.operation]]) {
    return { verdict: 'keep', why: `v2beta1 has no ${call.operation === 'get-by-list' ? 'get' : call.operation} for ${pluralWords(call.resource)}: this call stays on v1 until there is one` };
  }
  // `putJson(path, body)` sending PUT for every caller: it sends PATCH once all its calls migrate (the analysis keeps them together).
  if (call.operation === 'update' && !call.methodNode && !sendsFixedPut(call)) {
    const how = call.via?.method ? `goes through ${call.via.name}(), which sends every caller's request as ${call.via.method}` : 'names its method at run time';
    return { verdict: 'note', why: `this ${call.resource.singular} update ${how}: v2 updates are PATCH with an updateMask; migrate it by hand` };
  }
  // Through a list reader, the analysis decides (reader-gets.ts).
  if (call.operation === 'get-by-list' && !call.via?.records && !readOneLiteral(call) && !readOneOption(call)) {
    const how =
      call.query && ts.isPropertyAssignment(call.query) ? `whose id comes in its query option (\`${call.query.getText().slice(0, 50)}\`) as more than a plain name`
      : call.via?.queryParams?.length ? `whose id it hands ${call.via.name}() in a query object that holds more than the id (or is not its last argument)`
      : 'whose URL is not a plain literal';
    return { verdict: 'note', why: `a v1 read of one ${call.resource.singular} by list with ?id= ${how}: v2 reads one record with GET /<collection>/<uid>; migrate it by hand` };
  }
  // `?${qs}`, `list(path, filters)`: v1 read one record by `?id=`, which v2 lists do not take; keys unknown here may hold it.
  if (call.operation === 'list' && UNKNOWN_QUERY_KEY.test(call.url)) {
    return { verdict: 'note', why: `the query of this ${call.resource.singular} list is put together where migrate-v2 cannot read its keys, and v2 lists do not filter by id (v1's way to read one record; v2 has Get): check its keys, then migrate it by hand` };
  }
  return { verdict: 'migrate' };
}

/** An update through a wrapper of the program that sends every caller's request with v1's update method, written in it (`method: 'PUT'`, axios's `put`). */
export function sendsFixedPut(call: V1Call): boolean {
  const via = call.via;
  return via !== undefined && via.method === call.resource.v1.endpoints.update?.method && via.methodNode !== undefined && via.fn !== undefined && via.methodParam === undefined && via.initParam === undefined;
}

/** A query parameter whose key is known only at run time: `?${qs}`, `&${more}`. */
const UNKNOWN_QUERY_KEY = new RegExp(`[?&]${HOLE}`);

/** The literal of a read-by-list URL that ends with `?id=`, when the id is the only query parameter. */
export function readOneLiteral(call: V1Call): PathLiteral | undefined {
  const query = readOneQuery(call.resource);
  // The id after it: a hole, or the text of a constant the URL was read through (`const bobId = '...'`).
  const at = call.url.lastIndexOf(query);
  if (at < 0 || call.url.indexOf('?') !== at || at + query.length === call.url.length || /[?&#]/.test(call.url.slice(at + query.length))) return undefined;
  // Only a literal of the call's own URL: one in a shared constant would change its other users too.
  return call.parts.literals.find((l) => l.text.endsWith(query) && l.pos >= call.urlNode.pos && l.end <= call.urlNode.end);
}

/**
 * `searchParams: { id }` (or `params`, `query`) as a read's only query parameter, its value a plain
 * name, a string or a template of names: the path segment it becomes is written from its text, so
 * it must hold nothing another transform edits.
 */
export function readOneOption(call: V1Call): { property: ts.ObjectLiteralElementLike; id: ts.Expression; keepEmpty?: ts.ObjectLiteralExpression } | undefined {
  const query = call.query;
  const handed = query ? undefined : queryHandedToWrapper(call);
  const object = query && ts.isPropertyAssignment(query) ? query.initializer : handed?.object;
  if (!object || !ts.isObjectLiteralExpression(object) || object.properties.length !== 1 || call.url.indexOf('?') !== call.url.lastIndexOf('?')) return undefined;
  const only = object.properties[0]!;
  const key = readOneQuery(call.resource).slice(1, -1);
  const id = ts.isShorthandPropertyAssignment(only) && only.name.text === key ? only.name : ts.isPropertyAssignment(only) && only.name.getText() === key && isPlainValue(only.initializer) ? only.initializer : undefined;
  if (!id) return undefined;
  // The option goes whole; an object handed to a wrapper goes with its argument, or stays empty where the wrapper needs one.
  return { property: query ?? only, id, ...(handed?.required ? { keepEmpty: object } : {}) };
}

/** `client.get<GroupList>(PATH, { id })`: the query object a call hands its wrapper last, and whether the wrapper needs one. */
function queryHandedToWrapper(call: V1Call): { object: ts.ObjectLiteralExpression; required: boolean } | undefined {
  const params = call.via?.queryParams;
  const index = params?.length === 1 ? params[0]! : -1;
  const arg = call.call.arguments[index];
  const object = arg && unwrap(arg);
  if (!object || !ts.isObjectLiteralExpression(object) || index !== call.call.arguments.length - 1) return undefined;
  const parameter = call.via!.fn?.parameters[index];
  return { object, required: !parameter || (!parameter.questionToken && !parameter.initializer) };
}

function isPlainValue(e: ts.Expression): boolean {
  if (ts.isIdentifier(e) || ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e) || untouchedRead(e)) return true;
  return ts.isTemplateExpression(e) && e.templateSpans.every((span) => ts.isIdentifier(span.expression));
}

/** `process.argv[2]`, `opts.who`: names and indexes no transform renames (not a record's `id`). */
function untouchedRead(e: ts.Expression): boolean {
  if (ts.isIdentifier(e)) return true;
  if (ts.isElementAccessExpression(e)) return ts.isNumericLiteral(e.argumentExpression) && untouchedRead(e.expression);
  return ts.isPropertyAccessExpression(e) && !renamedFieldNames().has(e.name.text) && !V1_LIST_KEYS.has(e.name.text) && untouchedRead(e.expression);
}

/** The declaration a literal sits in, among those the calls followed: the constant a split copies. */
function holderOf(literal: PathLiteral, call: V1Call): FollowedReference['declaration'] | undefined {
  for (const ref of call.parts.references) {
    const d = ref.declaration;
    const init = ts.isVariableDeclaration(d) ? d.initializer : d.initializer;
    if (init && literal.pos >= init.pos && literal.end <= init.end) return d;
  }
  return undefined;
}

export interface UseIndex {
  /**
   * Where the declaration is read that no recognised call's URL accounts for (`by this.replaceAt() in
   * rename()`), as a note names it for a reader in `from`; undefined when it is read nowhere else.
   */
  otherUse(declaration: FollowedReference['declaration'], consumed: ReadonlySet<ts.Node>, from: ts.SourceFile): string | undefined;
  /** A name not yet declared in the declaration's scope. */
  freshName(declaration: FollowedReference['declaration'], wanted: string): string;
  /** True when the table a member belongs to is read whole (iterated, spread, passed on): a member added to it would be read too. */
  tableReadWhole(member: ts.PropertyAssignment): boolean;
}

export class CallPlan {
  readonly decisions = new Map<V1Call, Decision>();
  readonly rewrites = new Map<PathLiteral, string>();
  /** Uses of declared base URL variables, with the v2 variable each is rewritten to. */
  readonly baseRewrites = new Map<ts.Expression, string>();
  readonly copies: PathCopy[] = [];
  /** Declarations left on v1 because something migrate-v2 cannot follow reads them. */
  readonly unfollowed = new Map<FollowedReference['declaration'], string>();
  /** Every literal some recognised call's URL is made of, with the calls it is part of. */
  readonly callsReading = new Map<ts.Node, V1Call[]>();
  readonly readLiterals: ReadonlySet<ts.Node>;

  constructor(
    readonly calls: readonly V1Call[],
    private readonly uses: UseIndex,
  ) {
    for (const call of calls) this.decisions.set(call, initialDecision(call));
    for (const call of calls) for (const literal of call.parts.literals) this.callsReading.set(literal, [...(this.callsReading.get(literal) ?? []), call]);
    this.readLiterals = new Set(this.callsReading.keys());
  }

  private readByFile?: Map<ts.SourceFile, ts.Node[]>;

  /** The literals of one file that recognised calls read (grouped once: every file's transforms ask). */
  readLiteralsIn(sf: ts.SourceFile): readonly ts.Node[] {
    if (!this.readByFile) {
      this.readByFile = new Map();
      for (const literal of this.readLiterals) {
        const file = literal.getSourceFile();
        this.readByFile.set(file, [...(this.readByFile.get(file) ?? []), literal]);
      }
    }
    return this.readByFile.get(sf) ?? [];
  }

  private byFile?: Map<ts.SourceFile, [PathLiteral, string][]>;

  /** The planned rewrites of one file's literals. */
  rewritesIn(sf: ts.SourceFile): [PathLiteral, string][] {
    if (!this.byFile) {
      this.byFile = new Map();
      for (const entry of this.rewrites) {
        const file = entry[0].getSourceFile();
        this.byFile.set(file, [...(this.byFile.get(file) ?? []), entry]);
      }
    }
    return this.byFile.get(sf) ?? [];
  }

  migrates(call: V1Call): boolean {
    return this.decisions.get(call)?.verdict === 'migrate';
  }

  /**
   * Keeps a call on v1 with a note; the calls that migrate together with it stay with it, at once.
   * Their notes name the call kept for a reason of its own (`cause`) where it is one of them, not the
   * one whose staying reached them first.
   */
  demote(call: V1Call, why: string, cause: V1Call = call): void {
    if (!this.migrates(call)) return;
    this.decisions.set(call, { verdict: 'note', why });
    this.causes.set(call, cause);
    for (const group of this.groups) {
      if (!group.calls.includes(call)) continue;
      const named = group.calls.includes(cause) ? cause : call;
      for (const other of group.calls) this.demote(other, withStaying(group.why, named, other), cause);
    }
  }

  /** The call each call was kept on v1 for: itself, or the one whose staying kept it with its group. */
  private readonly causes = new Map<V1Call, V1Call>();

  private readonly groups: { calls: readonly V1Call[]; why: string }[] = [];

  /** Calls that migrate together or not at all (those through one list reader): `why` says so when one cannot. */
  together(calls: readonly V1Call[], why: string): void {
    this.groups.push({ calls, why });
    this.keepTogether();
  }

  private keepTogether(): boolean {
    let demoted = false;
    for (const { calls, why } of this.groups) {
      if (calls.every((c) => this.migrates(c)) || !calls.some((c) => this.migrates(c))) continue;
      // Better the one kept for a reason of its own than one kept with another group.
      const staying = calls.find((c) => !this.migrates(c) && (this.causes.get(c) ?? c) === c) ?? calls.find((c) => !this.migrates(c))!;
      const cause = this.causes.get(staying);
      const named = cause && calls.includes(cause) ? cause : staying;
      for (const call of calls) this.demote(call, withStaying(why, named, call), cause ?? staying);
      demoted = true;
    }
    return demoted;
  }

  /** Plans the path edits; calls whose path cannot follow are demoted, until nothing changes. True when some were. */
  planPaths(): boolean {
    let demoted = false;
    for (let round = 0; round < 4; round++) {
      this.rewrites.clear();
      this.baseRewrites.clear();
      this.byFile = undefined;
      this.copies.length = 0;
      this.unfollowed.clear();
      if (!this.planRound()) break;
      demoted = true;
    }
    return demoted;
  }

  /** Names of path constants read by test doubles that migrate with the calls they serve: followed, as the calls' own are. */
  private readonly followedElsewhere = new Set<ts.Node>();

  /** The path constants a test double reads: the double migrates with its calls, so those reads are followed. */
  follow(references: readonly FollowedReference[]): void {
    for (const r of references) this.followedElsewhere.add(r.node);
  }

  private planRound(): boolean {
    const consumed = new Set<ts.Node>([...this.calls.flatMap((c) => c.parts.references.map((r) => r.node)), ...this.followedElsewhere]);
    const users = new Map<PathLiteral, V1Call[]>();
    for (const call of this.calls) {
      for (const literal of call.parts.literals) if (hasV1Path(literal.text)) users.set(literal, [...(users.get(literal) ?? []), call]);
    }
    let demoted = false;
    for (const [literal, using] of users) {
      const migrating = using.filter((c) => this.migrates(c));
      if (migrating.length === 0) continue;
      const staying = using.filter((c) => !this.migrates(c));
      const holder = holderOf(literal, migrating[0]!);
      const other = holder ? this.uses.otherUse(holder, consumed, migrating[0]!.call.getSourceFile()) : undefined;
      if (staying.length === 0 && !other) {
        this.rewrites.set(literal, rewriteV1Paths(literalSource(literal)));
        continue;
      }
      // A class's constant is not copied: a copy would be a member of its own, read by a name the calls do not use.
      const copy = holder && !ts.isPropertyDeclaration(holder) && this.split(holder, literal, other ? migrating : staying, !other);
      if (copy) {
        if (!other) this.rewrites.set(literal, rewriteV1Paths(literalSource(literal)));
        else this.unfollowed.set(holder, copy.name);
        continue;
      }
      // `baseURL: `${URL}/iam/v1``: what the two share is the prefix their client (or URL) starts with, not a collection's path.
      const shared = literal.text.includes(collectionBase(migrating[0]!.resource, 'v1')) ? 'its path' : `the v1 base '${literal.text.trim()}' its URL is built on`;
      const why = staying.length > 0 ? `shares ${shared} with ${describe(staying[0]!)}, which stays on v1: migrate both together by hand` : `reads a path that is also read where migrate-v2 cannot follow (${other}): migrate them together by hand`;
      for (const call of migrating) this.demote(call, `this ${call.resource.singular} ${call.operation} ${why}`);
      demoted = true;
    }
    demoted = this.planBases() || demoted;
    this.planCollectionsAfterBases(users);
    for (const call of this.calls) {
      if (this.migrates(call) && !this.consistent(call)) {
        this.demote(call, `the path of this ${call.resource.singular} ${call.operation} is put together from pieces migrate-v2 cannot rewrite one by one: migrate it by hand`);
        demoted = true;
      }
    }
    return this.keepTogether() || demoted;
  }

  /**
   * A copy of the constant for the calls given, when each reaches it directly (its first followed
   * name) in the constant's own file. `rewriteOriginal`: the original becomes v2 and the copy keeps v1.
   */
  private split(holder: PathCopy['declaration'], literal: PathLiteral, calls: readonly V1Call[], rewriteOriginal: boolean): PathCopy | undefined {
    if (!ts.isIdentifier(holder.name)) return undefined;
    // `Object.entries(ENDPOINTS)` would list a `groupsV2` member too.
    if (ts.isPropertyAssignment(holder) && this.uses.tableReadWhole(holder)) return undefined;
    const earlier = this.copies.find((c) => c.declaration === holder);
    if (earlier) return earlier;
    const redirect: FollowedReference[] = [];
    for (const call of calls) {
      // The name must stand in the call's own URL, not inside another constant other calls share.
      const own = call.parts.references.find((r) => r.declaration === holder && r.node.pos >= call.call.pos && r.node.end <= call.call.end);
      if (!own || own.node.getSourceFile() !== holder.getSourceFile()) return undefined;
      redirect.push(own);
    }
    const text = rewriteOriginal ? holder.initializer!.getText() : v2CopyText(holder.initializer!, literal);
    const name = this.uses.freshName(holder, `${holder.name.text}${rewriteOriginal ? (ts.isPropertyAssignment(holder) ? 'V1' : '_V1') : ts.isPropertyAssignment(holder) ? 'V2' : '_V2'}`);
    const copy: PathCopy = { declaration: holder, name, text, redirect };
    this.copies.push(copy);
    return copy;
  }

  /**
   * A use of a declared base variable (`process.env.IAM_URL`, holding `.../iam/v1`) becomes its v2
   * variable when every call that reads it migrates; without a v2 variable, or shared with a call
   * that stays on v1, its calls stay on v1 too. True when some were kept.
   */
  private planBases(): boolean {
    const users = new Map<ts.Expression, { use: BaseUse; calls: V1Call[] }>();
    for (const call of this.calls) {
      for (const use of call.parts.bases ?? []) {
        const entry = users.get(use.node) ?? { use, calls: [] };
        entry.calls.push(call);
        users.set(use.node, entry);
      }
    }
    let demoted = false;
    for (const [node, { use, calls }] of users) {
      const migrating = calls.filter((c) => this.migrates(c));
      if (migrating.length === 0) continue;
      const staying = calls.find((c) => !this.migrates(c));
      const why = !use.base.v2
        ? `its base URL comes from ${use.base.name}, which holds ${use.base.path} (migrate-v2.config.json): name the variable that holds the v2 base there ("v2"), then run again`
        : staying
          ? `shares its base URL ${use.base.name} with ${describe(staying)}, which stays on v1: migrate both together by hand`
          : undefined;
      if (!why) {
        this.baseRewrites.set(node, node.getText().replace(use.base.name, use.base.v2!));
        continue;
      }
      for (const call of migrating) this.demote(call, `${staysOnV1(call)}: ${why}`);
      demoted = true;
    }
    return demoted;
  }

  /**
   * `api.get('/rolebindings')` on an instance whose base ends `/iam/v1`: the collection, written
   * apart from the prefix, takes v2's spelling in its own literal, when only calls that migrate read it.
   */
  private planCollectionsAfterBases(v1Users: ReadonlyMap<PathLiteral, V1Call[]>): void {
    const readers = new Map<PathLiteral, V1Call[]>();
    for (const call of this.calls) for (const literal of call.parts.literals) readers.set(literal, [...(readers.get(literal) ?? []), call]);
    for (const [literal, calls] of readers) {
      if (v1Users.has(literal) || this.rewrites.has(literal) || !calls.every((c) => this.migrates(c))) continue;
      const pieces = calls.map((c) => {
        const at = c.url.indexOf(literal.text);
        return at < 0 ? undefined : collectionAfterV1Prefix(c.url.slice(0, at), literal.text);
      });
      const piece = pieces[0];
      if (piece !== undefined && pieces.every((p) => p === piece)) this.rewrites.set(literal, literalSource(literal).replace(literal.text, piece));
    }
  }

  /** The call's URL after the planned literal rewrites is the v2 URL of the same call. */
  private consistent(call: V1Call): boolean {
    const copied = this.copies.some((c) => call.parts.references.some((r) => c.redirect.includes(r)));
    if (copied) return true;
    // `scope ? \`${BASE}/iam/v1/x?q=${scope}\` : \`${BASE}/iam/v1/x\``: the URL is the longer branch, which begins with the other; each branch's literals are read over it in turn.
    const branches: PathLiteral[][] = [[]];
    let cursor = 0;
    for (const literal of call.parts.literals) {
      if (call.url.indexOf(literal.text, cursor) < 0) branches.push([]);
      const at = call.url.indexOf(literal.text, branches.at(-1)!.length === 0 ? 0 : cursor);
      if (at < 0) return false;
      branches.at(-1)!.push(literal);
      cursor = at + literal.text.length;
    }
    return branches.every((literals) => this.rewritesAsWhole(call, literals));
  }

  /** Whether the rewrites planned for these literals of the call's URL, in order, make what rewriting the URL whole makes. */
  private rewritesAsWhole(call: V1Call, literals: readonly PathLiteral[]): boolean {
    let rewritten = '';
    let cursor = 0;
    for (const literal of literals) {
      const at = call.url.indexOf(literal.text, cursor);
      const planned = this.rewrites.get(literal);
      rewritten += call.url.slice(cursor, at) + (planned === undefined ? literal.text : unquote(planned, literal));
      cursor = at + literal.text.length;
    }
    rewritten += call.url.slice(cursor);
    for (const use of call.parts.bases ?? []) {
      if (this.baseRewrites.has(use.node)) rewritten = rewritten.replace(`${HOLE}${use.base.path}`, `${HOLE}${rewriteV1Paths(use.base.path)}`);
    }
    return rewritten === rewriteV1Paths(call.url);
  }
}

/** Another call, for a note on this one: by where it stands, not its line, which the note itself moves. */
function describe(call: V1Call): string {
  const article = /^[aeiou]/.test(call.resource.singular) ? 'an' : 'a';
  return `${article} ${call.resource.singular} ${call.operation} (${placeOf(call.call, call.call.getSourceFile())})`;
}

/** A constant's initializer with its v1 literal rewritten to v2: the text of the copy made for the calls that migrate. */
export function v2CopyText(init: ts.Expression, literal: PathLiteral): string {
  const source = init.getText();
  const at = literal.getStart() - init.getStart();
  return source.slice(0, at) + rewriteV1Paths(literalSource(literal)) + source.slice(at + literal.getWidth());
}

/** A literal's source text, quotes and template delimiters included. */
export function literalSource(literal: PathLiteral): string {
  return literal.getText();
}

/** The text inside a rewritten literal's delimiters. */
function unquote(source: string, literal: PathLiteral): string {
  const head = 1;
  const tail = ts.isTemplateHead(literal) || ts.isTemplateMiddle(literal) ? 2 : 1;
  return source.slice(head, source.length - tail);
}

/** The start of a note on a call kept on v1: `this group list stays on v1`. */
export function staysOnV1(call: V1Call): string {
  return `this ${callInWords(call)} stays on v1`;
}
