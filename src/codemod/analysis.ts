/**
 * The codemod's one analysis of a program, before any edit: the v1 calls of every file (URLs
 * followed by symbol), the types that describe v1 values (by evidence), one decision per call and
 * the path edits that follow from them. Transforms only read it.
 */
import { ts } from 'ts-morph';
import { CallPlan, sendsFixedPut, staysOnV1, type UseIndex } from './call-plan.js';
import { answersAFunction, ARRAY_OF_ARRAY, CALLBACK_OVER_ELEMENTS, DataFlow, idHolders, type Held, type Shape } from './data-flow.js';
import { isProjectSource, ResourceTypes, type Container } from './resource-types.js';
import { functionOf, HOLE, returnedExpressions, StaticText, unwrap, type FollowedReference, type PathLiteral } from './static-text.js';
import { TypeEvidence } from './type-evidence.js';
import { answersReadOutOfSight, lostAnswer, valueUsed } from './lost-answers.js';
import { recordsReadBack } from './files-read-back.js';
import { harmlessCallee, readsNoFieldByName } from './callees-reading-nothing.js';
import { ofEntityAdapter } from './entity-adapters.js';
import { timesCompared } from './times-compared.js';
import { calleeOf, functionName, placeIn, placeOf } from './places.js';
import { forEachNode, isAssignment, isFallback, memberName, propertyOf, usesOf, writtenRecords } from './syntax.js';
import { keysReadIn, listedKeys, literalKey, namedKeyOf, ownKeysOf } from './named-keys.js';
import { listTakenOnly, missingBy, readsAsOne } from './read-one.js';
import { clientFieldRenames, deleteBodyChange, hasV1Path, renamesInWords, writeKeysInWords, fieldsBeyondHydration, fieldsGoneInV2, goneFieldNames, keysOnV2, precisionChange, renamedFieldNames, pluralWords, resourceOf, resourceOfPath, uidReferenceNames, uidReferences, V1_LIST_KEYS, type ResourceContract } from '../contract/index.js';
import { findV1Calls, parsedInChain, recognise, type V1Call } from './v1-calls.js';
import { nodesOf } from './file-nodes.js';
import { hasModifier } from './module-shape.js';
import { Wrappers, type Wrapper } from './wrappers.js';
import { readerGet, type ReaderGet } from './reader-gets.js';
import { pageSlot } from './list-readers.js';
import { answerTypesOf, strayV1Literals, type UnmigratedAnswerType } from './unmigrated-requests.js';
import type { CodemodConfig } from './config.js';
import { DoublePlan } from './double-plan.js';
import { NO_DATA, type DataAccess } from './data-files.js';
import { updateMask } from './update-masks.js';
import { filePaging, sendsPages, type ListPaging } from './paging.js';
import { resolversOf, type Resolver } from './graphql-resolvers.js';

/** Calls whose answer holds records of their kind, and calls that name a record by its id in the URL (its own, or a create's parent). */
const GIVES_RECORDS = new Set(['list', 'get-by-list', 'create', 'update']);

/** Where records a migrating call's URL may name come from, for keepWritesOfRecordsFromAnywhere: a call that stays, or a request no recognised call makes. */
interface RecordSource {
  node: ts.Node;
  resource: ResourceContract;
  /** The source as the note names it: `the group list`. */
  what: string;
}
const WRITES_BY_ID = new Set(['create', 'update', 'delete']);

export interface FileAnalysis {
  sf: ts.SourceFile;
  calls: V1Call[];
  unplaced: ts.CallExpression[];
  /** Why an unplaced call is not placed, where the path is not the reason. */
  unplacedWhy?: ReadonlyMap<ts.CallExpression, string>;
  flow: DataFlow;
}

type Holder = FollowedReference['declaration'];


export class Analysis {
  readonly files = new Map<ts.SourceFile, FileAnalysis>();
  readonly text: StaticText;
  readonly types: ResourceTypes;
  readonly plan: CallPlan;
  readonly wrappers: Wrappers;
  /** Types seen on values of calls that stay on v1 and of calls that migrate, and why they are left as they are. */
  readonly sharedTypes = new Map<Container, string>();
  private readonly names = new Map<string, ts.Identifier[]>();
  /** Inline list types written on a read of one record (`{ items: Group[] }`), with the record's type they become. */
  readonly readOneTypes = new Map<ts.TypeLiteralNode | ts.TypeReferenceNode, ts.TypeNode>();
  /** Type references with type arguments, for the v2 copies of shared generic list types. */
  readonly genericUses: ts.TypeReferenceNode[] = [];
  /** Types written on data parsed from text that is no API answer (`JSON.parse(raw) as Desired[]`). */
  private readonly dataTypes: ts.TypeNode[] = [];
  /** Types written on the answers of v1 requests that stay on v1 because no recognised call makes them or they cannot be placed. */
  private readonly unmigratedTypes: UnmigratedAnswerType[] = [];
  /** Names of the fields v2beta1 does not serve, as the contract stands for this run (assumptions may be rejected). */
  readonly goneFields = goneFieldNames();
  /** Functions the files hand to a GraphQL library, which reads what they return by the schema's field names. */
  private readonly resolvers: Resolver[];
  /** Reads of one record by `?id=` through a list reader, each with the Get request that replaces it. */
  readonly readerGets = new Map<V1Call, ReaderGet>();
  /** The test doubles of v1 (stubs, mocks, recordings, expectations) and their decisions. */
  readonly doubles: DoublePlan;

  constructor(
    readonly checker: ts.TypeChecker,
    candidates: readonly ts.SourceFile[],
    /** Whether files the analysis does not see import this one: then its exports have readers it cannot follow. */
    private readonly importedUnseen: (sf: ts.SourceFile) => boolean,
    config: CodemodConfig = { wrappers: [] },
    data: DataAccess = NO_DATA,
  ) {
    this.text = new StaticText(checker, new Map(), config.baseUrls ?? []);
    this.types = new ResourceTypes(checker);
    this.wrappers = new Wrappers(this.text, checker, config.wrappers);
    this.wrappers.find(candidates, (call) => recognise(call, this.text));
    for (const sf of candidates) {
      const scan = findV1Calls(sf, this.text, this.wrappers);
      this.files.set(sf, { sf, ...scan, flow: undefined as unknown as DataFlow });
    }
    this.plan = new CallPlan([...this.files.values()].flatMap((f) => f.calls), this.useIndex());
    this.keepListReadersWhole();
    this.keepListsOfWrappersWritingTheirQuery();
    this.keepWrappersReplacedByAssignment();
    this.keepUpdatesThroughPutWrappersTogether(data);
    this.doubles = new DoublePlan(this, candidates, data);
    // A test reads what the program's functions return: their files' flows come first, and a test's flow asks them.
    const ordered = [...this.files.values()].sort((x, y) => Number(this.doubles.hasDoubles(x.sf)) - Number(this.doubles.hasDoubles(y.sf)));
    const returnOf = (fn: ts.Node) => this.files.get(fn.getSourceFile())?.flow?.returnOf(fn);
    for (const file of ordered) file.flow = new DataFlow(file.sf, checker, file.calls, this.text, this.types, new Set(file.unplaced), this.doubles.seedsOf(file.sf), this.doubles.hasDoubles(file.sf) ? returnOf : undefined);
    this.resolvers = [...this.files.values()].flatMap((file) => resolversOf(file.sf, (n) => this.text.declarationOf(n)));
    for (const file of this.files.values()) collectGenericUses(file.sf, this.genericUses);
    for (const file of this.files.values()) collectDataTypes(file, this.dataTypes);
    const declarationOf = (n: ts.Node) => this.text.declarationOf(n);
    for (const file of this.files.values()) {
      const strays = this.strayLiterals(file.sf);
      this.unmigratedTypes.push(...answerTypesOf(file.sf, [...strays, ...file.unplaced], declarationOf));
      // A stray path's answer is typed where it is read, too: `useResource(routes.groups(), listOf<Group>)`.
      for (const reader of new Set(strays.flatMap((literal) => this.readersOf(literal)))) this.unmigratedTypes.push(...answerTypesOf(reader.getSourceFile(), [reader], declarationOf));
    }
    // A constant recognised calls read may be read by a request migrate-v2 does not recognise too
    // (`other(GROUPS, { name }) as { items: Group[] }`): that request stays on v1, and so do the keys of the types its answer is given.
    const recognised = new Set(this.plan.calls.map((c) => c.call));
    const followed = new Set(this.plan.calls.flatMap((c) => c.parts.literals.filter((l) => hasV1Path(l.text))));
    for (const literal of followed) {
      for (const reader of this.readersOf(literal)) if (!recognised.has(reader)) this.unmigratedTypes.push(...answerTypesOf(reader.getSourceFile(), [reader], declarationOf));
    }
    this.keepMeetingCallsTogether();
    this.keepCallsHeldTogether();
    this.keepDestructuredReads();
    this.keepUntestableReads();
    this.keepFieldNamesGivenAsText();
    this.keepKeysNamedElsewhere();
    this.keepAnswersTheFlowLoses();
    this.keepRecordsHandedOutOfSight();
    this.keepRecordsHandedToUnseenCallbacks();
    this.keepUntypedRecordsPutInObjects();
    this.keepUntypedRecordsMixedInLists();
    this.keepUntypedRecordsPutInMembers();
    this.keepRecordsGivenBackUnfollowed();
    this.keepUntypedRecordsReturnedToImporters();
    this.keepRecordsReturnedToGraphql();
    this.keepRecordsReadBackFromFiles();
    // Decisions and types depend on each other: a type shared with a call that stays on v1 keeps
    // its v1 names, which keeps its other calls on v1 too. Rounds of the checker's evidence and the
    // path plan settle it (rounds over the flow's evidence alone first cost more than they saved).
    this.settle(4);
    for (const file of this.files.values()) file.flow.typesSettled();
  }

  /**
   * `check(await withRetry(() => fetch(url)))` of a call that stays on v1: the flow does not reach
   * its answer, so no type was seen on it; the types written where it is held (`as { items: Group[] }`)
   * type v1 records all the same.
   */
  private lostAnswerTypes(): UnmigratedAnswerType[] {
    const seen = new Set([...this.types.seenOn.values()].flatMap((calls) => [...calls]));
    return [...this.files.values()].flatMap((file) => {
      // Made in a callback handed to a function of the program (a retry, a queue), whose answer comes out of it.
      const lost = file.calls.filter((c) => !this.plan.migrates(c) && !seen.has(c) && inCallback(c.call));
      if (lost.length === 0) return [];
      // A type in the request itself (its body, `repo as Partial<Repo>`) is no type of its answer.
      return answerTypesOf(file.sf, lost.map((c) => c.call), (n) => this.text.declarationOf(n), true).filter(({ type, request }) => type.pos < request.pos || type.end > request.end);
    });
  }

  /** Gathers type evidence and plans paths, keeping calls on v1, until a round keeps none. */
  private settle(rounds: number): void {
    for (let round = 0; round < rounds; round++) {
      this.types.reset();
      this.gatherEvidence();
      const kept = [this.keepReadsOfGoneFields(), this.markSharedTypes(), this.keepCallsTypedOutOfReach(), this.keepWritesOfV1Records(), this.keepAnswersHandedOutOfSight(), this.keepTypedRecordsHandedWithV1Paths(), this.plan.planPaths(), this.keepTimesComparedAcrossVersions()].some(Boolean);
      if (!kept) return;
    }
    this.plan.planPaths();
  }

  /** v1 path literals of a file that no recognised call or test double reads: requests migrate-v2 does not recognise, or no requests at all. */
  strayLiterals(sf: ts.SourceFile): PathLiteral[] {
    // Asked by the analysis and again by the paths transform: one walk of the file.
    let found = this.strays.get(sf);
    if (!found) this.strays.set(sf, (found = strayV1Literals(sf, (literal) => this.plan.readLiterals.has(literal) || this.doubles.literals.has(literal))));
    return found;
  }

  private readonly strays = new Map<ts.SourceFile, PathLiteral[]>();

  /**
   * `export const IAM_GROUPS = '/iam/v1/groups'` read as `this.http.get(BASE + IAM_GROUPS)`: the calls
   * of the analysed files that hand the constant (or the table member) holding a literal on in an
   * argument, for the note on a path no recognised call reads.
   */
  readersOf(literal: PathLiteral): ts.CallExpression[] {
    // Asked by the notes and, in every round, by the rule on records handed with the path: found once.
    let found = this.readers.get(literal);
    if (!found) this.readers.set(literal, (found = this.findReaders(literal)));
    return found;
  }

  private readonly readers = new Map<PathLiteral, ts.CallExpression[]>();

  private findReaders(literal: PathLiteral): ts.CallExpression[] {
    // `super(baseUrl, '/iam/v1/groups')`: the path handed on as it is written.
    const handed = handedAsWritten(literal);
    if (handed) return [handed];
    const holder = pathExpressionOf(literal);
    // `groups: () => '/iam/v1/groups'`: a route helper's path is read where the helper is called (`get(routes.groups())`).
    const named = ts.isArrowFunction(holder.parent) && holder.parent.body === holder ? holder.parent : holder;
    const declaration = named.parent;
    // A class's field (`private readonly groupsUrl = ...`) is read as `this.groupsUrl`.
    if (!(ts.isVariableDeclaration(declaration) || ts.isPropertyAssignment(declaration) || ts.isPropertyDeclaration(declaration)) || declaration.initializer !== named || !ts.isIdentifier(declaration.name)) return [];
    const name = declaration.name.text;
    const readers = new Set<ts.CallExpression>();
    for (const file of this.files.values()) {
      if (!file.sf.text.includes(name)) continue;
      for (const id of nodesOf(file.sf).of<ts.Identifier>(ts.SyntaxKind.Identifier)) {
        if (id.text !== name || id === declaration.name || this.text.declarationOf(id) !== declaration) continue;
        const call = readingCall(id);
        // Printing a path reads nothing from the API.
        if (call && !/^console\./.test(call.expression.getText(file.sf))) readers.add(call);
      }
    }
    return [...readers];
  }

  private callNodes?: Set<ts.CallExpression>;

  private readonly requesting = new Map<ts.Node, boolean>();

  /** Whether a call calls a function of the program that makes a request migrate-v2 recognises (one it does not take for a wrapper). */
  callsRequestingFunction(call: ts.CallExpression): boolean {
    const fn = functionOf(call.expression, (n) => this.text.declarationOf(n));
    if (!fn || !isProjectSource(fn.getSourceFile())) return false;
    let requests = this.requesting.get(fn);
    if (requests === undefined) this.requesting.set(fn, (requests = this.makesRequest(fn)));
    return requests;
  }

  /** Whether a function's body makes a request migrate-v2 recognises; with `wrapped`, through a wrapper of the program too. */
  private makesRequest(body: ts.Node, wrapped = false): boolean {
    let found = false;
    forEachNode(body, (n) => (found ||= ts.isCallExpression(n) && (recognise(n, this.text) !== undefined || (wrapped && this.wrappers.viaWrapper(n) !== undefined))));
    return found;
  }

