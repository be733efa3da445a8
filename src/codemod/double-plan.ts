/**
 * One decision per test double, made with the calls' decisions: which v1 calls a double serves
 * (the calls its test reaches, or those of the files the test imports, that a stub's route or a
 * mock's target matches), whether its route and answer can be written for those calls' v2 form
 * (reply-bodies.ts), and so whether they migrate together. A double that cannot migrate with
 * certainty keeps its calls on v1 with it, each noted naming the other; doubles that share test
 * data, and the calls they serve, migrate together or not at all.
 */
import { ts } from 'ts-morph';
import { hasV1Path, RESOURCES, collectionBase, type ResourceContract } from '../contract/index.js';
import { staysOnV1, type CallPlan } from './call-plan.js';
import type { Shape } from './data-flow.js';
import { isRecording, jsonLoadOf, jsonLoadsIn, parseData, recordedRoutes, type DataAccess, type DataFile, type RecordedRoute } from './data-files.js';
import type { Reply } from './double-replies.js';
import { importsOf, stemIndex } from './imports.js';
import { walkBody, type BodyRole, type BodyWalk } from './reply-bodies.js';
import { placeOf } from './places.js';
import { isProjectSource } from './resource-types.js';
import { functionOf, HOLE, unwrap, type StaticText } from './static-text.js';
import { findDoubles, regexText, testBlockOf, testBlocksIn, type Double, type Expectation, type Mock, type Route } from './test-doubles.js';
import { classify, type V1Call, type V1Operation } from './v1-calls.js';
import { isFallback } from './syntax.js';
import type { Wrappers } from './wrappers.js';

export type AnyDouble = Double | RecordedRoute;

export interface DoubleDecision {
  double: AnyDouble;
  /** The file the double stands in: a JSON file for a recorded route. */
  file: ts.SourceFile;
  served: V1Call[];
  resource?: ResourceContract;
  operation?: V1Operation;
  /** Why it cannot migrate with the calls it serves: they stay on v1 with it. */
  why?: string;
  walks: BodyWalk[];
  /** Replies of a read by list that answer no record: 404 on v2. */
  missing: Reply[];
  data: Set<DataFile>;
  /** Calls of the program whose URLs read the same path constant as the stub: rewritten with it, so they migrate with it. */
  sharing?: V1Call[];
}

/** What the plan reads of the analysis. */
export interface DoubleContext {
  checker: ts.TypeChecker;
  plan: CallPlan;
  text: StaticText;
  wrappers: Wrappers;
  callsIn(sf: ts.SourceFile): readonly V1Call[];
  isV1Call(node: ts.CallExpression): boolean;
  updateMask(call: V1Call): string[] | undefined;
}