  callsIn(sf: ts.SourceFile): readonly V1Call[] {
    return this.files.get(sf)?.calls ?? [];
  }

  isV1Call(node: ts.CallExpression): boolean {
    this.callNodes ??= new Set(this.plan.calls.map((c) => c.call));
    return this.callNodes.has(node);
  }

  /** A file's analysis; a file outside the candidates (one declaring resource types) gets one with no calls. */
  fileAnalysis(sf: ts.SourceFile): FileAnalysis {
    let file = this.files.get(sf);
    if (!file) {
      file = { sf, calls: [], unplaced: [], flow: new DataFlow(sf, this.checker, [], this.text, this.types) };
      this.files.set(sf, file);
    }
    return file;
  }

  private readonly masks = new Map<V1Call, string[] | undefined>();

  /** The fields a migrated update names in its updateMask; undefined when they cannot be known (`*`). */
  updateMask(call: V1Call): string[] | undefined {
    if (!this.masks.has(call)) this.masks.set(call, updateMask(call, (n) => this.text.declarationOf(n)));
    return this.masks.get(call);
  }

  private readonly paging = new Map<V1Call, ListPaging>();

  /** How a list call meets v2's pages (paging.ts), decided once per file after the decisions settle. */
  listPaging(call: V1Call): ListPaging {
    if (!this.paging.has(call)) {
      const file = this.fileAnalysis(call.call.getSourceFile());
      const decided = filePaging(file.sf, file.calls, (e) => this.migrating(file.flow.shapeOf(e)), (c) => file.flow.takesApart(c));
      for (const [c, p] of decided) this.paging.set(c, p);
    }
    return this.paging.get(call)!;
  }

  /** Whether a migrated list call asks for pages: its request gains the page parameters at the end of its query. */
  sendsPages(call: V1Call): boolean {
    return sendsPages(call, call.operation === 'list' && !call.via?.records ? this.listPaging(call) : undefined);
  }

  /** The calls a shape came from must migrate for its value to be a v2 value. */
  migrating(shape: Shape | undefined): Shape | undefined {
    if (!shape) return undefined;
    if ('call' in shape && shape.call && !this.plan.migrates(shape.call)) return undefined;
    return shape;
  }

  private gatherEvidence(): void {
    const evidence = new TypeEvidence(this.checker, this.types, (n) => this.text.declarationOf(n));
    for (const file of this.files.values()) {
      // Values of calls that stay on v1 pin their types to v1 names.
      for (const call of file.calls) this.types.within(call, !this.plan.migrates(call), () => evidence.gatherCall(call));
      this.types.within(undefined, false, () => evidence.gather(file.sf, file.flow, (call) => !this.plan.migrates(call)));
      file.flow.typesChanged();
    }
    for (const file of this.files.values()) evidence.gatherHeritage(file.sf, (call) => !this.plan.migrates(call));
  }

  /**
   * `api.getJson = async () => ({ items: [...] })` in a test: a wrapper replaced by an assignment
   * answers what the replacement gives, in v1's shape, which migrate-v2 does not rewrite (it is no
   * double it knows); the calls through that wrapper stay on v1.
   */
  private keepWrappersReplacedByAssignment(): void {
    for (const sf of this.files.keys()) {
      for (const node of nodesOf(sf).of<ts.BinaryExpression>(ts.SyntaxKind.BinaryExpression)) {
        if (node.operatorToken.kind !== ts.SyntaxKind.EqualsToken || !ts.isPropertyAccessExpression(node.left) || node.left.expression.kind === ts.SyntaxKind.ThisKeyword || !isReplacement(node.right)) continue;
        const fn = functionOf(node.left, (n) => this.text.declarationOf(n));
        const wrapper = fn && node.right !== fn ? this.wrappers.byFunction.get(fn) : undefined;
        if (!wrapper) continue;
        for (const call of this.plan.calls) {
          if (call.via === wrapper) this.plan.demote(call, `${staysOnV1(call)}: ${wrapper.name}() is replaced by an assignment ${placeIn(node, call.call.getSourceFile())}, whose answer keeps v1's shape where migrate-v2 does not follow it; migrate them together by hand`);
        }
      }
    }
  }

  /**
   * `byName(path, name)` requesting `${path}?name=${name}`: v2's page parameters would go after the
   * path its callers hand it, before the wrapper's own query, and break the URL; its lists stay on v1.
   */
  private keepListsOfWrappersWritingTheirQuery(): void {
    for (const call of this.plan.calls) {
      const wrapper = call.operation === 'list' ? call.via : undefined;
      if (!wrapper?.ownQuery) continue;
      const query = wrapper.ownQuery.split(HOLE).join('…');
      this.plan.demote(call, `${staysOnV1(call)}: ${wrapper.name}() writes its own query after the path it is handed (?${query}), where v2's page parameters would have to go too, which migrate-v2 cannot add through it: migrate ${wrapper.name}() by hand`);
    }
  }

  /**
   * A list reader reads every caller's records in one place: its calls migrate together, and only
   * lists may go through it. A read of one record by `?id=` through it becomes a Get of its own at
   * the call site when the reader's request can be written there (reader-gets.ts).
   */
  private keepListReadersWhole(): void {
    const runTimePaths = this.readersGivenRunTimePaths();
    for (const wrapper of this.wrappers.byFunction.values()) {
      if (!wrapper.records) continue;
      const calls = this.plan.calls.filter((c) => c.via === wrapper);
      let unreadable: string | undefined;
      for (const call of calls) {
        if (call.operation !== 'get-by-list' || !call.resource.v2.endpoints.get) continue;
        const get = readerGet(call, this.checker, this.text);
        if (typeof get === 'string') unreadable ??= `one of them reads one ${call.resource.singular} by ?id= (v2 has Get for that, which ${wrapper.name}() cannot make: ${get})`;
        else this.readerGets.set(call, get);
      }
      const listed = calls.filter((c) => !this.readerGets.has(c));
      const odd = listed.find((c) => c.operation !== 'list' || c.resource.v1.endpoints.list?.paginated) ?? [...this.files.values()].some((f) => f.unplaced.some((u) => this.wrappers.viaWrapper(u)?.via === wrapper));
      const handed = runTimePaths.get(wrapper);
      const handedAny = handed
        ? `one of them is handed a path known only at run time (which may be a v1 path), the one ${placeIn(handed, handed.getSourceFile())}`
        : wrapper.fn && this.importedUnseen(wrapper.fn.getSourceFile())
          ? 'modules that import it from outside the run may hand it v1 paths'
          : undefined;
      const slot = pageSlot(wrapper.records, this.checker);
      const unpaged = 'why' in slot && listed.length > 0 ? `the pages v2 answers cannot join its request: ${slot.why}` : undefined;
      const why = `${wrapper.name}() reads the records of every list it is handed in one place, and v2 names them per kind: its calls migrate together, and ${unreadable ?? handedAny ?? unpaged ?? (odd ? 'one of them cannot (it is no plain v1 list)' : 'one of them stays on v1')}, so none does; migrate ${wrapper.name}() by hand`;
      if (odd || unreadable || handedAny || unpaged) {
        for (const call of calls) {
          this.plan.demote(call, why);
          this.readerGets.delete(call);
        }
      } else this.plan.together(listed, why);
    }
  }

  /**
   * List readers some call hands a path the analysis does not know (`for (const [kind, path] of
   * Object.entries(API)) get(path)`), each with the first call that does, for the note: migrated,
   * the reader would read that list as v2's too.
   */
  private readersGivenRunTimePaths(): Map<Wrapper, ts.CallExpression> {
    const readers = [...this.wrappers.byFunction.values()].filter((w) => w.records);
    const out = new Map<Wrapper, ts.CallExpression>();
    if (readers.length === 0) return out;
    const names = new Set(readers.map((w) => w.name));
    const known = new Set(this.plan.calls.map((c) => c.call));
    for (const file of this.files.values()) {
      for (const node of nodesOf(file.sf).of<ts.CallExpression>(ts.SyntaxKind.CallExpression)) {
        const callee = ts.isPropertyAccessExpression(node.expression) ? node.expression.name : node.expression;
        if (!ts.isIdentifier(callee) || !names.has(callee.text) || known.has(node) || file.unplaced.includes(node)) continue;
        const via = this.wrappers.viaWrapper(node)?.via;
        if (via?.records && !out.has(via)) out.set(via, node);
      }
    }
    return out;
  }

  /**
   * Values of several calls handed to one parameter of the program's function (`label(g)`, a type
   * guard): the function reads them one way, so the calls migrate together. The list of a read of
   * one record handed on with others does not migrate: on v2 it is the record itself, theirs a list.
   */
  private keepMeetingCallsTogether(): void {
    for (const file of this.files.values()) {
      for (const [parameter, { calls, kind }] of file.flow.parameterMeetings()) {
        if (calls.length < 2) continue;
        const where = describeParameter(parameter);
        if (kind !== 'resource' && calls.some((c) => c.operation === 'get-by-list')) {
          for (const call of calls) this.plan.demote(call, `this ${call.resource.singular} ${call.operation} hands its answer to ${where} with those of other calls, one of them a read of one ${call.resource.singular} by ?id=, which answers the record itself on v2, not a list: migrate them by hand`);
        } else this.plan.together(calls, `these calls hand their answers to ${where}, which reads them one way, and one of them stays on v1, so none migrates`);
      }
      for (const [parameter, held, open] of file.flow.mixedParameters()) {
        const which = open ? 'is also used where migrate-v2 does not follow (exported, handed on, or a method another class may call or override)' : 'is handed other values too';
        const read = changingRead(parameter, held);
        const keys = read ? undefined : this.keysReadOfRecords(parameter, held);
        const walk = read || keys ? undefined : walkedByUnseenCallback(parameter, (cb) => file.flow.followsCallback(cb), (n) => this.text.declarationOf(n));
        for (const { call } of read ? held : keys ? held.filter((h) => h.kind === 'resource') : walk ? held.filter((h) => h.kind === 'array') : []) {
          const what = read
            ? `reads their ${read.v1}: v2 names it ${read.v2} on API records only`
            : keys
              ? `reads their keys as they come (${keys.getText(file.sf)}), where v2 ${keysOnV2(call!.resource)}`
              : `hands them one by one to ${walk!.getText(file.sf)}, which reads them where migrate-v2 does not follow (${renamesInWords(call!.resource)})`;
          this.plan.demote(call!, `this ${call!.resource.singular} ${call!.operation} hands its answer to ${describeParameter(parameter)}, which ${which} and ${what}; migrate them by hand`);
        }
      }
    }
  }

  /** Where a function reads the keys of the records a parameter is handed as they come (`Object.keys(live)`, `key in live`, `live[key]`). */
  private keysReadOfRecords(parameter: ts.ParameterDeclaration, held: readonly Held[]): ts.Node | undefined {
    if (!held.some((h) => h.kind === 'resource' && keysOnV2(h.resource))) return undefined;
    return keysReadIn(parameter.parent, parameter, (n) => this.text.declarationOf(n), (key) => this.text.textOf(key) !== undefined);
  }

  /**
   * Values of several calls held in one variable (`let g = await find(name)`, later `g = await
   * res.json()` of a create): read one way, the calls migrate together. Where a read could see
   * values of different kinds (a group list's answer or a repo list's, after a branch), the flow
   * gives it none, and the calls stay on v1.
   */
  private keepCallsHeldTogether(): void {
    for (const file of this.files.values()) {
      for (const { declaration, alike, calls, ambiguous } of file.flow.heldTogether()) {
        const name = declaration.name.getText(file.sf);
        for (const together of alike) this.plan.together(together, `these calls give their answers to ${name} (${placeOf(declaration, file.sf)}), which is read one way, and one of them stays on v1, so none migrates`);
        const [read] = ambiguous;
        if (!read) continue;
        for (const call of calls) this.plan.demote(call, `${staysOnV1(call)}: its answer is held in ${name} with answers of other kinds, and ${name} is read (${placeOf(read, file.sf)}) where more than one of them may be there; migrate-v2 does not tell which; migrate them by hand`);
      }
    }
  }

  /**
   * Records handed to a function the run does not see with a field's name as text beside them
   * (`_.keyBy(groups, 'id')`, `_.get(binding, 'group.id')`, `JSON.stringify(g, ['id', 'name'])`):
   * the function reads the field by its v1 name, and text is not rewritten on a guess, so the call
   * that gives the records stays on v1. So does one naming a reference v2 gives in another form
   * (`_.map(bindings, 'identity')`: uids on v1, records on v2). A function of the analysed files is followed instead.
   */
  private keepFieldNamesGivenAsText(): void {
    for (const file of this.files.values()) {
      for (const node of nodesOf(file.sf).of<ts.CallExpression>(ts.SyntaxKind.CallExpression)) {
        // lodash's `_.find(groups, { id })` matches records by the keys of an object: names given as text too.
        const keysToo = file.flow.collection(node) !== undefined;
        const texts = node.arguments.flatMap((a) => textsOf(a, keysToo, (n) => this.text.declarationOf(n))).filter((t) => t.split('.').some((part) => this.renamedFields.has(part) || this.uidReferenceNames.has(part)));
        // `Object.hasOwn(g, 'id')` tests a field by name: the renames rewrite it, or keepKeysNamedElsewhere keeps its call.
        if (texts.length === 0 || this.isV1Call(node) || /^console\./.test(node.expression.getText(file.sf)) || namedKeyOf(node)) continue;
        for (const argument of node.arguments) {
          const shape = ts.isExpression(argument) ? file.flow.shapeOf(argument) : undefined;
          if (!shape?.call || (shape.kind !== 'resource' && shape.kind !== 'array') || !this.plan.migrates(shape.call)) continue;
          const renames = clientFieldRenames(shape.resource);
          const references = uidReferences(shape.resource);
          const changes = (part: string) => renames.has(part) || references.has(part);
          const named = texts.find((t) => t.split('.').some(changes));
          if (!named || this.followsInto(node)) continue;
          const part = named.split('.').find(changes)!;
          const v2 = renames.has(part) ? `v2 names ${part} ${renames.get(part)}` : `v2 gives ${part} as the record, its uid at ${references.get(part)}`;
          const callee = calleeOf(node);
          this.plan.demote(shape.call, `this ${shape.call.resource.singular} ${shape.call.operation} hands its records to ${callee}() with the field name '${named}' as text: ${v2}, and migrate-v2 does not rewrite names given as text; migrate them by hand`);
        }
      }
    }
  }

  /**
   * An update or create whose body holds a record of a call that stays on v1 (`JSON.stringify(a)`,
   * `{ ...a, name }`) stays too: the body carries v1's names, which v2 refuses as unknown fields.
   */
  private keepWritesOfV1Records(): boolean {
    // Both asked every round: a kept write found by one may be the other's reason.
    const fromAnywhere = this.keepWritesOfRecordsFromAnywhere();
    let kept = this.keepRecordsWrittenBackOnV1() || fromAnywhere;
    for (const file of this.files.values()) {
      for (const call of file.calls) {
        if (!call.body || (call.operation !== 'update' && call.operation !== 'create') || !this.plan.migrates(call)) continue;
        // `apply(current, ops)`: a body made by a function from a record carries the names that record has.
        const written = writtenRecords(call.body, (n) => this.text.declarationOf(n)).flatMap((e) => {
          const made = unwrap(ts.isAwaitExpression(unwrap(e)) ? (unwrap(e) as ts.AwaitExpression).expression : e);
          return [{ e, made: false }, ...(ts.isCallExpression(made) ? made.arguments.map((a) => ({ e: a, made: true })) : [])];
        });
        const read = written.flatMap(({ e, made }) => {
          const shape = file.flow.shapeOf(e);
          return shape?.kind === 'resource' && shape.call && !this.plan.migrates(shape.call) ? [{ call: shape.call, made }] : [];
        })[0];
        if (!read) continue;
        const what = `${read.call.resource.singular} ${read.call.operation} (${placeOf(read.call.call, call.call.getSourceFile())})`;
        this.plan.demote(call, `${staysOnV1(call)}: its body is ${read.made ? 'made from a record' : 'a record'} of the ${what}, which stays on v1, and carries v1's field names`);
        kept = true;
      }
    }
    return kept;
  }

  /**
   * Records typed by an interface of a declaration file (`globals.d.ts`, a package's types) that
   * names a field v2 renames: the codemod rewrites no declaration file, so reads through that type
   * would keep v1's names; the calls whose values it types stay on v1. So do those typed by a type
   * that takes such a field from a named base (ResourceTypes.inheriting), which may type other values.
   */
  private keepCallsTypedOutOfReach(): boolean {
    let kept = false;
    for (const [container, calls] of this.types.unwritable) {
      const type = ts.isInterfaceDeclaration(container) ? container.name.text : 'a type';
      const file = container.getSourceFile().fileName.split('/').pop();
      for (const call of calls as Set<V1Call>) {
        if (!this.plan.migrates(call)) continue;
        this.plan.demote(call, `${staysOnV1(call)}: its records are typed by ${type} of ${file}, a declaration file migrate-v2 does not rewrite, which names fields v2 renames (${renamesInWords(call.resource)}); move ${type} into a source file or migrate it by hand`);
        kept = true;
      }
    }
    for (const [list, calls] of this.types.jsDocLists) {
      const name = ts.isJSDocTypedefTag(list.parent) && list.parent.name ? list.parent.name.getText() : 'a JSDoc type';
      for (const call of calls as Set<V1Call>) {
        if (!this.plan.migrates(call)) continue;
        const file = list.getSourceFile() === call.call.getSourceFile() ? '' : ` (${list.getSourceFile().fileName.split('/').pop()})`;
        const key = call.resource.v1.endpoints.list!.envelopeKey;
        this.plan.demote(call, `${staysOnV1(call)}: its answer is typed by ${name}${file}, a JSDoc list written with @property tags, whose key (${key}) and page fields migrate-v2 does not rewrite; write it as a type literal (@typedef {{ ${key}: ... }}) or migrate it by hand`);
        kept = true;
      }
    }
    for (const [literal, calls] of this.types.inferred) {
      const value = valueNamed(literal);
      for (const call of calls as Set<V1Call>) {
        if (!this.plan.migrates(call)) continue;
        const where = placeOf(literal, call.call.getSourceFile()).replace(/^in top-level code$/, '');
        this.plan.demote(call, `${staysOnV1(call)}: its records are typed by a type inferred from ${value}${where ? ` (${where})` : ''}, whose keys name fields v2 renames (${renamesInWords(call.resource)}); migrate-v2 renames the members of types written out, not the keys of a value, which may do more than type records (a schema's keys decide what it accepts): rename them there by hand, or write the record type out`);
        kept = true;
      }
    }
    for (const { type, base, calls } of this.types.inheriting.values()) {
      const members = ts.isInterfaceDeclaration(base) ? base.members : ts.isTypeLiteralNode(base.type) ? base.type.members : undefined;
      const names = new Set(members?.flatMap((m) => (m.name && (ts.isIdentifier(m.name) || ts.isStringLiteral(m.name)) ? [m.name.text] : [])));
      for (const call of calls as Set<V1Call>) {
        if (!this.plan.migrates(call)) continue;
        const inherited = [...clientFieldRenames(call.resource)].filter(([v1]) => names.has(v1)).map(([v1, v2]) => `${v1} -> ${v2}`).join(', ');
        this.plan.demote(call, `${staysOnV1(call)}: its records are typed by ${type}, which takes fields v2 renames (${inherited}) from ${base.name.text} (${base.getSourceFile().fileName.split('/').pop()}); migrate-v2 renames what a record type declares itself, not what it extends, which may type other values too: declare those fields in ${type}, or migrate ${base.name.text} by hand`);
        kept = true;
      }
    }
    return kept;
  }

  /** A path as it evaluates, for a note: what is known at run time only is left out (the source may hold reads this run renames). */
  private evaluated(path: ts.Expression): string {
    return (this.text.of(path)?.text ?? HOLE).replaceAll(HOLE, '…');
  }

  /**
   * `writeFileSync(FILE, JSON.stringify(groups))` of a program that reads FILE back (a snapshot, a
   * cache): migrated, a file written before holds v1's keys and one written after v2's, and the
   * program's reads of it keep one of them (parsed text is no API answer): the call stays on v1.
   */
  private keepRecordsReadBackFromFiles(): void {
    for (const { call, write, read, path } of recordsReadBack([...this.files.values()], (n) => this.text.declarationOf(n))) {
      if (!this.plan.migrates(call)) continue;
      const where = placeOf(read, write.getSourceFile()).replace(/^in top-level code$/, 'in this file');
      const file = ts.isIdentifier(unwrap(path)) ? unwrap(path).getText() : this.evaluated(path);
      this.plan.demote(call, `${staysOnV1(call)}: its ${call.resource.singular} records are written to ${file} (${calleeOf(write)}()), which this program reads back (${calleeOf(read)}(), ${where}) by the keys they were written with; migrated, files written before hold v1's names and those written after v2's (${renamesInWords(call.resource)}): migrate the call and the file's readers together by hand`);
    }
  }

  /**
   * The converse: a write that stays on v1 (`PUT /registry/v1/tags/...`: v2beta1 has no tag update)
   * whose body holds a record of a call that would migrate (`{ ...tag, deprecated: true }`): that
   * call stays too, since v1 refuses a body in v2's names (`uid`, `createTime`) as unknown fields.
   */
  private keepRecordsWrittenBackOnV1(): boolean {
    let kept = false;
    const declarationOf = (n: ts.Node) => this.text.declarationOf(n);
    for (const file of this.files.values()) {
      const writes = [
        ...file.calls.filter((w) => w.body && (w.operation === 'update' || w.operation === 'create') && !this.plan.migrates(w)).map((w) => ({ node: w.call, bodies: [w.body!], what: `the ${w.resource.singular} ${w.operation}` })),
        // A v1 call the contract cannot place (its method chosen at run time: `fetch(url, { method, body })`) stays on v1 whatever it sends.
        ...file.unplaced.map((u) => ({ node: u, bodies: u.arguments.slice(1).flatMap((a) => [...sentBody(a), ...bodiesSetOn(a, declarationOf)]), what: 'a v1 call migrate-v2 does not migrate' })),
      ];
      for (const write of writes) {
        for (const e of write.bodies.flatMap((b) => writtenRecords(b, declarationOf))) {
          const shape = file.flow.shapeOf(e);
          if (shape?.kind !== 'resource' || !shape.call || shape.call.call === write.node || !this.plan.migrates(shape.call)) continue;
          this.plan.demote(shape.call, `${staysOnV1(shape.call)}: its record is written back by ${write.what} (${placeOf(write.node, file.sf)}), which stays on v1, where a body in v2's names (${renamesInWords(shape.call.resource)}) is refused; migrate them together`);
          kept = true;
        }
      }
    }
    return kept;
  }

  /**
   * `PUT /identities/${alice.id}` where the flow knows `alice` only from this URL (it came through a
   * cache, a lookup): while a call that gives such records stays on v1, `alice` may be one of its v1
   * records, whose `.uid` is undefined on v2. The write stays on v1 with its source. So does a read
   * (`?uidp.children_of=${parent.id}`) while such a call of its own file stays (`parent` read from
   * its answer where the flow lost it): a read is not kept for a source elsewhere in the program.
   */
  private keepWritesOfRecordsFromAnywhere(): boolean {
    let kept = false;
    const sources: RecordSource[] = [
      ...[...this.files.values()].flatMap((f) => f.calls).filter((c) => GIVES_RECORDS.has(c.operation) && !this.plan.migrates(c)).map((c) => ({ node: c.call, resource: c.resource, what: `the ${c.resource.singular} ${c.operation}` })),
      // A request no recognised call makes (a client migrate-v2 does not know: ofetch, wretch) may give such records too, and stays on v1.
      ...[...this.files.values()].flatMap((f) => this.strayLiterals(f.sf)).flatMap((literal) => {
        const resource = resourceOfPath(literal.text, 'v1');
        return resource ? [{ node: literal, resource, what: `a request of ${pluralWords(resource)} that migrate-v2 does not recognise` }] : [];
      }),
    ];
    if (sources.length === 0) return false;
    for (const file of this.files.values()) {
      for (const call of file.calls) {
        if (!this.plan.migrates(call)) continue;
        const writes = WRITES_BY_ID.has(call.operation);
        let source: RecordSource | undefined;
        const holder = idHolders(call.urlNode).find((id) => {
          const shape = file.flow.shapeOf(id);
          // One of the file's own sources, if it has one: the nearest the note can name.
          const ofKind = shape?.kind === 'resource' && shape.weak && shape.call === call ? sources.filter((c) => c.resource === shape.resource && (writes || c.node.getSourceFile() === file.sf)) : [];
          source = ofKind.find((c) => c.node.getSourceFile() === file.sf) ?? ofKind[0];
          return source !== undefined;
        });
        if (!holder || !source) continue;
        const where = placeOf(source.node, file.sf).replace(/^in top-level code$/, "in this file's top-level code");
        this.plan.demote(call, `${staysOnV1(call)}: migrate-v2 does not see where ${holder.text} comes from, and ${source.what} (${where}) stays on v1: ${holder.text} may be one of its v1 records`);
        kept = true;
      }
    }
    return kept;
  }

  /**
   * A timestamp of a migrating call compared with one of a call that stays on v1 (times-compared.ts):
   * the migrating call stays too, so that both texts keep v1's precision and the comparison its answer.
   */
  private keepTimesComparedAcrossVersions(): boolean {
    let kept = false;
    for (const file of this.files.values()) {
      for (const { at, sides, untraced } of timesCompared(file.sf, file.flow, (n) => this.text.declarationOf(n), (value) => this.types.callSeenOn(this.checker.getTypeAtLocation(value)) as V1Call | undefined)) {
        const moving = sides.find((s) => this.plan.migrates(s.call));
        if (moving && untraced) {
          const { call } = moving;
          this.plan.demote(call, `${staysOnV1(call)}: its records' ${moving.field} is compared (${placeOf(at, call.call.getSourceFile())}) with ${untraced.node.getText(file.sf)}, ${untraced.what}: ${precisionChange()}, so the two texts no longer compare as they did (equal ones differ); migrate it by hand`);
          kept = true;
          continue;
        }
        const staying = sides.find((s) => !this.plan.migrates(s.call));
        if (!moving || !staying) continue;
        const { call } = moving;
        this.plan.demote(call, `${staysOnV1(call)}: its records' ${moving.field} is compared (${placeOf(at, call.call.getSourceFile())}) with that of the ${staying.call.resource.singular} ${staying.call.operation} (${placeOf(staying.call.call, call.call.getSourceFile())}), which stays on v1: ${precisionChange()}, so the two texts no longer compare as they did (equal ones differ); migrate them together`);
        kept = true;
      }
    }
    return kept;
  }

  /** `g[SORT_KEY]`, `KEY in g`: a record's renamed field named by text held apart from it (named-keys.ts), which no rename follows. */
  private keepKeysNamedElsewhere(): void {
    const kinds = [ts.SyntaxKind.ElementAccessExpression, ts.SyntaxKind.BinaryExpression, ts.SyntaxKind.CallExpression];
    for (const file of this.files.values()) {
      for (const node of kinds.flatMap((kind) => nodesOf(file.sf).of(kind))) {
        const named = namedKeyOf(node);
        if (!named || literalKey(named) || ts.isNumericLiteral(unwrap(named.key))) continue;
        const declarationOf = (n: ts.Node) => this.text.declarationOf(n);
        const texts = [this.text.textOf(named.key) ?? listedKeys(named.key, declarationOf)].flat();
        const text = texts.find((t) => t !== undefined && this.renamedFields.has(t));
        if (texts[0] !== undefined && text === undefined) continue;
        const shape = file.flow.shapeOf(named.record);
        if (!shape?.call || shape.kind !== 'resource' || !this.plan.migrates(shape.call)) continue;
        const key = named.key.getText(file.sf);
        // A key known only when the program runs may name any field: the record's keys are not v1's on v2.
        if (text === undefined) {
          const own = ownKeysOf(named.key, declarationOf);
          const ownShape = own && file.flow.shapeOf(own);
          // Its own keys (`header.map((k) => g[k])` of `Object.keys(rows[0])`): noted where they are read whole.
          if (ownShape && 'resource' in ownShape && ownShape.call === shape.call) continue;
          this.plan.demote(shape.call, `${staysOnV1(shape.call)}: its records' fields are read by ${key}, a key known only when the program runs (${node.getText(file.sf)}), where v2 ${keysOnV2(shape.resource)}; migrate them by hand`);
          continue;
        }
        const to = clientFieldRenames(shape.resource).get(text);
        if (to) this.plan.demote(shape.call, `${staysOnV1(shape.call)}: its records' field ${text} is named by ${key}, held apart from the record, and v2 names it ${to}; migrate-v2 does not rewrite such names; migrate them by hand`);
      }
    }
  }