const EXACT_MATCHERS = /^(toBe|toEqual|toStrictEqual|toHaveBeenCalledWith|toHaveBeenLastCalledWith|toHaveBeenNthCalledWith|toBeCalledWith)$/;
const TEST_RUNNERS = /from\s+['"](vitest|@jest\/globals)['"]|\bdescribe\s*\(/;

export function describeDouble(d: AnyDouble): string {
  switch (d.kind) {
    case 'route':
      return `${d.library} stub of ${d.method} ${d.path.getText()}`;
    case 'entry':
      return `recorded answer to ${d.method} ${d.target}`;
    case 'mock':
      return `mock of ${d.target.kind === 'fetch' ? 'fetch' : d.target.kind === 'client' ? `axios.${d.target.method.toLowerCase()}` : d.target.kind === 'library' ? d.target.client : d.target.node.getText()}`;
    case 'expectation':
      return `expectation ${(ts.isTemplateHead(d.node) || ts.isTemplateMiddle(d.node) || ts.isTemplateTail(d.node) ? d.node.parent.parent : d.node).getText()}`;
  }
}

export class DoublePlan {
  readonly decisions: DoubleDecision[] = [];
  /** Literals the doubles own: their routes and expectations (paths notes no other reader of them). */
  readonly literals = new Set<ts.Node>();
  readonly data = new Map<string, DataFile | null>();
  /** Loads of JSON fixtures that are also read as something other than a v1 answer: noted, left as they are. */
  readonly sharedData = new Map<ts.Node, string>();
  /** The calls that hand a double its answer (`.reply(...)`, `HttpResponse.json(...)`, `mockResolvedValue(...)`): they read no field of it. */
  readonly answering = new Set<ts.Node>();
  private readonly seeds = new Map<ts.SourceFile, Map<ts.Declaration, Shape>>();
  private readonly byStem: Map<string, string>;
  private readonly files: Map<string, ts.SourceFile>;
  private readonly reachedCache = new Map<ts.Node, { calls: V1Call[]; resolved: boolean }>();
  private readonly byNode = new Map<ts.Node, V1Call>();
  /** Recordings whose entries are already doubles (a recording may be loaded by several tests). */
  private readonly routedData = new Set<DataFile>();

  constructor(
    private readonly a: DoubleContext,
    candidates: readonly ts.SourceFile[],
    private readonly access: DataAccess,
  ) {
    this.files = new Map(candidates.map((sf) => [sf.fileName, sf]));
    this.byStem = stemIndex(new Map(candidates.map((sf) => [sf.fileName, ''])));
    for (const sf of candidates) {
      const doubles = findDoubles(sf, a.text);
      const testLike = doubles.length > 0 || TEST_RUNNERS.test(sf.text);
      if (testLike) this.testFiles.add(sf);
      for (const d of doubles) this.consider(d, sf);
      if (testLike) for (const load of jsonLoadsIn(sf)) this.recording(load.path, load.load, sf);
    }
    this.checkSharedData(candidates);
    this.tie();
    for (const d of this.decisions) this.seed(d);
  }

  /** Whether a double migrates: it serves calls, all of them migrate, and nothing keeps it. */
  migrates(d: DoubleDecision): boolean {
    return d.served.length > 0 && !d.why && d.served.every((c) => this.a.plan.migrates(c));
  }

  /** Whether a file stands doubles of v1 (a test of the program). */
  hasDoubles(sf: ts.SourceFile): boolean {
    return this.testFiles.has(sf);
  }

  private readonly testFiles = new Set<ts.SourceFile>();

  /** Names of a file the doubles show hold records, lists or answers: the data flow starts from them. */
  seedsOf(sf: ts.SourceFile): ReadonlyMap<ts.Declaration, Shape> {
    return this.seeds.get(sf) ?? new Map();
  }

  private consider(d: Double, sf: ts.SourceFile): void {
    const decision = d.kind === 'route' ? this.route(d, sf) : d.kind === 'mock' ? this.mock(d, sf) : this.expectation(d, sf);
    if (decision) this.decisions.push(decision);
  }

  private blank(double: AnyDouble, file: ts.SourceFile, served: V1Call[]): DoubleDecision {
    return { double, file, served, walks: [], missing: [], data: new Set() };
  }

  /** The text a route matches: its base and path, with the query nock's `.query({...})` adds. */
  private routeText(d: Route): { url: string; literals: ts.Node[] } | undefined {
    // A regular expression matches the path (and query) as it is written.
    const path = ts.isRegularExpressionLiteral(d.path) ? { text: regexText(d.path), literals: [d.path] } : this.a.text.of(d.path);
    if (!path) return undefined;
    const base = d.base ? this.a.text.of(d.base) : undefined;
    const query = d.query?.arguments[0];
    const keys = query && ts.isObjectLiteralExpression(query) ? query.properties.map((p) => `${p.name?.getText().replace(/^['"]|['"]$/g, '') ?? HOLE}=${HOLE}`).join('&') : '';
    const url = (base?.text ?? '') + path.text + (keys ? `${path.text.includes('?') ? '&' : '?'}${keys}` : '');
    return { url, literals: [...(base?.literals ?? []), ...path.literals] };
  }

  private route(d: Route, sf: ts.SourceFile): DoubleDecision | undefined {
    const read = this.routeText(d);
    if (!read || !hasV1Path(read.url)) return undefined;
    for (const l of read.literals) this.literals.add(l);
    // msw matches the path alone: a stub of a list answers reads of one record by `?id=` too.
    const decision = this.routed(d, sf, sf, read.url, d.method, d.library === 'msw', d.replies, () => this.routeProblem(d, read.url, read.literals));
    decision.sharing = this.a.plan.calls.filter((c) => c.parts.literals.some((l) => read.literals.includes(l)));
    // A path constant the stub shares with the program is rewritten once for both: the stub's reads of it are followed.
    if (decision.served.length > 0 && !ts.isRegularExpressionLiteral(d.path)) this.a.plan.follow(this.a.text.of(d.path)?.references ?? []);
    return decision;
  }

  private recording(path: string, load: ts.Node, loader: ts.SourceFile): void {
    const data = this.dataFile(path);
    if (!data) return;
    data.loads.push(load);
    if (this.routedData.has(data)) return;
    this.routedData.add(data);
    for (const entry of recordedRoutes(data)) {
      const decision = this.routed(entry, data.sf, loader, entry.target, entry.method, false, entry.replies, () => this.entryProblem(entry));
      if (decision) {
        decision.data.add(data);
        this.decisions.push(decision);
      }
    }
  }

  private routed(double: Route | RecordedRoute, file: ts.SourceFile, home: ts.SourceFile, url: string, method: Route['method'], queryBlind: boolean, replies: readonly Reply[], problem: () => string | undefined): DoubleDecision {
    const placed = classify(url, method);
    if (!placed) return { ...this.blank(double, file, []), why: 'the migration contract does not describe this route' };
    const matches = (c: V1Call) => c.resource === placed.resource && (c.operation === placed.operation || (queryBlind && placed.operation === 'list' && c.operation === 'get-by-list'));
    const served = this.candidates(double.kind === 'entry' ? undefined : testBlockOf(double.node), home).filter(matches);
    const decision = this.blank(double, file, served);
    if (served.length === 0) return decision;
    this.settleKind(decision);
    decision.why ??= problem() ?? this.replies(decision, replies);
    return decision;
  }

  /**
   * The calls a double may serve: those its test reaches; for a double set up outside any test
   * (a server shared by the file's tests), those every test of the file reaches. Where no test
   * reaches anything migrate-v2 can resolve (no tsconfig), the calls of its file and the files it imports.
   */
  private candidates(block: ts.Node | undefined, home: ts.SourceFile): V1Call[] {
    const blocks = block ? [block] : testBlocksIn(home);
    const reached = blocks.map((b) => this.reached(b));
    if (reached.some((r) => r.resolved)) return [...new Set(reached.flatMap((r) => r.calls))];
    return this.imported(home);
  }

  /**
   * The v1 calls a test makes: in its callback, and in the functions of the program it calls, a few
   * levels down. `resolved`: it reached a v1 call or a function of the program at all.
   */
  private reached(block: ts.Node): { calls: V1Call[]; resolved: boolean } {
    const cached = this.reachedCache.get(block);
    if (cached) return cached;
    const out = new Set<V1Call>();
    const seen = new Set<ts.Node>();
    const callOf = (node: ts.CallExpression): V1Call | undefined => {
      if (!this.a.isV1Call(node)) return undefined;
      if (this.byNode.size === 0) for (const sf of this.files.values()) for (const c of this.a.callsIn(sf)) this.byNode.set(c.call, c);
      return this.byNode.get(node);
    };
    let resolved = false;
    const walk = (root: ts.Node, depth: number): void => {
      if (seen.has(root) || depth > 5) return;
      seen.add(root);
      const visit = (node: ts.Node): void => {
        if (ts.isCallExpression(node)) {
          const call = callOf(node);
          if (call) out.add(call);
          const fn = call ? undefined : functionOf(node.expression, (n) => this.a.text.declarationOf(n));
          if (fn && isProjectSource(fn.getSourceFile())) {
            resolved ||= fn.getSourceFile() !== block.getSourceFile();
            walk(fn, depth + 1);
          }
        }
        ts.forEachChild(node, visit);
      };
      visit(root);
    };
    walk(block, 0);
    const result = { calls: [...out], resolved: resolved || out.size > 0 };
    this.reachedCache.set(block, result);
    return result;
  }

  /** The v1 calls of a file and of the files it imports (by relative path), through theirs. */
  private imported(home: ts.SourceFile): V1Call[] {
    const seen = new Set<string>([home.fileName]);
    const queue = [home.fileName];
    while (queue.length > 0) {
      const path = queue.shift()!;
      for (const dep of importsOf(path, this.files.get(path)!.text, this.byStem)) {
        if (!seen.has(dep)) {
          seen.add(dep);
          queue.push(dep);
        }
      }
    }
    return [...seen].flatMap((path) => this.a.callsIn(this.files.get(path)!));
  }

  /** The one kind and operation every served call has; otherwise the double cannot answer them all. */
  private settleKind(d: DoubleDecision): void {
    const [first] = d.served;
    if (d.served.some((c) => c.resource !== first!.resource || c.operation !== first!.operation)) {
      d.why = `it answers calls of more than one kind (${[...new Set(d.served.map((c) => `${c.resource.singular} ${c.operation}`))].join(', ')}), whose v2 forms differ`;
      return;
    }
    d.resource = first!.resource;
    d.operation = first!.operation;
    if (d.operation === 'update') {
      const masks = new Set(d.served.map((c) => (this.a.updateMask(c) ?? ['*']).join(',')));
      if (masks.size > 1) d.why = `the updates it answers send different updateMasks (${[...masks].join('; ')})`;
    }
  }

  private routeProblem(d: Route, url: string, literals: readonly ts.Node[]): string | undefined {
    if (d.base && hasV1Path(this.a.text.textOf(d.base) ?? '')) return 'the v1 path is in the base of its scope, which its other interceptors share';
    const v1Literals = literals.filter((l) => ts.isRegularExpressionLiteral(l) || hasV1Path((l as ts.StringLiteralLike).text));
    if (v1Literals.some((l) => l.getSourceFile() !== d.node.getSourceFile())) return 'its path is a constant of another file';
    // A constant the program's calls read too is rewritten with them (they migrate together), but the query the stub must match cannot join it.
    const op = classify(url, d.method)?.operation;
    // nock takes the query as `.query({...})` where its path has none.
    const needsQuery = d.library !== 'msw' && !d.query && (op === 'list' || op === 'update') && !(d.library === 'nock' && !url.includes('?'));
    const path = d.path;
    const last = ts.isStringLiteralLike(path) ? path : ts.isTemplateExpression(path) ? path.templateSpans[path.templateSpans.length - 1]!.literal : undefined;
    if (needsQuery && !ts.isRegularExpressionLiteral(path) && (!last || this.a.plan.readLiterals.has(last))) return 'its path does not end with a literal of its own, which the query the migrated call adds could join';
    if (d.library === 'MockAgent' && d.options?.properties.some((p) => p.name?.getText() === 'query')) return 'its query is given as an option, which migrate-v2 does not rewrite';
    if (d.replies.length === 0) return 'it gives no reply migrate-v2 can read';
    if (op === 'get-by-list' && d.library !== 'msw' && !idPlacement(d, this.a.text)) return "the id it matches is not written as the one query parameter migrate-v2 can move into the path (`.query({ id })` after the path, or a path ending in `?id=${...}`)";
    if (op === 'get-by-list' && d.library === 'msw' && !ts.isStringLiteralLike(d.path)) return 'its path is not a plain string, to which migrate-v2 adds the uid segment';
    if (d.query && !ts.isObjectLiteralExpression(d.query.arguments[0] ?? d.query) && d.query.arguments[0]?.kind !== ts.SyntaxKind.TrueKeyword) return 'its query is given in a form migrate-v2 does not rewrite';
    return undefined;
  }

  private entryProblem(entry: RecordedRoute): string | undefined {
    const op = classify(entry.target, entry.method)?.operation;
    if (op === 'get-by-list' && !/\?id=[^&]*$/.test(entry.target)) return 'the id it matches is not the one query parameter of its request line';
    return undefined;
  }

  /** Walks every reply's body for its v2 form; the first reason none can be written. */
  private replies(d: DoubleDecision, replies: readonly Reply[]): string | undefined {
    const roles: Partial<Record<V1Operation, BodyRole['shape']>> = { list: 'envelope', 'get-by-list': 'one', create: 'resource', update: 'resource' };
    const shape = roles[d.operation!];
    for (const reply of replies) {
      if (reply.form.kind === 'opaque') return `its reply cannot be read: ${reply.form.why}`;
      if (reply.code === undefined) return 'its status is known only at run time';
      if (reply.code >= 300 || !reply.body || !shape) continue;
      const walk = walkBody(reply.body, { shape, resource: d.resource! }, this.a.text, (n) => this.dataRoot(n, d));
      if (walk.why) return `its answer cannot be written in v2's form: ${walk.why}`;
      d.walks.push(walk);
      if (!walk.missing) continue;
      if (reply.computed) return 'it answers a missing record from a function, where v2 answers 404';
      const form = reply.form;
      if (form.kind === 'axios' || form.kind === 'value' || (form.kind === 'helper' && form.statusIndex === undefined) || (form.kind === 'entry' && !form.entry)) return 'it answers a missing record with an empty list, and migrate-v2 cannot write the 404 v2 answers in its form';
      d.missing.push(reply);
    }
    return undefined;
  }

  private dataRoot(node: ts.Node, d: DoubleDecision): ts.Expression | undefined {
    const load = jsonLoadOf(node, this.a.text);
    const data = load && this.dataFile(load.path);
    if (!data || !load) return undefined;
    if (!data.loads.includes(load.load)) data.loads.push(load.load);
    d.data.add(data);
    return data.root;
  }

  private dataFile(path: string): DataFile | undefined {
    if (!this.data.has(path)) {
      const raw = this.access.read(path);
      this.data.set(path, raw === undefined ? null : (parseData(path, raw) ?? null));
    }
    return this.data.get(path) ?? undefined;
  }

  /**
   * A value read out of a recording the test loads (`answers[\`GET ${url.pathname}\`].body`): a mock
   * that answers with it routes requests to the recording, whose entries migrate on their own.
   */
  private fromRecording(e: ts.Expression, depth = 0): boolean {
    const n = unwrap(e);
    if (depth > 8) return false;
    if (ts.isBinaryExpression(n) && isFallback(n.operatorToken.kind)) return this.fromRecording(n.left, depth + 1);
    if (ts.isPropertyAccessExpression(n) || ts.isElementAccessExpression(n)) return this.fromRecording(n.expression, depth + 1);
    if (!ts.isIdentifier(n)) return false;
    const load = jsonLoadOf(n, this.a.text);
    const data = load && this.dataFile(load.path);
    if (data) return isRecording(data);
    const d = this.a.text.declarationOf(n);
    return Boolean(d && ts.isVariableDeclaration(d) && d.initializer && this.fromRecording(d.initializer, depth + 1));
  }

  private mock(d: Mock, sf: ts.SourceFile): DoubleDecision | undefined {
    if (d.replies.some((r) => r.body) && d.replies.every((r) => !r.body || this.fromRecording(r.body))) return undefined;
    const candidates = this.candidates(testBlockOf(d.node), sf);
    const target = d.target;
    let served: V1Call[];
    // ky and ofetch send through the global fetch: a double of fetch answers them too.
    if (target.kind === 'fetch') served = candidates.filter((c) => c.client === 'fetch' || c.client === 'ky' || c.client === 'ofetch');
    else if (target.kind === 'client') served = candidates.filter((c) => c.client === target.client && c.method === target.method);
    // Every call that goes through ofetch, a wrapper's too, is answered by a mock of it.
    else if (target.kind === 'library') served = candidates.filter((c) => c.client === target.client);
    else {
      const fn = this.mockedFunction(target);
      const wrapper = fn && this.a.wrappers.byFunction.get(fn as never);
      if (!wrapper) return undefined;
      served = candidates.filter((c) => c.via === wrapper);
    }
    if (served.length === 0) return undefined;
    const decision = this.blank(d, sf, served);
    this.settleKind(decision);
    if (!decision.why && target.kind === 'client' && decision.operation === 'update') decision.why = `the test names axios.${target.method.toLowerCase()}, which the migrated call no longer calls (PATCH)`;
    if (!decision.why && target.kind === 'function' && served[0]!.via?.returns !== 'body') decision.why = `${served[0]!.via!.name}() answers a response, which migrate-v2 does not rewrite in a mock`;
    decision.why ??= this.replies(decision, d.replies);
    return decision;
  }

  private mockedFunction(target: Extract<Mock['target'], { kind: 'function' }>): ts.Node | undefined {
    if (!target.member) return functionOf(target.node, (n) => this.a.text.declarationOf(n));
    const type = this.a.checker.getTypeAtLocation(target.node);
    const d = type.getProperty(target.member)?.valueDeclaration;
    return d && (ts.isMethodDeclaration(d) || ts.isFunctionDeclaration(d)) ? d : d && ts.isPropertyDeclaration(d) && d.initializer ? d.initializer : undefined;
  }

  private expectation(d: Expectation, sf: ts.SourceFile): DoubleDecision | undefined {
    const candidates = this.candidates(testBlockOf(d.node), sf);
    const text = ts.isRegularExpressionLiteral(d.node) ? regexText(d.node) : d.node.text;
    const resource = d.what === 'path' ? resourceNamed(text) : undefined;
    const served = d.what === 'method' ? candidates.filter((c) => c.operation === 'update') : candidates.filter((c) => c.resource === resource);
    if (served.length === 0) return undefined;
    this.literals.add(d.node);
    const decision = this.blank(d, sf, served);
    if (d.what === 'method') return decision;
    const ops = new Set(served.map((c) => c.operation));
    if (ops.has('get-by-list')) return { ...decision, why: 'a read of one record by ?id= becomes a Get of /<collection>/<uid> on v2, which this expectation cannot follow' };
    const changesQuery = served.some((c) => (c.operation === 'list' && !c.resource.v1.endpoints.list!.paginated) || c.operation === 'update');
    if (changesQuery && !wholeUrl(d, text) && EXACT_MATCHERS.test(matcherName(d)) && !/\.pathname$/.test(d.subject?.getText() ?? '')) {
      return { ...decision, why: 'it may compare the whole URL, which gains query parameters on v2 (page_size, updateMask), or only its path: migrate-v2 cannot tell' };
    }
    return decision;
  }

  /** Loads of a fixture that a test does not use as a v1 answer: the fixture is left as it is, and its doubles with it. */
  private checkSharedData(candidates: readonly ts.SourceFile[]): void {
    const users = new Map<DataFile, DoubleDecision[]>();
    for (const d of this.decisions) for (const data of d.data) users.set(data, [...(users.get(data) ?? []), d]);
    const testFiles = this.testFiles;
    for (const [data, decisions] of users) {
      const elsewhere = [...this.access.otherLoaders(data.path), ...candidates.filter((sf) => !testFiles.has(sf) && !data.loads.some((l) => l.getSourceFile() === sf) && jsonLoadsIn(sf).some((l) => l.path === data.path)).map((sf) => sf.fileName)];
      const name = data.path.split('/').pop()!;
      if (elsewhere.length === 0) continue;
      const why = `${name} is also loaded by ${elsewhere.map((f) => f.split('/').pop()).join(', ')}, which is no test of v1 answers: it stays as it is, and so do the doubles that answer with it`;
      for (const d of decisions) d.why ??= why;
      for (const load of data.loads) this.sharedData.set(load, why);
    }
  }

  /** Doubles that share test data serve their calls together; each double's calls migrate together. */
  private tie(): void {
    const owners = new Map<ts.Node, DoubleDecision[]>();
    for (const d of this.decisions) for (const w of d.walks) for (const node of w.reached) owners.set(node, [...(owners.get(node) ?? []), d]);
    const groups = new Map<DoubleDecision, Set<DoubleDecision>>();
    for (const d of this.decisions) groups.set(d, new Set([d]));
    for (const sharing of owners.values()) {
      const merged = new Set(sharing.flatMap((d) => [...groups.get(d)!]));
      for (const d of merged) groups.set(d, merged);
    }
    for (const d of this.decisions) {
      if (d.why) for (const c of d.served) this.a.plan.demote(c, `${staysOnV1(c)} with its test double, the ${describeDouble(d.double)} (${placeOf(d.double.node, c.call.getSourceFile())}), which migrate-v2 cannot migrate with it: ${d.why}`);
    }
    for (const group of new Set(groups.values())) {
      const served = [...new Set([...group].flatMap((d) => [...d.served, ...(d.served.length > 0 ? (d.sharing ?? []) : [])]))];
      if (served.length < 2) continue;
      const d = [...group][0]!;
      const why = `this call is answered in a test by the ${describeDouble(d.double)} (${placeOf(d.double.node, served[0]!.call.getSourceFile())})${group.size > 1 ? ' (and doubles sharing its data)' : ''}, which also answers calls that stay on v1: they migrate together; migrate them by hand`;
      this.a.plan.together(served, why);
    }
  }

  private seed(d: DoubleDecision): void {
    if (d.double.kind === 'mock') this.answering.add(d.double.node);
    for (const reply of 'replies' in d.double ? d.double.replies : []) if ('call' in reply.form) this.answering.add(reply.form.call);
    if (d.why || d.served.length === 0) return;
    for (const walk of d.walks) {
      for (const [declaration, held] of walk.holders) {
        const sf = declaration.getSourceFile();
        const seeds = this.seeds.get(sf) ?? new Map<ts.Declaration, Shape>();
        seeds.set(declaration, { kind: held.kind, resource: held.resource, call: d.served[0]! } as Shape);
        this.seeds.set(sf, seeds);
      }
    }
  }
}

/** The resource whose v1 collection a text names (the longest that fits). */
function resourceNamed(text: string): ResourceContract | undefined {
  let best: ResourceContract | undefined;
  for (const r of RESOURCES) {
    const base = collectionBase(r, 'v1');
    const at = text.indexOf(base);
    const next = text[at + base.length];
    if (at >= 0 && (next === undefined || !/[A-Za-z0-9_]/.test(next)) && (!best || base.length > collectionBase(best, 'v1').length)) best = r;
  }
  return best?.modelled ? best : undefined;
}

function matcherName(e: Expectation): string {
  return (e.matcher.expression as ts.PropertyAccessExpression).name.text;
}

/** A literal that ends a request URL: it holds the query, or a regular expression anchors it at the end. */
export function wholeUrl(e: Expectation, text: string): boolean {
  if (ts.isRegularExpressionLiteral(e.node)) return /\$$/.test(e.node.text.slice(1, e.node.text.lastIndexOf('/')));
  return text.includes('?');
}

/**
 * Where a stub of a read by list names the id: the one key of nock's `.query({ id })` right after
 * the path, or the last hole of a path template ending in `?id=${...}`.
 */
export function idPlacement(d: Route, text: StaticText): { query: ts.CallExpression; id: ts.Expression } | { literal: ts.TemplateHead | ts.TemplateMiddle; id: ts.Expression } | undefined {
  const query = d.query;
  const object = query?.arguments[0];
  if (query && object && ts.isObjectLiteralExpression(object) && object.properties.length === 1 && query.expression.getText().endsWith(`${d.node.getText()}.query`) && ts.isStringLiteralLike(d.path)) {
    const p = object.properties[0]!;
    if (ts.isShorthandPropertyAssignment(p) && p.name.text === 'id') return { query, id: p.name };
    if (ts.isPropertyAssignment(p) && p.name.getText().replace(/['"]/g, '') === 'id') return { query, id: p.initializer };
  }
  const path = d.path;
  if (!query && ts.isTemplateExpression(path)) {
    const last = path.templateSpans[path.templateSpans.length - 1]!;
    const before = path.templateSpans.length > 1 ? path.templateSpans[path.templateSpans.length - 2]!.literal : path.head;
    if (last.literal.text === '' && before.text.endsWith('?id=') && !before.text.slice(0, -4).includes('?') && text.of(path)) return { literal: before as ts.TemplateHead | ts.TemplateMiddle, id: last.expression };
  }
  return undefined;
}