  /** A call whose answer goes where the flow does not follow it, and is read there (lost-answers.ts), stays on v1. */
  private keepAnswersTheFlowLoses(): void {
    for (const file of this.files.values()) {
      for (const call of file.calls) {
        const lost = this.plan.migrates(call) ? lostAnswer(call.call, file.flow) : undefined;
        // A delete's parsed answer is {} on both versions (deletes.ts reads v2's empty body so): nothing is lost with it.
        if (!lost || (call.operation === 'delete' && lost.parsed)) continue;
        this.plan.demote(call, `${staysOnV1(call)}: its answer ${lost.why}, and migrate-v2 does not follow it there (its fields, envelope and pages); migrate it by hand`);
      }
      for (const { call, why, text, response } of answersReadOutOfSight(file.sf, file.flow, (n) => this.text.declarationOf(n))) {
        if (!this.plan.migrates(call)) continue;
        // A delete's answer parsed where deletes.ts sees it is {} on both versions; its text is not, nor one parsed out of its sight.
        const deleted = call.operation === 'delete' ? deleteBodyChange(call.resource) : undefined;
        if (call.operation === 'delete' && !text && !(response && deleted)) continue;
        const what = text ? '' : deleted ? `, where ${deleted}` : ' (its fields, envelope and pages)';
        this.plan.demote(call, `${staysOnV1(call)}: its answer ${why}${what}; migrate it by hand`);
      }
    }
  }

  /**
   * `ListSchema.parse(await res.json())`, `validate(body)`, `audit(identity)`, `res.json(groups)` of a
   * server: an answer handed to a function the run does not see is read there by v1's envelope key
   * and field names (or passed on to other readers); migrated, the call would change its path, pages
   * and the reads the flow sees, but not those. Not: printing, serialising, comparing whole, the
   * holders the flow follows, lodash's functions, the program's functions it follows, a test double.
   */
  private keepAnswersHandedOutOfSight(): boolean {
    let kept = false;
    for (const file of this.files.values()) {
      for (const node of nodesOf(file.sf).of<ts.CallExpression>(ts.SyntaxKind.CallExpression)) {
        if (node.arguments.length === 0 || this.isV1Call(node) || this.doubles.answering.has(node)) continue;
        for (const [i, arg] of node.arguments.entries()) {
          const shape = file.flow.shapeOf(ts.isSpreadElement(arg) ? arg.expression : arg);
          if (!shape || !('resource' in shape) || !shape.call || !this.plan.migrates(shape.call)) continue;
          // lodash's functions are keepRecordsHandedOutOfSight's.
          if (readsNoFieldByName(node, (e) => file.flow.shapeOf(e)) || file.flow.collection(node)) break;
          // `httpJson('PUT', \`${GROUPS}/${g.id}\`, g)` over node:http: a request migrate-v2 does not recognise, to v1, sends them there.
          const path = node.arguments.find((other) => other !== arg && !ts.isSpreadElement(other) && hasV1Path(this.text.of(other)?.text ?? ''));
          if (path) {
            this.plan.demote(shape.call, `${staysOnV1(shape.call)}: its ${shape.call.resource.singular} records are handed to ${calleeOf(node)}() with a v1 path (${this.evaluated(path)}), a request migrate-v2 does not recognise, which stays on v1, where a body in v2's names (${renamesInWords(shape.call.resource)}) is refused; migrate them together by hand`);
            kept = true;
            break;
          }
          // The program's functions are followed through their types once those are known (asked last: the checker costs more than the shapes).
          if (ofEntityAdapter(node, (n) => this.text.declarationOf(n)) || this.followsInto(node, { index: i, held: shape })) break;
          const callee = calleeOf(node);
          const what = shape.kind === 'envelope' ? 'its answer is handed whole' : `its ${shape.call.resource.singular} records are handed`;
          this.plan.demote(shape.call, `${staysOnV1(shape.call)}: ${what} to ${callee}(), which reads ${shape.kind === 'envelope' ? 'it' : 'them'} where migrate-v2 does not follow (${shape.kind === 'envelope' ? 'its envelope, fields and pages' : renamesInWords(shape.call.resource)}); migrate it by hand`);
          kept = true;
          break;
        }
      }
    }
    return kept;
  }

  /**
   * `this.destroyAt('/iam/v1/groups', g)` of `g: Group` where the flow does not know which call `g`
   * came from: the v1 path no recognised call reads stays on v1, and the records handed with it to the
   * same function are read there by v1's names (`${path}/${record.id}`); the calls their record type
   * is seen on stay with it. Asked in rounds: the record types are learned there.
   */
  private keepTypedRecordsHandedWithV1Paths(): boolean {
    let kept = false;
    for (const file of this.files.values()) {
      for (const literal of this.strayLiterals(file.sf)) {
        for (const reader of this.readersOf(literal)) {
          // Only a request the run does not recognise reads the records by v1's names: a cache's key is no request.
          if (!this.callsRequestingFunction(reader)) continue;
          for (const arg of reader.arguments) {
            if (ts.isSpreadElement(arg) || (literal.pos >= arg.pos && literal.end <= arg.end)) continue;
            const owner = this.types.recordTypeOf(this.checker.getTypeAtLocation(arg));
            for (const call of ((owner && this.types.seenOn.get(owner)) ?? []) as Set<V1Call>) {
              if (!this.plan.migrates(call)) continue;
              this.plan.demote(call, `${staysOnV1(call)}: its ${call.resource.singular} records (${containerName(owner!)}) are handed to ${calleeOf(reader)}() ${placeIn(reader, call.call.getSourceFile())} with a v1 path no call migrate-v2 recognises reads, which stays on v1 and reads them by v1's names (${renamesInWords(call.resource)}); migrate them together by hand`);
              kept = true;
            }
          }
        }
      }
    }
    return kept;
  }

  /**
   * `body.items.map(Group.parse)`, `groups.filter(validate)`, `repos.filter(isRepo)` of another
   * module: records handed one by one to a function the flow does not follow, which reads them by
   * v1's names (a schema, a guard); the call that gives them stays on v1.
   */
  private keepRecordsHandedToUnseenCallbacks(): void {
    for (const file of this.files.values()) {
      for (const node of nodesOf(file.sf).of<ts.CallExpression>(ts.SyntaxKind.CallExpression)) {
        const method = ts.isPropertyAccessExpression(node.expression) && CALLBACK_OVER_ELEMENTS.has(node.expression.name.text) ? node.expression : undefined;
        const callback = method && node.arguments[0];
        if (!method || !callback || harmlessCallee(unwrap(callback).getText(file.sf))) continue;
        const shape = file.flow.shapeOf(method.expression);
        if (shape?.kind !== 'array' || !shape.call || !this.plan.migrates(shape.call) || file.flow.followsCallback(callback) || this.follows(unwrap(callback), { index: 0, held: { ...shape, kind: 'resource' } })) continue;
        this.plan.demote(shape.call, `${staysOnV1(shape.call)}: its records are handed one by one to ${callback.getText(file.sf)}, which reads them where migrate-v2 does not follow (${renamesInWords(shape.call.resource)}); migrate it by hand`);
      }
    }
  }

  /**
   * `_.flatten(_.chunk(identities, 2))`, `_.reduce(groups, ...)`: a function of the library that hands
   * records on in a form the flow does not follow, or to callbacks it does not know of, where they are
   * read by their v1 names; the call that gives them stays on v1.
   */
  private keepRecordsHandedOutOfSight(): void {
    for (const file of this.files.values()) {
      for (const node of nodesOf(file.sf).of<ts.CallExpression>(ts.SyntaxKind.CallExpression)) {
        const library = file.flow.collection(node);
        // A known function's callbacks are followed: used as a statement, it hands nothing on.
        if (!library || library.followed || (library.known && ts.isExpressionStatement(node.parent))) continue;
        const shape = file.flow.shapeOf(library.collection);
        if (!shape?.call || !('resource' in shape) || !this.plan.migrates(shape.call)) continue;
        this.plan.demote(shape.call, `${staysOnV1(shape.call)}: its records go into ${calleeOf(node)}(), whose answer migrate-v2 does not follow (its fields, ${renamesInWords(shape.call.resource)}); migrate it by hand`);
      }
    }
  }

  /**
   * `{ group: g }`, `{ list: items }`, `return { newest }`: records put in an object literal are read
   * later through its members (`row.group.id`), where the flow does not follow them. A record typed
   * by a resource type is followed there by its type; an untyped one (`any`, a script's JSON) keeps
   * its call on v1. Not: an object printed or serialised whole, or the arguments of a v1 call.
   */
  private keepUntypedRecordsPutInObjects(): void {
    for (const file of this.files.values()) {
      for (const literal of nodesOf(file.sf).of<ts.ObjectLiteralExpression>(ts.SyntaxKind.ObjectLiteralExpression)) {
        for (const property of literal.properties) {
          const value = ts.isPropertyAssignment(property) ? property.initializer : ts.isShorthandPropertyAssignment(property) ? property.name : undefined;
          const shape = value && file.flow.shapeOf(value);
          if (!shape?.call || !('resource' in shape) || !this.plan.migrates(shape.call)) continue;
          if (!this.saysNothing(this.checker.getTypeAtLocation(value!)) || this.seenWhole(literal)) continue;
          const member = property.name!.getText(file.sf);
          this.plan.demote(shape.call, recordsOutOfSight(shape.call, `in an object (${member}: ...), whose members`));
        }
      }
    }
  }

  /**
   * `acc.oldest = identity` on an accumulator, `res.locals.group = g`: records put in a member of a
   * value the flow does not follow, read later through it (`acc.oldest.createdAt`). Untyped, the
   * call stays on v1 with a note; a member the flow follows (a class field, an index by key) is read
   * as the records.
   */
  private keepUntypedRecordsPutInMembers(): void {
    for (const file of this.files.values()) {
      for (const assignment of nodesOf(file.sf).of<ts.BinaryExpression>(ts.SyntaxKind.BinaryExpression)) {
        const target = assignment.left;
        if (assignment.operatorToken.kind !== ts.SyntaxKind.EqualsToken || !(ts.isPropertyAccessExpression(target) || ts.isElementAccessExpression(target))) continue;
        const shape = file.flow.shapeOf(assignment.right);
        if (!shape?.call || !('resource' in shape) || shape.kind === 'envelope' || !this.plan.migrates(shape.call) || file.flow.shapeOf(target)) continue;
        if (!this.saysNothing(this.checker.getTypeAtLocation(assignment.right))) continue;
        this.plan.demote(shape.call, recordsOutOfSight(shape.call, `in ${target.getText(file.sf)}, which`));
      }
    }
  }

  /**
   * Records a function gives back where the flow does not follow them: a helper of the file handed
   * records of several kinds that gives back what it is handed (`collect(it)`, `take(it, n)`), or a
   * function returning records handed to another whose answer the program calls (`memo(async (id)
   * => ...)`; a callback's answer read as data is followed: DataFlow.callbackAnswer). The calls
   * stay on v1 with a note.
   */
  private keepRecordsGivenBackUnfollowed(): void {
    for (const file of this.files.values()) {
      for (const [parameter, held] of file.flow.mixedParameters()) {
        // Records of one kind beside values of the program's own (a test's rows) are read as before: only kinds mixed are lost.
        if (new Set(held.map((h) => h.resource)).size < 2 || !this.givesBack(parameter)) continue;
        for (const { call } of held) {
          this.plan.demote(call!, `${staysOnV1(call!)}: its records pass through ${describeParameter(parameter)}, which is handed records of other kinds too and gives them back, where migrate-v2 does not follow them (${renamesInWords(call!.resource)}); migrate them by hand`);
        }
      }
      for (const fn of nodesOf(file.sf).ofKinds(ts.SyntaxKind.ArrowFunction, ts.SyntaxKind.FunctionExpression)) {
        const call = fn.parent;
        if (!ts.isCallExpression(call) || !call.arguments.includes(fn as ts.Expression)) continue;
        const shape = file.flow.returnOf(fn);
        if (!shape || !('call' in shape) || !shape.call || !this.plan.migrates(shape.call)) continue;
        const callee = calleeOf(call);
        if ('resource' in shape && answersAFunction(call, (n) => this.text.declarationOf(n))) {
          this.plan.demote(shape.call, `${staysOnV1(shape.call)}: its records are returned by a function handed to ${callee}(), whose answer migrate-v2 does not follow (${renamesInWords(shape.call.resource)}); migrate it by hand`);
        } else if (this.callsHandedUnfollowed(call, fn as ts.Expression, file) || answerHandedUnseen(call, shape, file.flow, (n) => this.text.declarationOf(n))) {
          this.plan.demote(shape.call, `${staysOnV1(shape.call)}: its answer is returned by a function handed to ${callee}(), which calls it where migrate-v2 does not follow what it gives (its envelope, fields and pages); migrate it by hand`);
        }
      }
    }
  }

  /**
   * `paginate(async (token) => (await fetch(...)).json())` where the file's `paginate(fetchPage)`
   * calls `fetchPage(token)`: whether the flow loses what such a call gives (its callers hand it
   * callbacks of several calls, or of the program's own).
   */
  private callsHandedUnfollowed(call: ts.CallExpression, callback: ts.Expression, file: FileAnalysis): boolean {
    const declarationOf = (n: ts.Node) => this.text.declarationOf(n);
    const target = functionOf(call.expression, declarationOf);
    const parameter = target?.getSourceFile() === file.sf ? target.parameters[call.arguments.indexOf(callback)] : undefined;
    if (!parameter || !ts.isIdentifier(parameter.name)) return false;
    return usesOf(file.sf, parameter, declarationOf).some((id) => ts.isCallExpression(id.parent) && id.parent.expression === id && valueRead(id.parent) && !file.flow.shapeOf(id.parent));
  }

  /** Whether what a function returns or yields is made from a parameter: the parameter, what iterates it, a list it fills from it, a function calling it. */
  private givesBack(parameter: ts.ParameterDeclaration): boolean {
    const fn = parameter.parent;
    const tainted = new Set<ts.Node>([parameter]);
    const mentions = (node: ts.Node): boolean => {
      let found = false;
      const visit = (n: ts.Node): void => {
        if (found) return;
        if (ts.isIdentifier(n)) {
          const d = this.text.declarationOf(n);
          if (d && tainted.has(d)) found = true;
        }
        ts.forEachChild(n, visit);
      };
      visit(node);
      return found;
    };
    // One walk in order reaches what is made from the parameter before it is given back, as code is written.
    const given: ts.Expression[] = [];
    const visit = (n: ts.Node): void => {
      if (ts.isVariableDeclaration(n) && ts.isForOfStatement(n.parent.parent) && mentions(n.parent.parent.expression)) tainted.add(n);
      else if (ts.isVariableDeclaration(n) && n.initializer && mentions(n.initializer)) tainted.add(n);
      if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && /^(push|unshift|set|add)$/.test(n.expression.name.text) && n.arguments.some(mentions)) {
        const holder = this.text.declarationOf(n.expression.expression);
        if (holder) tainted.add(holder);
      }
      if ((ts.isReturnStatement(n) || ts.isYieldExpression(n)) && n.expression) given.push(n.expression);
      ts.forEachChild(n, visit);
    };
    const body = 'body' in fn ? fn.body : undefined;
    if (!body) return false;
    if (!ts.isBlock(body)) given.push(body);
    visit(body);
    // The value itself, a literal holding it, a closure over it: not what is computed from it (`typeof x === 'object'`).
    const isGiven = (e: ts.Expression): boolean => {
      const n = unwrap(e);
      if (ts.isIdentifier(n)) return mentions(n);
      if (ts.isArrayLiteralExpression(n)) return n.elements.some((x) => isGiven(ts.isSpreadElement(x) ? x.expression : x));
      if (ts.isObjectLiteralExpression(n)) return n.properties.some((p) => (ts.isPropertyAssignment(p) ? isGiven(p.initializer) : ts.isShorthandPropertyAssignment(p) ? mentions(p.name) : ts.isSpreadAssignment(p) && isGiven(p.expression)));
      if (ts.isArrowFunction(n) || ts.isFunctionExpression(n)) return mentions(n);
      if (ts.isConditionalExpression(n)) return isGiven(n.whenTrue) || isGiven(n.whenFalse);
      return ts.isBinaryExpression(n) && isFallback(n.operatorToken.kind) && (isGiven(n.left) || isGiven(n.right));
    };
    return given.some(isGiven);
  }

  /**
   * `[...groups.map(...), ...repos.map(...)]`, `[group, 'label']`: records put in one list with
   * records of another kind or with other values. The flow follows a list of one kind only; the
   * reads of this one (`rows.sort((a, b) => a.id.localeCompare(b.id))`) would keep v1's names. Untyped, the
   * calls stay on v1 with a note; typed, the types carry the renames.
   */
  private keepUntypedRecordsMixedInLists(): void {
    for (const file of this.files.values()) {
      for (const literal of nodesOf(file.sf).of<ts.ArrayLiteralExpression>(ts.SyntaxKind.ArrayLiteralExpression)) {
        if (literal.elements.length < 2 || file.flow.shapeOf(literal) || this.seenWhole(literal)) continue;
        const held = literal.elements.flatMap((e) => {
          const value = ts.isSpreadElement(e) ? e.expression : e;
          const shape = file.flow.shapeOf(value);
          return shape?.call && 'resource' in shape && shape.kind !== 'envelope' && this.plan.migrates(shape.call) && this.saysNothing(this.checker.getTypeAtLocation(value)) ? [shape] : [];
        });
        const kinds = [...new Set(held.map((h) => h.resource.v2.collection))].join(' and ');
        for (const { call } of held) {
          this.plan.demote(call!, recordsOutOfSight(call!, `in one list with ${kinds.includes(' and ') ? `the records of ${kinds}` : 'other values'}, which`));
        }
      }
    }
  }

  /**
   * `putJson(path, body)`, a wrapper that sends every caller's request as PUT: it can send PATCH
   * instead only where every call of it is a v1 update that migrates. A call of it that is anything
   * else (or may be: a file of the run the analysis does not read names its module, or it is used
   * other than called) keeps them all on v1; so does one that stays.
   */
  private keepUpdatesThroughPutWrappersTogether(data: DataAccess): void {
    const byWrapper = new Map<Wrapper, V1Call[]>();
    for (const call of this.plan.calls) if (call.operation === 'update' && sendsFixedPut(call)) byWrapper.set(call.via!, [...(byWrapper.get(call.via!) ?? []), call]);
    for (const [wrapper, calls] of byWrapper) {
      const fixed = `goes through ${wrapper.name}(), which sends every caller's request as PUT`;
      const other = this.otherUseOf(wrapper, calls, data);
      if (other) for (const call of calls) this.plan.demote(call, `this ${call.resource.singular} update ${fixed}, and ${other(call.call.getSourceFile())}: v2 updates are PATCH with an updateMask; migrate it by hand`);
      else this.plan.together(calls, `these updates go through ${wrapper.name}(), which sends one method for all of them (PUT, PATCH once they migrate), and one of them stays on v1, so none migrates`);
    }
  }

  /** Why a PUT wrapper may send more than `updates`: a use of it that is not one of them, in words seen from a file; undefined when there is none. */
  private otherUseOf(wrapper: Wrapper, updates: readonly V1Call[], data: DataAccess): ((from: ts.SourceFile) => string) | undefined {
    const fn = wrapper.fn!;
    const home = fn.getSourceFile();
    const unread = data.otherLoaders(home.fileName);
    if (unread.length > 0) return () => `${unread[0]!.split('/').pop()} names its module where migrate-v2 does not read its calls`;
    const known = new Set(updates.map((c) => c.call));
    // `const putJson = async (...) => ...`, `{ put: (...) => ... }`: the function is named by what holds it.
    const declaration = (ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) && (ts.isVariableDeclaration(fn.parent) || ts.isPropertyAssignment(fn.parent)) ? fn.parent : fn;
    const name = declaration.name && ts.isIdentifier(declaration.name) ? declaration.name.text : undefined;
    if (!name) return () => 'its other calls cannot be found by a name';
    const declarationOf = (n: ts.Node) => this.text.declarationOf(n);
    for (const file of this.files.values()) {
      if (!file.sf.text.includes(name)) continue;
      for (const id of usesOf(file.sf, declaration, declarationOf)) {
        if (ts.isImportSpecifier(id.parent) || ts.isExportSpecifier(id.parent) || ts.isImportClause(id.parent)) continue;
        const named = ts.isPropertyAccessExpression(id.parent) && id.parent.name === id ? id.parent : id;
        const call = named.parent;
        if (!ts.isCallExpression(call) || call.expression !== named) return (from) => `it is used other than called (${placeOf(id, from)})`;
        if (!known.has(call) && !this.wrappers.transports.has(call)) return (from) => `it also sends a request that is no v1 update (${placeOf(call, from)})`;
      }
    }
    return undefined;
  }

  /**
   * `export async function listGroups() { ...; return body.items; }` read in another module of the
   * run (`groups.filter((g) => g.id...)`): the flow follows a function's records to its callers in
   * its own file only, and the type to every reader only where the function's type names a record
   * type. Untyped (`any`), the records reach readers the migration does not rewrite: the call stays
   * on v1 with a note.
   */
  private keepUntypedRecordsReturnedToImporters(): void {
    // A GraphQL resolver's records are read by its schema: keepRecordsReturnedToGraphql says so.
    const resolvers = new Set<ts.Node>(this.resolvers.map((r) => r.fn));
    const declarationOf = (n: ts.Node) => this.text.declarationOf(n);
    for (const file of this.files.values()) {
      for (const fn of exportedFunctions(file.sf, declarationOf)) {
        if (resolvers.has(fn)) continue;
        const shape = file.flow.returnOf(fn);
        // A response says nothing of its body whatever its type: its importers parse and read it out of sight.
        const response = shape?.kind === 'response' || shape?.kind === 'stream';
        // A JavaScript file's JSDoc types are read, not rewritten: they say nothing its importers could follow.
        const script = /\.[cm]?jsx?$/.test(file.sf.fileName);
        if (!shape?.call || (!('resource' in shape) && !response) || !this.plan.migrates(shape.call) || (!response && !script && !this.returnsUntyped(fn))) continue;
        // Asked last: most files return no records, and the importers are found by the checker.
        if (!this.importedUnseen(file.sf) && !this.importedByOthers(file.sf)) continue;
        const name = functionName(fn) ?? 'this function';
        // A write stays with its readers: what its body names on v2 is part of moving it by hand.
        const written = shape.call.operation === 'create' || shape.call.operation === 'update' ? writeKeysInWords(shape.call.resource) : '';
        const why = response
          ? `${name}() returns its response to other modules, which parse it where migrate-v2 does not follow their reads (envelope, pages, ${renamesInWords(shape.call.resource)}); migrate it with them by hand`
          : `${name}() returns its records ${script ? '' : 'untyped '}to other modules, where migrate-v2 does not follow their reads (${renamesInWords(shape.call.resource)}); ${script ? 'migrate it with its readers by hand' : `give ${name}() a return type naming the record type, or migrate it by hand`}${written ? ` (and on v2 ${written})` : ''}`;
        this.plan.demote(shape.call, `${staysOnV1(shape.call)}: ${why}`);
      }
    }
  }

  /**
   * `resolvers: { Query: { groups: () => listGroups() } }` handed to `new ApolloServer()`,
   * `resolve: () => listGroups()` in `new GraphQLObjectType()`: the library reads the records a
   * resolver returns by the names its schema gives their fields, v1's (`type Group { id: ID! }`),
   * and answers null (or an error, for `ID!`) where v2 renamed them. The call whose records a
   * resolver returns stays on v1 with a note; so do the calls whose record types such records have
   * (markSharedTypes), read where the flow does not reach, in another module.
   */
  private keepRecordsReturnedToGraphql(): void {
    for (const r of this.resolvers) {
      const shape = this.files.get(r.fn.getSourceFile())?.flow.returnOf(r.fn);
      if (!shape || !('call' in shape) || !shape.call || !('resource' in shape) || !this.plan.migrates(shape.call)) continue;
      this.plan.demote(shape.call, `${staysOnV1(shape.call)}: ${returnedToGraphql(r, shape.call.resource)}`);
    }
  }

  /**
   * Whether a module of the analysed files imports this one (with a tsconfig, importers join the
   * program) and reads what it returns unfollowed: a test with doubles asks the module's flow instead.
   */
  private importedByOthers(sf: ts.SourceFile): boolean {
    this.importTargets ??= new Set(
      [...this.files.keys()].filter((other) => !this.doubles.hasDoubles(other)).flatMap((other) => {
        const specifiers = other.statements.flatMap((s) => ((ts.isImportDeclaration(s) || ts.isExportDeclaration(s)) && s.moduleSpecifier ? [s.moduleSpecifier] : []));
        // CommonJS: `const { listGroups } = require('./lib.cjs')`.
        for (const call of nodesOf(other).of<ts.CallExpression>(ts.SyntaxKind.CallExpression)) {
          if (ts.isIdentifier(call.expression) && call.expression.text === 'require' && call.arguments[0] && ts.isStringLiteral(call.arguments[0])) specifiers.push(call.arguments[0]);
        }
        return specifiers.flatMap((specifier) => {
          const target = this.checker.getSymbolAtLocation(specifier)?.valueDeclaration;
          return target && ts.isSourceFile(target) && target !== other ? [target] : [];
        });
      }),
    );
    return this.importTargets.has(sf);
  }
  private importTargets?: Set<ts.SourceFile>;

  /** A function whose (awaited) return type says nothing of its records. */
  private returnsUntyped(fn: ts.SignatureDeclaration): boolean {
    const signature = this.checker.getSignatureFromDeclaration(fn);
    if (!signature) return true;
    const returned = this.checker.getReturnTypeOfSignature(signature);
    return this.saysNothing(this.checker.getAwaitedType(returned) ?? returned);
  }

  /** A type that says nothing of the records it holds: `any`, `unknown`, or an array of them; no type's renames reach its reads. */
  private saysNothing(type: ts.Type): boolean {
    if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return true;
    // `Record<string, unknown>`: a bag of keys, as data-flow's saysNothing reads one written.
    const values = type.getProperties().length === 0 ? type.getStringIndexType() : undefined;
    if (values && values.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return true;
    const element = this.checker.isArrayType(type) ? this.checker.getTypeArguments(type as ts.TypeReference)[0] : undefined;
    return element !== undefined && this.saysNothing(element);
  }

  /** An object literal printed or serialised as it is, or handed to a v1 call: none of its members is read by name further on. */
  private seenWhole(literal: ts.ObjectLiteralExpression | ts.ArrayLiteralExpression): boolean {
    for (let n: ts.Node = literal; n.parent && !ts.isFunctionLike(n.parent) && !ts.isStatement(n.parent); n = n.parent) {
      const p = n.parent;
      if (ts.isCallExpression(p) && (this.isV1Call(p) || /^(console\.\w+|JSON\.stringify)$/.test(p.expression.getText()))) return true;
    }
    return false;
  }

  private readonly renamedFields = renamedFieldNames();
  private readonly uidReferenceNames = uidReferenceNames();

  /** Whether a call goes to a function of the analysed files, whose reads the flow follows through its parameters. */
  followsInto(call: ts.CallExpression, argument?: { index: number; held: Held }): boolean {
    return this.follows(call.expression, argument);
  }

  /**
   * Whether what a function named here is handed (`held`, as its `index`-th parameter, when given) is
   * followed: by the flow in a function of the same file, by the types in one of another analysed
   * file whose parameter's type says what it holds. Untyped there (`fromJson(json: any)`), the
   * function must read no name v2 changes.
   */
  private follows(callee: ts.Expression, argument?: { index: number; held: Held }): boolean {
    const name = ts.isPropertyAccessExpression(callee) ? callee.name : callee;
    const declaration = this.text.declarationOf(name);
    // `const label = (g) => ...`, and `{ parentId: (repo: Repo) => ... }` of an object of mappers.
    const held = declaration && (ts.isVariableDeclaration(declaration) || ts.isPropertyAssignment(declaration) || ts.isPropertyDeclaration(declaration));
    const local = held ? (declaration as ts.VariableDeclaration).initializer && unwrap((declaration as ts.VariableDeclaration).initializer!) : declaration;
    const fn = local && ts.isFunctionLike(local) ? local : !declaration || ts.isImportSpecifier(declaration) || ts.isImportClause(declaration) ? this.importedFunction(name) : undefined;
    if (!fn) return false;
    const parameter = argument && fn.parameters[Math.min(argument.index, fn.parameters.length - 1)];
    if (this.files.has(fn.getSourceFile())) {
      if (fn.getSourceFile() === callee.getSourceFile() || !argument || !parameter) return true;
      return !this.saysNothing(this.checker.getTypeAtLocation(parameter)) || (!changingRead(parameter, [argument.held]) && !handsOn(parameter, (n) => this.text.declarationOf(n)));
    }
    // A helper of a file migrated for the resource types it declares (`indexById<T extends { id: string }>`): followed where its types say what each parameter holds.
    return fn.parameters.every((p) => p.type !== undefined) && [...this.types.containers.keys()].some((c) => c.getSourceFile() === fn.getSourceFile());
  }

  private importedFunction(name: ts.Node): ts.SignatureDeclaration | undefined {
    const symbol = this.checker.getSymbolAtLocation(name);
    const target = symbol && symbol.flags & ts.SymbolFlags.Alias ? this.checker.getAliasedSymbol(symbol) : undefined;
    const d = target?.valueDeclaration ?? target?.declarations?.[0];
    const fn = d && ts.isVariableDeclaration(d) ? d.initializer : d;
    return fn && ts.isFunctionLike(fn) ? fn : undefined;
  }

  /** `const { items } = await res.json()` after a read by list: v2 Get answers no list to take apart. */
  private keepDestructuredReads(): void {
    for (const file of this.files.values()) {
      for (const [pattern, shape] of file.flow.destructured()) {
        if (shape.kind !== 'envelope' || shape.call?.operation !== 'get-by-list') continue;
        const call = shape.call;
        // A body read through the missing-record helper is given back as v1's list of one (or none);
        // `const { items } = await res.json()` takes it as such, the 404 told by the status.
        const missing = missingBy(call, file.flow, (n) => this.text.declarationOf(n));
        if (missing.by === 'helper' && !missing.missing) continue;
        // Told by the status, or not at all: keepUntestableReads says why.
        if ((missing.by === 'status' && listTakenOnly(pattern, call)) || missing.by === 'none') continue;
        this.plan.demote(call, `this read of one ${call.resource.singular} takes its list apart ({ items }): v2 Get answers the ${call.resource.singular} itself, or 404; migrate it by hand`);
      }
    }
  }

  /**
   * The call's type argument (or its `.json<T>()`'s) when it names a list type of its own
   * (`interface GroupList { items: Group[] }`), and the element type, when that name means the same
   * type where the call is.
   */
  private namedListArgument(call: V1Call, container: Container): { site: ts.TypeReferenceNode; element: ts.TypeReferenceNode } | undefined {
    const arg = call.call.typeArguments?.[0] ?? parsedInChain(call)?.typeArguments?.[0];
    // `interface GroupList { items: Group[] }`, or `type GroupList = { items: Group[] }`.
    const members =
      ts.isInterfaceDeclaration(container) && !container.heritageClauses ? container.members
      : ts.isTypeLiteralNode(container) && ts.isTypeAliasDeclaration(container.parent) && !container.parent.typeParameters ? container.members
      : undefined;
    if (!arg || !ts.isTypeReferenceNode(arg) || arg.typeArguments || this.types.containerOf(arg.typeName) !== container || !members) return undefined;
    const element = soleListElement(members);
    if (!element || !ts.isTypeReferenceNode(element) || element.typeArguments || !ts.isIdentifier(element.typeName)) return undefined;
    const meant = this.checker.getSymbolAtLocation(element.typeName);
    const name = element.typeName.text;
    const there = this.checker.getSymbolsInScope(arg, ts.SymbolFlags.Type | ts.SymbolFlags.Alias).find((sym) => sym.name === name);
    // An exported declaration has a local symbol in scope and an export symbol where it is referenced.
    const resolve = (sym: ts.Symbol | undefined) => sym && this.checker.getExportSymbolOfSymbol(sym.flags & ts.SymbolFlags.Alias ? this.checker.getAliasedSymbol(sym) : sym);
    return meant && resolve(there) === resolve(meant) ? { site: arg, element } : undefined;
  }

  /** The call's type argument when it is a generic list type of one record type (`ListResponse<Role>`). */
  private genericListArgument(call: V1Call): ts.TypeReferenceNode | undefined {
    const isGenericList = (arg: ts.TypeNode | undefined): arg is ts.TypeReferenceNode => {
      if (!arg || !ts.isTypeReferenceNode(arg) || arg.typeArguments?.length !== 1) return false;
      const container = this.types.containerOf(arg.typeName);
      return container !== undefined && this.types.generics.has(container);
    };
    // `api.get(url).json<List<Group>>()` of got and ky: the type argument of the parse in the chain.
    const own = call.call.typeArguments?.[0] ?? parsedInChain(call)?.typeArguments?.[0];
    if (isGenericList(own)) return own;
    // `(await res.json()) as ListResponse<Group>`, `const body: ListResponse<Group> = ...` where the answer is held.
    // Made in a retry helper's callback (`pRetry(() => fetch(url))`), the answer is held where the helper's answer is.
    const written = answerTypesOf(call.call.getSourceFile(), [call.call], (n) => this.text.declarationOf(n), inCallback(call.call)).map(({ type }) => type);
    return written.find((t): t is ts.TypeReferenceNode => isGenericList(t) && (ts.isAsExpression(t.parent) || ts.isTypeAssertionExpression(t.parent) || ts.isVariableDeclaration(t.parent)));
  }

  /** A read of one record whose missing case cannot be told on v2 stays on v1 (read-one.ts says why). */
  private keepUntestableReads(): void {
    for (const file of this.files.values()) {
      for (const call of file.calls) {
        if (call.operation !== 'get-by-list' || !this.plan.migrates(call) || this.readerGets.has(call)) continue;
        const missing = missingBy(call, file.flow, (n) => this.text.declarationOf(n));
        if (missing.by === 'none') this.plan.demote(call, missing.why);
      }
      this.keepListLikeReads(file);
    }
  }

  /** A read of one record whose list is read as a list (`items.map`, `items.length` as a count) has no v2 Get form. */
  private keepListLikeReads(file: FileAnalysis): void {
    if (!file.calls.some((c) => c.operation === 'get-by-list' && this.plan.migrates(c))) return;
    for (const node of nodesOf(file.sf).ofKinds(ts.SyntaxKind.PropertyAccessExpression, ts.SyntaxKind.ElementAccessExpression) as (ts.PropertyAccessExpression | ts.ElementAccessExpression)[]) {
      const key = memberName(node);
      if (!key || !V1_LIST_KEYS.has(key)) continue;
      const shape = file.flow.flowShape(node.expression);
      const call = shape?.kind === 'envelope' ? shape.call : undefined;
      if (call?.operation !== 'get-by-list' || !this.plan.migrates(call)) continue;
      // `json['items'][0]`: the rewrite to v2's record reads the dot form only.
      if (ts.isElementAccessExpression(node)) this.plan.demote(call, `this read of one ${call.resource.singular} reads its list as ${node.getText(file.sf)}: v2 Get answers the ${call.resource.singular} itself, or 404, and migrate-v2 rewrites such reads written as .${key} only; migrate it by hand`);
      else if (!readsAsOne(node)) this.plan.demote(call, `this read of one ${call.resource.singular} reads its ${key} as a list further on (not only its first record, or whether there is one): v2 Get answers the ${call.resource.singular} itself, or 404; migrate it by hand`);
    }
  }

  /**
   * A record whose field v2beta1 does not serve (a role's `capabilities`) is read: migrated, the read
   * gets undefined and the program changes, so the calls that give such records stay on v1 whole:
   * the call the flow traces the record to, or every call whose values the record's type was seen on.
   */
  private keepReadsOfGoneFields(): boolean {
    let demoted = false;
    // `read`: where the program reads the field, when it reads it through a type the call's records share, not on them.
    const keep = (call: V1Call, resource: ResourceContract, field: string, read?: string): void => {
      if (!this.plan.migrates(call)) return;
      const what = read ? `${field} of ${read}, a type the ${call.resource.kind} records it answers have too,` : `${field} of the ${resource.kind} records it answers,`;
      this.plan.demote(call, `${staysOnV1(call)}: the program reads ${what} and v2beta1's ${resource.kind} has no ${field}; find it elsewhere or drop the read, then migrate`);
      demoted = true;
    };
    for (const file of this.files.values()) {
      for (const node of nodesOf(file.sf).of<ts.PropertyAccessExpression>(ts.SyntaxKind.PropertyAccessExpression)) {
        if (NOT_HYDRATED.has(node.name.text) && this.keepReadsBeyondHydration(node, file.flow)) demoted = true;
        if (!this.goneFields.has(node.name.text)) continue;
        const field = node.name.text;
        const shape = file.flow.flowShape(node.expression);
        if (shape?.kind === 'resource' && shape.call && fieldsGoneInV2(shape.resource).has(field)) keep(shape.call, shape.resource, field);
        const member = this.text.declarationOf(node.name);
        const container = member && ts.isPropertySignature(member) && (ts.isInterfaceDeclaration(member.parent) || ts.isTypeLiteralNode(member.parent)) ? member.parent : undefined;
        const resource = container && this.types.containers.get(container)?.find((r) => r.shape === 'resource' && fieldsGoneInV2(r.resource).has(field))?.resource;
        if (!container || !resource) continue;
        // No line number: a note inserted above would move it, and a second run would note again.
        const unnamed = ts.isTypeLiteralNode(container) && !ts.isTypeAliasDeclaration(container.parent);
        const read = unnamed ? undefined : `${containerName(container)} (in ${file.sf.fileName.split('/').pop()})`;
        for (const call of this.types.seenOn.get(container) ?? []) keep(call as V1Call, resource, field, read);
      }
    }
    return demoted;
  }

  /** `binding.group.verified`: v2 hydrates a named record with a few fields only (the contract's hydratedFields); a read of another keeps the call on v1. */
  private keepReadsBeyondHydration(node: ts.PropertyAccessExpression, flow: DataFlow): boolean {
    const shape = flow.flowShape(node.expression);
    const traced = shape?.kind === 'resource' && shape.hydrated && shape.call ? { resource: shape.resource, hydrated: shape.hydrated, calls: [shape.call] } : this.hydratedByType(node.expression);
    if (!traced) return false;
    const v2 = clientFieldRenames(traced.resource).get(node.name.text) ?? node.name.text;
    if (traced.hydrated.includes(v2)) return false;
    let demoted = false;
    for (const call of traced.calls) {
      if (!this.plan.migrates(call)) continue;
      // A field v2beta1 does not serve at all (a role's capabilities) cannot be had by reading the record either.
      const advice = fieldsGoneInV2(traced.resource).has(node.name.text) ? `, and its ${traced.resource.kind} has no ${node.name.text} at all; find it elsewhere or drop the read, then migrate` : `; read the ${traced.resource.singular} by its uid, then migrate`;
      this.plan.demote(call, `${staysOnV1(call)}: the program reads ${node.name.text} of the ${traced.resource.singular} each ${call.resource.singular} names, and v2beta1 gives that ${traced.resource.singular} with ${traced.hydrated.join(', ')} only${advice}`);
      demoted = true;
    }
    return demoted;
  }

  /**
   * `b.group` where `b` is typed (`function where(b: RoleBinding)`): a member of a record type that
   * names another record, hydrated on v2; with the calls whose records that type was seen on.
   */
  private hydratedByType(e: ts.Expression): { resource: ResourceContract; hydrated: readonly string[]; calls: V1Call[] } | undefined {
    const n = unwrap(e);
    if (!ts.isPropertyAccessExpression(n)) return undefined;
    const member = this.text.declarationOf(n.name);
    const container = member && ts.isPropertySignature(member) && (ts.isInterfaceDeclaration(member.parent) || ts.isTypeLiteralNode(member.parent)) ? member.parent : undefined;
    const owner = container && this.types.containers.get(container)?.find((r) => r.shape === 'resource')?.resource;
    const field = owner?.fields.find((f) => f.v1 === n.name.text && f.reference?.v1Form === 'object');
    if (!container || !field) return undefined;
    return { resource: resourceOf(field.reference!.target), hydrated: field.reference!.hydratedFields.map((f) => f.name), calls: [...(this.types.seenOn.get(container) ?? [])] as V1Call[] };
  }

  /** `T` of `getList<T>(path)`, a list reader: it stands for the records of every kind the reader is handed. */
  private readerTypeParameter(arg: ts.TypeNode): boolean {
    const declaration = ts.isTypeReferenceNode(arg) ? this.text.declarationOf(arg.typeName) : undefined;
    const fn = declaration && ts.isTypeParameterDeclaration(declaration) ? declaration.parent : undefined;
    return fn !== undefined && [...this.wrappers.byFunction.values()].some((w) => w.fn === fn && w.records !== undefined);
  }

  /** A type seen on values of a call that stays on v1 and of one that migrates cannot take one set of names. */
  private markSharedTypes(): boolean {
    let demoted = false;
    this.readOneTypes.clear();
    for (const node of this.genericUses) this.types.markForeignUses(node, (arg) => this.readerTypeParameter(arg));
    for (const node of this.dataTypes) this.types.markData(node, "data the program parses itself (JSON.parse), whose keys stay v1's: give the v2 records a type of their own");
    for (const { type, request } of this.unmigratedTypes) this.types.markData(type, `the answer of a v1 request that migrate-v2 cannot migrate (${placeOf(request, request.getSourceFile())}), whose keys stay v1's: migrate that request with these calls, or give the v2 records a type of their own`);
    for (const { type, request } of this.lostAnswerTypes()) this.types.markData(type, `the answer of a v1 call that stays on v1 (${placeOf(request, request.getSourceFile())}), read where migrate-v2 does not follow it, whose keys stay v1's: migrate them together by hand, or give the v2 records a type of their own`);
    for (const r of this.resolvers) {
      for (const e of returnedExpressions(r.fn)) this.types.markDataOf(this.checker.getTypeAtLocation(e), `the records ${r.path} returns to ${r.handedTo}, whose schema reads their fields by v1's names: migrate them with the schema by hand`);
    }
    this.types.seenThroughFeeders();
    for (const [container, calls] of this.types.seenOn) {
      const v1Calls = [...calls] as V1Call[];
      const migrating = v1Calls.some((c) => this.plan.migrates(c));
      // A list type several kinds share keeps its names for the calls that stay, and each migrating list gets a v2 copy in its place.
      const why = !migrating || !this.types.pinned.has(container) || (this.types.needsCopies(container) && !this.types.fromData.has(container))
        ? undefined
        : this.types.fromData.has(container)
          ? `the type ${containerName(container)} also types ${this.types.fromData.get(container)}`
          : this.types.foreign.has(container)
          ? `${helperName(container)} is handed these records and values that are no API records alike, and reads them by the same names: give it a v2 variant of its own`
          : `the type ${containerName(container)} also holds values of calls that stay on v1: give the v2 values a type of their own`;
      for (const call of v1Calls) {
        // A read of one record that stays on v1 keeps its list type: v1 still answers the list.
        if (call.operation === 'get-by-list' && !this.plan.migrates(call)) continue;
        // v2 Get answers the record itself: an inline `{ items: Group[] }` becomes `Group`; a named list type would need a rewrite of its own.
        const element = inlineListElement(container);
        if (call.operation === 'get-by-list' && element && calls.size === 1) {
          this.readOneTypes.set(container as ts.TypeLiteralNode, element);
          continue;
        }
        // `call<ListResponse<Role>>(...)`: the generic list type stays; this call's type argument becomes `Role`.
        const site = call.operation === 'get-by-list' ? this.genericListArgument(call) : undefined;
        if (site && this.types.containerOf(site.typeName) === container) {
          this.readOneTypes.set(site, site.typeArguments![0]!);
          continue;
        }
        // `.json<GroupList>()`, a named list type: this call's type argument becomes `Group`.
        const named = call.operation === 'get-by-list' ? this.namedListArgument(call, container) : undefined;
        if (named) {
          this.readOneTypes.set(named.site, named.element);
          continue;
        }
        if (call.operation === 'get-by-list' && this.types.containers.get(container)?.some((r) => r.shape === 'envelope')) {
          this.plan.demote(call, `this read of one ${call.resource.singular} types its body as a list (${containerName(container)}): v2 Get answers the ${call.resource.singular} itself, or 404; migrate it by hand`);
          demoted = true;
        }
      }
      if (!why) continue;
      this.sharedTypes.set(container, why);
      for (const call of v1Calls) {
        if (!this.plan.migrates(call)) continue;
        this.plan.demote(call, `${staysOnV1(call)}: ${why}`);
        demoted = true;
      }
    }
    return demoted;
  }

  /** Identifiers of the candidate files by name, built once, for reference counts. */
  private identifiersNamed(name: string): ts.Identifier[] {
    if (this.names.size === 0) {
      for (const sf of this.files.keys()) {
        for (const node of nodesOf(sf).of<ts.Identifier>(ts.SyntaxKind.Identifier)) {
          const list = this.names.get(node.text);
          if (list) list.push(node);
          else this.names.set(node.text, [node]);
        }
      }
    }
    return this.names.get(name) ?? [];
  }

  private useIndex(): UseIndex {
    return {
      otherUse: (declaration, consumed, from) => this.otherUse(declaration, consumed, from),
      tableReadWhole: (member) => this.tableReadWhole(member),
      freshName: (declaration, wanted) => {
        let name = wanted;
        for (let i = 2; this.identifiersNamed(name).some((id) => id.getSourceFile() === declaration.getSourceFile()); i++) name = `${wanted}${i}`;
        return name;
      },
    };
  }

  private tableReadWhole(member: ts.PropertyAssignment): boolean {
    const owner = tableOf(member);
    if (!owner || !ts.isIdentifier(owner.name)) return false;
    for (const id of this.identifiersNamed(owner.name.text)) {
      if (id === owner.name || this.text.declarationOf(id) !== owner || importedAsItself(id)) continue;
      // A class's table is read as `Platform.PATHS`; a member of it, `Platform.PATHS.groups`.
      const table = ts.isPropertyAccessExpression(id.parent) && id.parent.name === id ? id.parent : id;
      if (!(ts.isPropertyAccessExpression(table.parent) && table.parent.expression === table)) return true;
    }
    return false;
  }

  /**
   * `super(baseUrl, '/iam/v1/groups')`, `new GroupsApi(base, '/iam/v1/groups')`: the class whose
   * constructor keeps the path in a field, the field, and the methods of that class that make a
   * request migrate-v2 recognises reading it. Undefined unless one does: the path then reaches its
   * requests through an object's field, which the analysis does not follow.
   */
  keptByConstructor(literal: ts.Node): { owner: string; field: string; readers: string[] } | undefined {
    const holder = pathExpressionOf(literal);
    const call = holder.parent;
    if (!(ts.isNewExpression(call) || (ts.isCallExpression(call) && call.expression.kind === ts.SyntaxKind.SuperKeyword))) return undefined;
    const args: readonly ts.Expression[] = call.arguments ?? [];
    return this.fieldOfArgument(call, args.indexOf(holder as ts.Expression), 0);
  }

  private fieldOfArgument(call: ts.CallExpression | ts.NewExpression, index: number, depth: number): { owner: string; field: string; readers: string[] } | undefined {
    const ctor = index >= 0 && depth < 3 ? this.checker.getResolvedSignature(call)?.declaration : undefined;
    if (!ctor || !ts.isConstructorDeclaration(ctor) || !ctor.body || !ts.isClassLike(ctor.parent)) return undefined;
    const parameter = ctor.parameters[index];
    if (!parameter || !ts.isIdentifier(parameter.name)) return undefined;
    const name = parameter.name.text;
    const uses = (n: ts.Node) => ts.isIdentifier(n) && n.text === name && this.text.declarationOf(n) === parameter;
    // Handed on to the base class's constructor: the field is the base's.
    for (const statement of ctor.body.statements) {
      const e = ts.isExpressionStatement(statement) ? statement.expression : undefined;
      if (e && ts.isCallExpression(e) && e.expression.kind === ts.SyntaxKind.SuperKeyword) {
        const at = e.arguments.findIndex((a) => uses(unwrap(a)));
        if (at >= 0) return this.fieldOfArgument(e, at, depth + 1);
      }
    }
    // `private readonly collectionPath: string`: a parameter property is the field of its name.
    const field = (ts.getModifiers(parameter) ?? []).length > 0 ? name : keptAs(ctor.body, uses);
    const cls = ctor.parent;
    if (!field || !cls.name) return undefined;
    const readers = cls.members.flatMap((m) => {
      if (!(ts.isMethodDeclaration(m) || ts.isGetAccessorDeclaration(m)) || !m.body || !ts.isIdentifier(m.name)) return [];
      let reads = false;
      forEachNode(m.body, (n) => void (reads ||= ts.isPropertyAccessExpression(n) && n.expression.kind === ts.SyntaxKind.ThisKeyword && n.name.text === field));
      return reads && this.makesRequest(m.body, true) ? [`${cls.name!.text}.${m.name.text}()`] : [];
    });
    return readers.length > 0 ? { owner: cls.name.text, field, readers } : undefined;
  }

  private otherUse(declaration: Holder, consumed: ReadonlySet<ts.Node>, from: ts.SourceFile): string | undefined {
    if (!ts.isIdentifier(declaration.name)) return `by a name it does not read (${placeOf(declaration, from)})`;
    const owner = ts.isPropertyAssignment(declaration) ? tableOf(declaration) : declaration;
    if (!owner) return `from a table it does not read (${placeOf(declaration, from)})`;
    if (isExported(owner) && this.importedUnseen(owner.getSourceFile())) return `by modules importing ${declaration.name.text} that it does not read`;
    // A table read whole (passed on, spread, iterated) has uses its members cannot account for.
    if (owner !== declaration && this.tableReadWhole(declaration as ts.PropertyAssignment)) return `${owner.name.getText()} is read whole`;
    // `url.searchParams.set(...)`, `url.pathname` of a `new URL(...)`: the same URL, read or built further, not another reader.
    const urlObject = ts.isVariableDeclaration(declaration) && declaration.initializer !== undefined && isNewUrl(declaration.initializer);
    for (const id of this.identifiersNamed(declaration.name.text)) {
      if (id === declaration.name || this.text.declarationOf(id) !== declaration) continue;
      if (importedAsItself(id)) continue;
      if (urlObject && ts.isPropertyAccessExpression(id.parent) && id.parent.expression === id) continue;
      const node = ts.isPropertyAccessExpression(id.parent) && id.parent.name === id ? id.parent : id;
      if (consumed.has(node)) continue;
      const call = readingCall(id);
      return call ? `by ${calleeOf(call)}() ${placeIn(call, from)}` : placeIn(node, from);
    }
    return undefined;
  }
}

/** `REPOS` of `import { REPOS } from './paths.js'`: it names the constant for the file's reads, which are counted themselves (not `{ REPOS as R }`, read as `R`). */
function importedAsItself(id: ts.Identifier): boolean {
  return ts.isImportSpecifier(id.parent) && !id.parent.propertyName;
}

/** A function written in place, or a test double's (`jest.fn()`, `vi.fn(...)`, `sinon.stub()`): what replaces a function, not `this.get.bind(this)`. */
function isReplacement(e: ts.Expression): boolean {
  const n = unwrap(e);
  if (ts.isArrowFunction(n) || ts.isFunctionExpression(n)) return true;
  let callee: ts.Expression | undefined = ts.isCallExpression(n) ? n.expression : undefined;
  // `vi.fn().mockResolvedValue(...)`: the double is made first, then told what to answer.
  while (callee && ts.isPropertyAccessExpression(callee) && ts.isCallExpression(callee.expression)) callee = callee.expression.expression;
  return callee !== undefined && /^(?:jest|vi|sinon|td)\.(?:fn|stub|spy|func)$/.test(callee.getText());
}

/** `this.path = path`, `this.url = \`${base}${path}\`` in a constructor: the field a parameter is kept in. */
function keptAs(body: ts.Block, isParameter: (n: ts.Node) => boolean): string | undefined {
  for (const statement of body.statements) {
    const e = ts.isExpressionStatement(statement) ? statement.expression : undefined;
    if (!e || !ts.isBinaryExpression(e) || e.operatorToken.kind !== ts.SyntaxKind.EqualsToken || !ts.isPropertyAccessExpression(e.left) || e.left.expression.kind !== ts.SyntaxKind.ThisKeyword) continue;
    let mentions = false;
    forEachNode(e.right, (n) => void (mentions ||= isParameter(n)));
    if (mentions) return e.left.name.text;
  }
  return undefined;
}

/** Only reads of these names ask the flow whether they read past a reference's hydrated fields. */
const NOT_HYDRATED = fieldsBeyondHydration();

/** The texts an argument gives as it is written, or a const it names holds: a string, an array of strings, and with `keysToo` an object's keys. */
function textsOf(argument: ts.Expression, keysToo: boolean, declarationOf: (n: ts.Node) => ts.Declaration | undefined): string[] {
  let n = unwrap(argument);
  const declared = ts.isIdentifier(n) ? declarationOf(n) : undefined;
  if (declared && ts.isVariableDeclaration(declared) && declared.initializer && ts.isVariableDeclarationList(declared.parent) && declared.parent.flags & ts.NodeFlags.Const) n = unwrap(declared.initializer);
  if (ts.isStringLiteralLike(n)) return [n.text];
  if (keysToo && ts.isObjectLiteralExpression(n)) return n.properties.flatMap((p) => (p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) ? [p.name.text] : []));
  if (ts.isArrayLiteralExpression(n)) return n.elements.flatMap((e) => (ts.isStringLiteralLike(e) ? [e.text] : []));
  return [];
}

/** `{ items: Group[] }` written inline (not a named type): the element type of its one member. */
function inlineListElement(container: Container): ts.TypeNode | undefined {
  return ts.isTypeLiteralNode(container) && !ts.isTypeAliasDeclaration(container.parent) ? soleListElement(container.members) : undefined;
}

/** `{ items: Group[] }`: the element type of a list type whose one member is an array (the envelope its evidence found). */
function soleListElement(members: ts.NodeArray<ts.TypeElement>): ts.TypeNode | undefined {
  const member = members.length === 1 ? members[0]! : undefined;
  return member && ts.isPropertySignature(member) && member.type && ts.isArrayTypeNode(member.type) ? member.type.elementType : undefined;
}

/** `JSON.parse(raw) as Desired[]`, `const desired: Desired[] = JSON.parse(raw)`: a type on data the program parses from text that is no API answer. */
function collectDataTypes(file: FileAnalysis, out: ts.TypeNode[]): void {
  // Also one branch of a choice: `existsSync(FILE) ? JSON.parse(readFileSync(FILE, 'utf8')) : []`, `JSON.parse(raw) ?? []`.
  const parsedData = (e: ts.Expression | undefined): boolean => {
    const n = e && unwrap(e);
    if (!n) return false;
    if (ts.isConditionalExpression(n)) return parsedData(n.whenTrue) || parsedData(n.whenFalse);
    if (ts.isBinaryExpression(n) && isFallback(n.operatorToken.kind)) return parsedData(n.left) || parsedData(n.right);
    // `JSON.parse(raw).defaultGroup`: a member of parsed data is parsed data.
    let root: ts.Expression = n;
    while (ts.isPropertyAccessExpression(root) || ts.isElementAccessExpression(root)) root = unwrap(root.expression);
    return ts.isCallExpression(root) && root.expression.getText(file.sf) === 'JSON.parse' && !file.flow.shapeOf(root);
  };
  for (const node of nodesOf(file.sf).ofKinds(ts.SyntaxKind.AsExpression, ts.SyntaxKind.VariableDeclaration)) {
    if (ts.isAsExpression(node) && parsedData(node.expression)) out.push(node.type);
    if (ts.isVariableDeclaration(node) && node.type && parsedData(node.initializer)) out.push(node.type);
  }
}

function collectGenericUses(sf: ts.SourceFile, out: ts.TypeReferenceNode[]): void {
  for (const node of nodesOf(sf).of<ts.TypeReferenceNode>(ts.SyntaxKind.TypeReference)) if (node.typeArguments) out.push(node);
}

/** `new URL(path, base)`: a URL object, changed in place by `searchParams.set` and read by its members. */
export function isNewUrl(e: ts.Expression): boolean {
  const n = unwrap(e);
  return ts.isNewExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === 'URL';
}

function tableOf(member: ts.PropertyAssignment): ts.VariableDeclaration | ts.PropertyDeclaration | undefined {
  let n: ts.Node = member.parent.parent;
  while (ts.isAsExpression(n) || ts.isSatisfiesExpression(n) || ts.isParenthesizedExpression(n)) n = n.parent;
  return ts.isVariableDeclaration(n) || ts.isPropertyDeclaration(n) ? n : undefined;
}

/**
 * Whether what an expression gives is read on: held in a variable, read by member, assigned, spread
 * or handed to a function. Not: a statement of its own, a value a callback gives back (`items.map((i)
 * => fn(i))` awaited whole), a condition.
 */
function valueRead(node: ts.Expression): boolean {
  let n: ts.Node = node;
  while (ts.isAwaitExpression(n.parent) || ts.isParenthesizedExpression(n.parent) || ts.isAsExpression(n.parent) || ts.isNonNullExpression(n.parent)) n = n.parent;
  const p = n.parent;
  if (ts.isVariableDeclaration(p) || ts.isSpreadElement(p) || ts.isPropertyAssignment(p)) return true;
  if ((ts.isPropertyAccessExpression(p) || ts.isElementAccessExpression(p)) && p.expression === n) return true;
  if (ts.isBinaryExpression(p)) return p.right === n && isAssignment(p.operatorToken.kind);
  return ts.isCallExpression(p) && p.arguments.includes(n as ts.Expression) && !/^Promise\.\w+$/.test(p.expression.getText());
}

/** What a request's argument sends: the `body` (`data`, `json`) of an options object, or the argument itself (`axios.put(url, group)`). */
function sentBody(argument: ts.Expression): ts.Expression[] {
  const a = unwrap(argument);
  if (!ts.isObjectLiteralExpression(a)) return [a];
  return ['body', 'data', 'json'].flatMap((key) => propertyOf(a, key) ?? []);
}

/** The bodies set on options held in a variable before they are sent (`opts.body = JSON.stringify({ ...existing, description })`). */
function bodiesSetOn(argument: ts.Expression, declarationOf: (n: ts.Node) => ts.Declaration | undefined): ts.Expression[] {
  const name = unwrap(argument);
  const declaration = ts.isIdentifier(name) ? declarationOf(name) : undefined;
  if (!declaration || !ts.isVariableDeclaration(declaration)) return [];
  return usesOf(argument.getSourceFile(), declaration, declarationOf).flatMap((id) => {
    const member = id.parent;
    const set = ts.isPropertyAccessExpression(member) && member.expression === id && ['body', 'data', 'json'].includes(member.name.text) && ts.isBinaryExpression(member.parent) && member.parent.left === member && member.parent.operatorToken.kind === ts.SyntaxKind.EqualsToken;
    return set ? [(member.parent as ts.BinaryExpression).right] : [];
  });
}

/** The functions other modules may call: exported functions and function constants, and the public methods of exported classes. */
function exportedFunctions(sf: ts.SourceFile, declarationOf: (n: ts.Node) => ts.Declaration | undefined): ts.FunctionLikeDeclaration[] {
  const out: ts.FunctionLikeDeclaration[] = [];
  for (const s of sf.statements) {
    if (ts.isFunctionDeclaration(s) && s.body && (hasModifier(s, ts.SyntaxKind.ExportKeyword) || exportedByName(sf, s.name?.text ?? ''))) out.push(s, ...handedOut(s, declarationOf));
    if (ts.isVariableStatement(s)) {
      for (const d of s.declarationList.declarations) {
        if (!d.initializer || !isExported(d)) continue;
        const value = unwrap(d.initializer);
        if (ts.isArrowFunction(value) || ts.isFunctionExpression(value)) out.push(value, ...handedOut(value, declarationOf));
        // `export const api = { groups: { list: async () => ... } }`
        else if (ts.isObjectLiteralExpression(value)) out.push(...functionsOfObject(value, declarationOf));
      }
    }
    if (ts.isExportAssignment(s) && ts.isObjectLiteralExpression(unwrap(s.expression))) out.push(...functionsOfObject(unwrap(s.expression) as ts.ObjectLiteralExpression, declarationOf));
    if (ts.isClassDeclaration(s) && isExportedClass(s)) {
      for (const m of s.members) if (ts.isMethodDeclaration(m) && m.body && !hasModifier(m, ts.SyntaxKind.PrivateKeyword) && !ts.isPrivateIdentifier(m.name)) out.push(m);
    }
  }
  for (const value of commonJsExports(sf)) if ((ts.isArrowFunction(value) || ts.isFunctionExpression(value) || ts.isMethodDeclaration(value)) && value.body) out.push(value);
  return out;
}

/**
 * The functions of the objects a factory returns (`createClient()` answering `{ groups: { list() {...} } }`,
 * or `{ list }` naming its own functions): its callers call them from wherever they hold the object.
 */
function handedOut(factory: ts.FunctionLikeDeclaration, declarationOf: (n: ts.Node) => ts.Declaration | undefined): ts.FunctionLikeDeclaration[] {
  return returnedExpressions(factory).flatMap((e) => {
    const n = unwrap(e);
    return ts.isObjectLiteralExpression(n) ? functionsOfObject(n, declarationOf) : [];
  });
}

/** The functions an object literal holds, in nested objects too, and those it names (`{ list }`, `{ find: findGroup }`). */
function functionsOfObject(object: ts.ObjectLiteralExpression, declarationOf: (n: ts.Node) => ts.Declaration | undefined): ts.FunctionLikeDeclaration[] {
  return object.properties.flatMap((p): ts.FunctionLikeDeclaration[] => {
    if (ts.isMethodDeclaration(p)) return p.body ? [p] : [];
    const value = ts.isPropertyAssignment(p) ? unwrap(p.initializer) : ts.isShorthandPropertyAssignment(p) ? p.name : undefined;
    if (!value) return [];
    if (ts.isObjectLiteralExpression(value)) return functionsOfObject(value, declarationOf);
    const fn = ts.isArrowFunction(value) || ts.isFunctionExpression(value) ? value : ts.isIdentifier(value) ? functionOf(value, declarationOf) : undefined;
    return fn?.body ? [fn] : [];
  });
}

/**
 * What a CommonJS module exports: the values of `module.exports = { listGroups, find: (id) => ... }`
 * (its members, methods included), `module.exports = listGroups`, `module.exports.x = ...` and
 * `exports.x = ...`.
 */
function commonJsExports(sf: ts.SourceFile): (ts.Expression | ts.MethodDeclaration)[] {
  const out: (ts.Expression | ts.MethodDeclaration)[] = [];
  for (const s of sf.statements) {
    const assigned = ts.isExpressionStatement(s) && ts.isBinaryExpression(s.expression) && s.expression.operatorToken.kind === ts.SyntaxKind.EqualsToken ? s.expression : undefined;
    if (!assigned) continue;
    const target = assigned.left.getText(sf);
    const value = unwrap(assigned.right);
    if (target === 'module.exports' && ts.isObjectLiteralExpression(value)) {
      for (const p of value.properties) {
        if (ts.isShorthandPropertyAssignment(p)) out.push(p.name);
        else if (ts.isPropertyAssignment(p)) out.push(unwrap(p.initializer));
        else if (ts.isMethodDeclaration(p)) out.push(p);
      }
    } else if (target === 'module.exports' || /^(?:module\.)?exports\.[\w$]+$/.test(target)) out.push(value);
  }
  return out;
}

function isExported(declaration: ts.VariableDeclaration | ts.PropertyDeclaration): boolean {
  // A class's constant is read from outside when the class is exported and the member is not private.
  if (ts.isPropertyDeclaration(declaration)) {
    const hidden = hasModifier(declaration, ts.SyntaxKind.PrivateKeyword) || ts.isPrivateIdentifier(declaration.name);
    return !hidden && ts.isClassDeclaration(declaration.parent) && isExportedClass(declaration.parent);
  }
  const statement = declaration.parent.parent;
  if (ts.isVariableStatement(statement) && hasModifier(statement, ts.SyntaxKind.ExportKeyword)) return true;
  return exportedByName(declaration.getSourceFile(), ts.isIdentifier(declaration.name) ? declaration.name.text : '');
}

/** `export { NAME }`, at the bottom of the file say, or `module.exports = { NAME }`. */
function exportedByName(sf: ts.SourceFile, name: string): boolean {
  if (sf.statements.some((s) => ts.isExportDeclaration(s) && s.exportClause && ts.isNamedExports(s.exportClause) && s.exportClause.elements.some((e) => (e.propertyName ?? e.name).text === name))) return true;
  return name !== '' && commonJsExports(sf).some((value) => ts.isIdentifier(value) && value.text === name);
}

function isExportedClass(c: ts.ClassDeclaration): boolean {
  return hasModifier(c, ts.SyntaxKind.ExportKeyword) || exportedByName(c.getSourceFile(), c.name?.text ?? '');
}

/** The function a constraint (`indexById<T extends { id: string }>`) or a parameter's type written in place (`label(g: { id: string })`) belongs to, or the constraint's type. */
function helperName(container: Container): string {
  let parameter: ts.Node = container.parent;
  if (ts.isArrayTypeNode(parameter)) parameter = parameter.parent;
  const fn = ts.isTypeParameterDeclaration(parameter) || ts.isParameter(parameter) ? parameter.parent : undefined;
  const name = fn && 'name' in fn && fn.name && ts.isIdentifier(fn.name) ? fn.name.text : undefined;
  return name ? `${name}()` : `the generic helper constrained by ${containerName(container)}`;
}

/** The variable or property an object literal is the value of, or is handed to the maker of (`GroupSchema = z.object({...})`). */
function valueNamed(literal: ts.ObjectLiteralExpression): string {
  for (let n: ts.Node = literal.parent; !ts.isBlock(n) && !ts.isSourceFile(n); n = n.parent) {
    if ((ts.isVariableDeclaration(n) || ts.isPropertyAssignment(n) || ts.isPropertyDeclaration(n)) && ts.isIdentifier(n.name)) return n.name.text;
  }
  return 'an object literal';
}

export function containerName(container: Container): string {
  const owner = ts.isTypeLiteralNode(container) ? container.parent : container;
  return ts.isInterfaceDeclaration(owner) || ts.isTypeAliasDeclaration(owner) ? owner.name.text : 'of this value';
}

/**
 * `defer(() => fetch(url)).pipe(...)`, `Promise.resolve().then(() => fetch(url))`: a response returned
 * by a callback to a function the run does not see, whose answer the program goes on to read.
 */
function answerHandedUnseen(call: ts.CallExpression, shape: Shape, flow: DataFlow, declarationOf: (n: ts.Node) => ts.Declaration | undefined): boolean {
  // A delete's answer is {} on both versions once parsed (deletes.ts): nothing is lost with it.
  if ((shape.kind !== 'response' && shape.kind !== 'stream') || shape.call.operation === 'delete') return false;
  // `ids.map((id) => fetch(...))`: answers gathered by an array's callbacks are lostAnswer's to judge.
  if (ts.isPropertyAccessExpression(call.expression) && CALLBACK_OVER_ELEMENTS.has(call.expression.name.text)) return false;
  // A function of the file is callsHandedUnfollowed's; one of another module is read where the flow gives its call an answer.
  const target = functionOf(call.expression, declarationOf);
  return target?.getSourceFile() !== call.getSourceFile() && valueUsed(call) && !flow.shapeOf(call);
}

/** `the parameter g of label()`; no line number, which a note inserted above would move (a second run would note again). */
function describeParameter(parameter: ts.ParameterDeclaration): string {
  const fn = parameter.parent;
  const owner = ts.isVariableDeclaration(fn.parent) ? fn.parent.name : 'name' in fn ? fn.name : undefined;
  return `the parameter ${parameter.name.getText()} of ${owner ? `${owner.getText()}()` : 'a function'}`;
}

/**
 * The first read, anywhere in the parameter's function, of a name v2 changes on what the calls
 * hand it (`g.id`, `body.items`, `list.reduce((a, b) => b.createdAt ...)`): the flow does not follow
 * the values there, so any such read may be theirs.
 */
function changingRead(parameter: ts.ParameterDeclaration, held: readonly Held[]): { v1: string; v2: string } | undefined {
  const renames = new Map<string, string>();
  for (const shape of held) {
    if (shape.kind === 'envelope') renames.set(shape.resource.v1.endpoints.list!.envelopeKey, shape.resource.v2.endpoints.list!.envelopeKey);
    else for (const [v1, v2] of clientFieldRenames(shape.resource)) renames.set(v1, v2);
  }
  const fn = parameter.parent;
  for (const node of nodesOf(fn.getSourceFile()).all) {
    if (node.pos < fn.pos || node.end > fn.end) continue;
    const name = memberName(node) ?? (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent) ? (node.propertyName ?? node.name).getText() : undefined);
    if (name && renames.has(name)) return { v1: name, v2: renames.get(name)! };
  }
  return undefined;
}

/** The expression a path literal stands in whole: its template, parentheses and casts around it. */
function pathExpressionOf(literal: ts.Node): ts.Node {
  let holder = literal;
  while (ts.isTemplateSpan(holder.parent) || ts.isTemplateExpression(holder.parent) || ts.isParenthesizedExpression(holder.parent) || ts.isAsExpression(holder.parent)) holder = holder.parent;
  return holder;
}

/** `fetchList('/iam/v1/groups', GroupSchema)`, `super(baseUrl, \`${ROOT}/iam/v1/groups\`)`: the call a path literal is handed to as it is written. */
export function handedAsWritten(literal: ts.Node): ts.CallExpression | undefined {
  const holder = pathExpressionOf(literal);
  const call = holder.parent;
  return ts.isCallExpression(call) && call.arguments.includes(holder as ts.Expression) ? call : undefined;
}

/** The call whose argument a name is read in (`get(BASE + IAM_GROUPS)`, `get(\`${BASE}${PATHS.groups}\`)`), not in a function written there. */
function readingCall(id: ts.Identifier): ts.CallExpression | undefined {
  for (let n: ts.Node = id; n.parent && !ts.isStatement(n.parent) && !ts.isFunctionLike(n.parent); n = n.parent) {
    if (ts.isCallExpression(n.parent) && n.parent.arguments.includes(n as ts.Expression)) return n.parent;
  }
  return undefined;
}

/**
 * `items.slice(i, i + size).map(fn)` in `inBatches(items, size, fn)`: the callback an array method
 * over the parameter's records (or a part of them) hands each one to, where the flow does not follow it.
 */
function walkedByUnseenCallback(parameter: ts.ParameterDeclaration, follows: (callback: ts.Expression) => boolean, declarationOf: (n: ts.Node) => ts.Declaration | undefined): ts.Expression | undefined {
  const name = parameter.name;
  if (!ts.isIdentifier(name)) return undefined;
  let unseen: ts.Expression | undefined;
  forEachNode(parameter.parent, (n) => {
    const method = !unseen && ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && CALLBACK_OVER_ELEMENTS.has(n.expression.name.text) ? n.expression : undefined;
    const callback = method && (n as ts.CallExpression).arguments[0];
    if (!method || !callback || follows(callback)) return;
    let over = unwrap(method.expression);
    while (ts.isCallExpression(over) && ts.isPropertyAccessExpression(over.expression) && ARRAY_OF_ARRAY.has(over.expression.name.text)) over = unwrap(over.expression.expression);
    if (ts.isIdentifier(over) && over.text === name.text && declarationOf(over) === parameter) unseen = callback;
  });
  return unseen;
}

/** `withRetry(() => fetch(url))`: a call made in an arrow function's body, handed to the function that calls it. */
function inCallback(call: ts.Node): boolean {
  for (let n = call.parent; n && !ts.isSourceFile(n); n = n.parent) {
    if (ts.isArrowFunction(n) || ts.isFunctionExpression(n)) return ts.isCallExpression(n.parent) && n.parent.arguments.includes(n);
    if (ts.isBlock(n) || ts.isFunctionDeclaration(n)) return false;
  }
  return false;
}

/** Whether a function hands a parameter on to a call that may read it (`return fromJsonTyped(json, false)`), where changingRead does not look. */
function handsOn(parameter: ts.ParameterDeclaration, declarationOf: (n: ts.Node) => ts.Declaration | undefined): boolean {
  const name = parameter.name;
  // `({ name }: any)`: what a pattern takes out is read by name, which changingRead judges.
  if (!ts.isIdentifier(name)) return false;
  let handed = false;
  forEachNode(parameter.parent, (n) => {
    const call = n.parent;
    if (!handed && ts.isIdentifier(n) && n.text === name.text && call && ts.isCallExpression(call) && call.arguments.includes(n as ts.Expression) && !harmlessCallee(call.expression.getText())) handed = declarationOf(n) === parameter;
  });
  return handed;
}

/** Why a call whose records a GraphQL resolver returns stays on v1 (after "this ... stays on v1: "). */
function returnedToGraphql(r: Resolver, resource: ResourceContract): string {
  return `its records are returned by ${r.path} to ${r.handedTo}, whose GraphQL schema reads their fields by v1's names where migrate-v2 does not follow (${renamesInWords(resource)}); migrate it with the schema by hand`;
}

/** The note of a call whose untyped records are put where the flow does not follow them (`where`: in what, and which or whose members). */
function recordsOutOfSight(call: V1Call, where: string): string {
  return `${staysOnV1(call)}: its records are put ${where} migrate-v2 does not follow where they are read (${renamesInWords(call.resource)}); migrate it by hand, or give the records a type`;
}
