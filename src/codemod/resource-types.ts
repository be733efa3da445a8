/**
 * Which types describe v1 resources and list envelopes: known by evidence, never by name. A type
 * is a resource type when it is attached to a v1 response (the type argument of a recognised call,
 * a cast or annotation on its body or on a variable holding it, the declared return type of a
 * function returning it, the element type of its envelope, the parameter it is passed to). Extra
 * members never disqualify one. The checker then finds these types on any value, in any file.
 */
import { ts } from 'ts-morph';
import { clientFieldRenames, renamedFieldNames, resourceOf, type ResourceContract } from '../contract/index.js';

/** The node that holds a type's members: an interface, or a type literal (also behind an alias). */
export type Container = ts.InterfaceDeclaration | ts.TypeLiteralNode | ts.JSDocTypeLiteral;

export type TypeShape = 'resource' | 'array' | 'envelope';

export interface TypeRole {
  shape: 'resource' | 'envelope';
  resource: ResourceContract;
}

/** What the checker says a value is, when its type is a known resource or envelope type. */
export interface CheckedRole {
  shape: TypeShape;
  resource: ResourceContract;
}

/** A named type a record type takes renamed members from, and the calls whose records it types. */
export interface SharedBase {
  /** The record type's name, as a note says it. */
  type: string;
  base: ts.InterfaceDeclaration | ts.TypeAliasDeclaration;
  calls: Set<object>;
}

/** A generic envelope `Page<T> { items: T[] }`: the kind comes from its type argument. */
interface GenericEnvelope {
  parameter: string;
  kinds: Set<ResourceContract>;
  /** Instantiated with a type that is not a resource: a database page, say. */
  foreign: boolean;
}

const ARRAY_NAMES = new Set(['Array', 'ReadonlyArray']);
const WRAPPER_NAMES = new Set(['Promise', 'PromiseLike', 'Readonly', 'Required', 'Partial', 'NonNullable', 'Pick', 'Omit']);

export class ResourceTypes {
  /** Every container known to describe a resource or envelope, with the kinds it was seen as. */
  readonly containers = new Map<Container, TypeRole[]>();
  readonly generics = new Map<Container, GenericEnvelope>();
  /** Containers seen on values of calls that stay on v1: their members must keep v1 names. */
  readonly pinned = new Set<Container>();
  /** The v1 calls whose values each container was seen on. */
  readonly seenOn = new Map<Container, Set<object>>();
  /**
   * Constraints of generic helpers (`<T extends { id: string }>`) also handed values that are no API
   * records: they keep their names, as pinned containers do.
   */
  readonly foreign = new Set<Container>();
  /**
   * Containers that type data whose keys are not the API's to rename (`JSON.parse(text) as
   * Desired[]`, the answer of a request that stays on v1, an envelope the program builds): they keep
   * their names; with what that data is and what to do, as a note says it.
   */
  readonly fromData = new Map<Container, string>();
  /**
   * Containers of a declaration file (`globals.d.ts`, a package's types) seen on values of calls
   * that would migrate, naming a member v2 renames: they are not rewritten, so those calls cannot
   * migrate; by the calls seen on each.
   */
  readonly unwritable = new Map<Container, Set<object>>();
  /**
   * JSDoc `@typedef {object}` lists (`@property {Group[]} items`) seen on lists that would migrate: the
   * codemod renames a record type's `@property` tags, not a list's key and page fields, so those
   * calls cannot migrate whole; by the calls seen on each.
   */
  readonly jsDocLists = new Map<ts.JSDocTypeLiteral, Set<object>>();
  /**
   * Record types that take a member v2 renames from a named type they extend or are made with
   * (`interface Identity extends Stamped`, `type Identity = Stamped & { name: string }`): renaming it
   * would rename the members of every other type made from it (`interface Job extends Stamped`), whose
   * values are no API records; by the record type's declaration, with its base and the calls seen on it.
   */
  readonly inheriting = new Map<ts.InterfaceDeclaration | ts.TypeAliasDeclaration, SharedBase>();
  /**
   * Record types inferred from a value (`z.infer<typeof GroupSchema>`, `typeof sample`) whose members
   * v2 renames are the keys of that value's object literal: a schema's keys also decide what it
   * accepts, so they are not renamed as a type's members are, and the calls seen on such a type
   * cannot migrate whole; by the literal, with those calls.
   */
  readonly inferred = new Map<ts.ObjectLiteralExpression, Set<object>>();
  /**
   * Parameter types written in place (`label(g: { id: string })`) and the record types of the values
   * handed to them where no call is traced (an app's `Group` from an API package): the calls those
   * record types are seen on reach the parameter too.
   */
  readonly fedBy = new Map<Container, Set<Container>>();
  private context: { call?: object; pinned: boolean } = { pinned: false };
  private readonly typeCache = new Map<ts.Type, CheckedRole | null>();

  constructor(private readonly checker: ts.TypeChecker) {}

  /** Forgets everything learned, for another round after decisions changed. */
  reset(): void {
    this.containers.clear();
    this.generics.clear();
    this.pinned.clear();
    this.foreign.clear();
    this.fromData.clear();
    this.seenOn.clear();
    this.fedBy.clear();
    this.unwritable.clear();
    this.jsDocLists.clear();
    this.inheriting.clear();
    this.inferred.clear();
    this.typeCache.clear();
  }

  /** Runs `attach` calls on behalf of one v1 call (pinned: the call stays on v1). */
  within(call: object | undefined, pinned: boolean, run: () => void): void {
    const outer = this.context;
    this.context = { ...(call ? { call } : {}), pinned };
    try {
      run();
    } finally {
      this.context = outer;
    }
  }

  /** Records that a type written in the source describes a value of this shape. */
  attach(node: ts.TypeNode | undefined, shape: TypeShape, resource: ResourceContract, depth = 0): void {
    if (!node || depth > 6) return;
    if (ts.isParenthesizedTypeNode(node)) return this.attach(node.type, shape, resource, depth + 1);
    if (ts.isUnionTypeNode(node) || ts.isIntersectionTypeNode(node)) {
      // A named type made with a base (`type Group = Stamped & {...}`); an intersection written in place names no type other values could share.
      if (ts.isIntersectionTypeNode(node) && shape === 'resource' && ts.isTypeAliasDeclaration(node.parent)) this.noteSharedBase(node.parent, node.types, resource);
      const members = ts.isUnionTypeNode(node) && shape === 'resource' ? this.membersFitting(node.types, resource) : node.types;
      for (const t of members) this.attach(t, shape, resource, depth + 1);
      return;
    }
    if (ts.isArrayTypeNode(node)) {
      if (shape === 'array') this.attach(node.elementType, 'resource', resource, depth + 1);
      return;
    }
    if (ts.isTypeOperatorNode(node)) return this.attach(node.type, shape, resource, depth + 1);
    if (ts.isTypeLiteralNode(node)) return this.attachContainer(node, shape, resource, undefined, depth);
    if (ts.isIndexedAccessTypeNode(node)) {
      const resolved = shape !== 'array' ? this.resolvedContainer(node) : undefined;
      if (resolved) this.attachContainer(resolved, shape, resource, undefined, depth);
      return;
    }
    if (ts.isTypeQueryNode(node)) return this.noteInferred(node, shape, resource);
    // `import('./types').Identity` of a JSDoc type: the type literal it comes to.
    if (ts.isImportTypeNode(node)) {
      const resolved = shape !== 'array' ? this.resolvedContainer(node) : undefined;
      if (resolved) this.attachContainer(resolved, shape, resource, undefined, depth);
      return;
    }
    if (!ts.isTypeReferenceNode(node)) return;
    const name = ts.isIdentifier(node.typeName) ? node.typeName.text : node.typeName.right.text;
    const args = node.typeArguments ?? [];
    if (ARRAY_NAMES.has(name)) {
      if (shape === 'array') this.attach(args[0], 'resource', resource, depth + 1);
      return;
    }
    if (WRAPPER_NAMES.has(name)) return this.attach(args[0], shape, resource, depth + 1);
    // `T` of `function indexById<T extends { id: string }>(records: T[])`: its constraint describes the value.
    const constraint = this.constraintOf(node.typeName);
    if (constraint) return this.attach(constraint, shape, resource, depth + 1);
    const aliased = this.aliasedType(node.typeName);
    if (aliased) return this.attach(aliased, shape, resource, depth + 1);
    const container = this.containerOf(node.typeName);
    if (container && shape !== 'array') this.attachContainer(container, shape, resource, args, depth);
    const resolved = !container && shape !== 'array' ? this.resolvedContainer(node) : undefined;
    if (resolved) this.attachContainer(resolved, shape, resource, undefined, depth);
    else if (!container) this.noteInferred(node, shape, resource);
  }

  /** A type the checker makes from a value: the object literal that declares a member v2 renames, noted with the call. */
  private noteInferred(node: ts.TypeNode, shape: TypeShape, resource: ResourceContract): void {
    const call = this.context.call;
    if (!call || this.context.pinned) return;
    let type = this.checker.getTypeFromTypeNode(node);
    // `typeof SAMPLES` of `[{ id: 'r1', ... }]`: its records' type.
    if (shape === 'array') type = (this.checker.isArrayType(type) ? this.checker.getTypeArguments(type as ts.TypeReference)[0] : undefined) ?? type;
    for (const name of renamedMembers(shape === 'array' ? 'resource' : shape, resource)) {
      const literal = type
        .getProperty(name)
        ?.declarations?.map((d) => d.parent)
        .find((p): p is ts.ObjectLiteralExpression => ts.isObjectLiteralExpression(p) && isProjectSource(p.getSourceFile()));
      if (literal) {
        this.inferred.set(literal, (this.inferred.get(literal) ?? new Set()).add(call));
        return;
      }
    }
  }

  /**
   * The type literal or interface a type written in other terms comes to, by the checker: a member
   * of openapi-typescript's schemas (`components['schemas']['Group']`), what a conditional type
   * over its `paths` gives (`Json<'/iam/v1/groups'>`).
   */
  private resolvedContainer(node: ts.TypeNode): Container | undefined {
    const declared = this.checker.getTypeFromTypeNode(node).getSymbol()?.declarations?.[0];
    return declared && (ts.isTypeLiteralNode(declared) || ts.isInterfaceDeclaration(declared)) ? declared : undefined;
  }

  /**
   * `record: Group | Identity` handed identities: the record types of a union that hold them are
   * those whose members are most the kind's fields; the others describe the other kinds handed.
   */
  private membersFitting(types: ts.NodeArray<ts.TypeNode>, resource: ResourceContract): readonly ts.TypeNode[] {
    const fields = new Set(resource.fields.flatMap((f) => [f.v1, f.v2].filter((n): n is string => n !== undefined)));
    const score = (t: ts.TypeNode): number | undefined => {
      const container = ts.isTypeLiteralNode(t) ? t : ts.isTypeReferenceNode(t) ? this.containerOf(t.typeName) : undefined;
      return container && namedMembers(container).filter((m) => fields.has(m.name)).length;
    };
    const scores = types.map(score);
    const records = scores.filter((s): s is number => s !== undefined);
    if (records.length < 2) return types;
    const best = Math.max(...records);
    return types.filter((_, i) => scores[i] === undefined || scores[i] === best);
  }

  /** The type an alias names when it is not a literal (`type Groups = Group[]`). */
  private aliasedType(name: ts.EntityName): ts.TypeNode | undefined {
    const d = this.declarationOfType(name);
    const typedef = d && typedefType(d);
    if (typedef) return ts.isTypeLiteralNode(typedef) || ts.isJSDocTypeLiteral(typedef) ? undefined : typedef;
    return d && ts.isTypeAliasDeclaration(d) && !ts.isTypeLiteralNode(d.type) && !d.typeParameters ? d.type : undefined;
  }

  /** The constraint of a type parameter a name refers to, when it has one. */
  private constraintOf(name: ts.EntityName): ts.TypeNode | undefined {
    if (!ts.isIdentifier(name)) return undefined;
    const d = this.checker.getSymbolAtLocation(name)?.declarations?.[0];
    return d && ts.isTypeParameterDeclaration(d) ? d.constraint : undefined;
  }

  /**
   * `records: T[]` of a generic helper handed a value that is no API record: the container its
   * constraint names (`{ id: string }`) serves both, and keeps its names.
   */
  markForeignArgument(parameterType: ts.TypeNode | undefined): void {
    let node = parameterType;
    if (node && ts.isArrayTypeNode(node)) node = node.elementType;
    // `label(x: { id: string; name: string })` handed a record and a task of the program's own: the type written in place.
    const inPlace = node && ts.isTypeLiteralNode(node) ? node : undefined;
    if (!inPlace && (!node || !ts.isTypeReferenceNode(node))) return;
    const constraint = inPlace ?? this.constraintOf((node as ts.TypeReferenceNode).typeName);
    const container = constraint && (ts.isTypeLiteralNode(constraint) ? constraint : ts.isTypeReferenceNode(constraint) ? this.containerOf(constraint.typeName) : undefined);
    if (container && !this.foreign.has(container)) {
      this.foreign.add(container);
      this.pinned.add(container);
      this.typeCache.clear();
    }
  }

  /** A record handed to a parameter typed in place, by the value's own record type (`label(group)`, `group: Group`). */
  noteFed(parameterType: ts.TypeNode | undefined, valueType: ts.Type): void {
    const node = parameterType && ts.isArrayTypeNode(parameterType) ? parameterType.elementType : parameterType;
    if (!node || !ts.isTypeLiteralNode(node)) return;
    const element = this.checker.isArrayType(valueType) ? this.checker.getTypeArguments(valueType as ts.TypeReference)[0] : valueType;
    const owner = element && soleOwner(element);
    if (!owner || owner === node || !this.containers.has(owner)) return;
    const feeders = this.fedBy.get(node) ?? new Set<Container>();
    feeders.add(owner);
    this.fedBy.set(node, feeders);
  }

  /** The calls a parameter typed in place is reached by through the record types handed to it, added to those seen on it. */
  seenThroughFeeders(): void {
    for (const [fed, feeders] of this.fedBy) {
      const calls = this.seenOn.get(fed) ?? new Set<object>();
      for (const feeder of feeders) for (const call of this.seenOn.get(feeder) ?? []) calls.add(call);
      this.seenOn.set(fed, calls);
    }
  }

  /**
   * A type written on data the program reads from a file or a string (`JSON.parse(text) as
   * Desired[]`, `Desired = Pick<Identity, 'id'>`), on the answer of a request that stays on v1, or
   * on an envelope the program builds: the record types it is made of keep their names (`why`: what
   * that data is, for the note).
   */
  markData(node: ts.TypeNode, why: string): void {
    this.markDataOf(this.checker.getTypeFromTypeNode(node), why);
  }

  /** markData of a value's type: the record types it is made of keep their names. */
  markDataOf(type: ts.Type, why: string): void {
    for (const owner of this.recordOwners(type)) {
      if (!this.containers.has(owner) || this.fromData.has(owner)) continue;
      // `ListResponse<Repo>` there: the list type keeps its names for that data, and each list that migrates gets a v2 copy of its own (needsCopies).
      const generic = this.generics.get(owner);
      if (generic) {
        generic.foreign = true;
        this.typeCache.clear();
        continue;
      }
      this.fromData.set(owner, why);
      this.pinned.add(owner);
      this.typeCache.clear();
    }
  }

  /**
   * Of the named types a record type extends or is made with (`bases`), the first that declares a
   * member v2 renames on the kind: the record type and the call are noted in `inheriting`.
   */
  private noteSharedBase(owner: ts.InterfaceDeclaration | ts.TypeAliasDeclaration, bases: readonly (ts.TypeNode | ts.ExpressionWithTypeArguments)[], resource: ResourceContract): void {
    const call = this.context.call;
    if (!call || this.context.pinned) return;
    for (const ref of bases) {
      const name = ts.isExpressionWithTypeArguments(ref) ? (ts.isIdentifier(ref.expression) ? ref.expression : undefined) : ts.isTypeReferenceNode(ref) ? ref.typeName : undefined;
      const base = name && this.declarationOfType(name);
      const members = base && (ts.isInterfaceDeclaration(base) ? base : ts.isTypeAliasDeclaration(base) && ts.isTypeLiteralNode(base.type) ? base.type : undefined);
      if (!members || !namesRenamedMember(members, 'resource', resource)) continue;
      const entry = this.inheriting.get(owner) ?? { type: owner.name.text, base: base as SharedBase['base'], calls: new Set<object>() };
      this.inheriting.set(owner, { ...entry, calls: entry.calls.add(call) });
      return;
    }
  }

  /** The interface or type alias a type name refers to, through imports. */
  declarationOfType(name: ts.EntityName): ts.Declaration | undefined {
    let symbol = this.checker.getSymbolAtLocation(name);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = this.checker.getAliasedSymbol(symbol);
    return symbol?.declarations?.find((d) => ts.isInterfaceDeclaration(d) || ts.isTypeAliasDeclaration(d) || ts.isJSDocTypedefTag(d));
  }

  private attachContainer(container: Container, shape: TypeShape, resource: ResourceContract, args: readonly ts.TypeNode[] | undefined, depth: number): void {
    if (shape === 'array') return;
    // A JSDoc `@typedef {object}` takes records' renames in its `@property` tags; a list written so keeps its key and its calls stay.
    if (ts.isJSDocTypeLiteral(container) && shape !== 'resource') {
      if (this.context.call && !this.context.pinned && namesRenamedMember(container, shape, resource)) this.jsDocLists.set(container, (this.jsDocLists.get(container) ?? new Set()).add(this.context.call));
      return;
    }
    if (!isProjectSource(container.getSourceFile())) {
      if (this.context.call && !this.context.pinned && namesRenamedMember(container, shape, resource)) this.unwritable.set(container, (this.unwritable.get(container) ?? new Set()).add(this.context.call));
      return;
    }
    if (this.context.call) this.seenOn.set(container, (this.seenOn.get(container) ?? new Set()).add(this.context.call));
    if (shape === 'resource' && ts.isInterfaceDeclaration(container)) this.noteSharedBase(container, container.heritageClauses?.flatMap((c) => c.types) ?? [], resource);
    if (this.context.pinned) {
      if (this.pinned.has(container)) return;
      this.pinned.add(container);
      // A role worked out before the pin would still name the type a resource.
      this.typeCache.clear();
    }
    const roles = this.containers.get(container) ?? [];
    const known = roles.some((r) => r.shape === shape && r.resource === resource);
    if (!known) {
      roles.push({ shape, resource });
      this.containers.set(container, roles);
      this.typeCache.clear();
    } else if (!this.context.pinned && !args?.length) return;
    // `ListResponse<Group>` met again: its argument is seen on this call too, as a type of its own.
    if (shape === 'envelope') {
      const items = memberType(container, resource.v1.endpoints.list!.envelopeKey);
      const parameter = items && elementTypeName(items);
      const owner = ts.isTypeLiteralNode(container) && ts.isTypeAliasDeclaration(container.parent) ? container.parent : container;
      const typeParameters = ts.isInterfaceDeclaration(owner) || ts.isTypeAliasDeclaration(owner) ? owner.typeParameters ?? [] : [];
      const index = typeParameters.findIndex((p) => p.name.text === parameter);
      if (index >= 0) {
        const generic = this.generics.get(container) ?? { parameter: parameter!, kinds: new Set(), foreign: false };
        generic.kinds.add(resource);
        this.generics.set(container, generic);
        this.attach(args?.[index], 'resource', resource, depth + 1);
      } else {
        this.attach(items, 'array', resource, depth + 1);
      }
      return;
    }
    // A resource's references are resources of their own kind: a binding's `role` and `group`.
    for (const field of resource.fields) {
      if (field.reference?.v1Form === 'object' && field.v1) this.attach(memberType(container, field.v1), 'resource', resourceOf(field.reference.target), depth + 1);
    }
  }

  /** The container a type name refers to, through imports and aliases. */
  containerOf(name: ts.EntityName): Container | undefined {
    const d = this.declarationOfType(name);
    if (d && ts.isInterfaceDeclaration(d)) return d;
    if (d && ts.isTypeAliasDeclaration(d) && ts.isTypeLiteralNode(d.type)) return d.type;
    return d && jsDocRecordType(d);
  }

  /**
   * Marks generic envelopes that are also instantiated with types that are no resource (a database
   * page), or with the type parameter of a reader of every kind's lists: those are used by values of
   * other kinds too and are not renamed in place.
   */
  markForeignUses(reference: ts.TypeReferenceNode, anyKind: (arg: ts.TypeNode) => boolean): void {
    const container = this.containerOf(reference.typeName);
    const generic = container && this.generics.get(container);
    const arg = reference.typeArguments?.[0];
    if (!generic || !arg) return;
    const role = this.roleOf(this.checker.getTypeFromTypeNode(arg));
    // A type parameter stands for what its function is handed, unless that function reads any kind's list (`getList<T>(path)`).
    if (!role && (!isTypeParameterReference(arg) || anyKind(arg))) {
      generic.foreign = true;
      this.typeCache.clear();
    }
  }

  /** Names of the containers known so far, for a cheap text filter of type references. */
  containerNames(): Set<string> {
    const names = new Set<string>();
    for (const c of this.containers.keys()) {
      const owner = ts.isTypeLiteralNode(c) ? c.parent : c;
      if (ts.isInterfaceDeclaration(owner) || ts.isTypeAliasDeclaration(owner)) names.add(owner.name.text);
    }
    return names;
  }

  /** The role of a type: a resource, an array of one, or an envelope; null when it is none of these. */
  roleOf(type: ts.Type): CheckedRole | null {
    const cached = this.typeCache.get(type);
    if (cached !== undefined) return cached;
    this.typeCache.set(type, null);
    const role = this.computeRole(type);
    this.typeCache.set(type, role);
    return role;
  }

  private computeRole(type: ts.Type): CheckedRole | null {
    if (this.containers.size === 0) return null;
    const t = this.checker.getNonNullableType(type);
    if (t.isUnion()) {
      const roles = t.types.map((m) => this.roleOf(m));
      const first = roles[0];
      // `Group | Identity | Repo`: a member read on the union exists on every kind, and the renames
      // of a name every kind has agree (§9.4 renames by name), so the first kind's stand for all.
      return first && roles.every((r) => r && r.shape === first.shape && (r.resource === first.resource || r.shape === 'resource')) ? first : null;
    }
    // `Repo & { team: string }` of a Repo that keeps its v1 names holds v1 records, whatever its other part was seen as.
    if (t.isIntersection()) return t.types.some((m) => this.isPinned(m)) ? null : (t.types.map((m) => this.roleOf(m)).find((r) => r) ?? null);
    if (t.flags & ts.TypeFlags.TypeParameter) {
      const constraint = this.checker.getBaseConstraintOfType(t);
      return constraint && constraint !== t ? this.roleOf(constraint) : null;
    }
    if (this.checker.isArrayType(t)) {
      const element = this.checker.getTypeArguments(t as ts.TypeReference)[0];
      const role = element && this.roleOf(element);
      return role?.shape === 'resource' ? { shape: 'array', resource: role.resource } : null;
    }
    for (const symbol of [t.aliasSymbol, t.getSymbol()]) {
      for (const d of symbol?.declarations ?? []) {
        const container = ts.isTypeAliasDeclaration(d) && ts.isTypeLiteralNode(d.type) ? d.type : isContainer(d) ? d : jsDocRecordType(d);
        const roles = container && this.containers.get(container);
        if (!roles || this.pinned.has(container!)) continue;
        const generic = this.generics.get(container!);
        if (generic) return this.genericRole(t, generic);
        if (roles.length === 1 || roles.every((r) => r.shape === roles[0]!.shape)) return roles[0]!;
      }
    }
    return this.derivedRole(t);
  }

  /**
   * The record types a type written on data is made of: itself, the elements of an array, the values
   * of a `Record<string, T>` cache, what a promise gives, each member of a union, and the members of
   * an object type that is no record (`{ items: Group[] }`, a config's `{ defaultGroup: Pick<Group, 'id'> }`).
   */
  private recordOwners(t: ts.Type, depth = 0): Container[] {
    if (depth > 3) return [];
    const checker = this.checker;
    if (t.isUnion()) return t.types.flatMap((u) => this.recordOwners(u, depth + 1));
    if (checker.isArrayType(t) || checker.isTupleType(t)) return checker.getTypeArguments(t as ts.TypeReference).flatMap((e) => this.recordOwners(e, depth + 1));
    const awaited = checker.getAwaitedType(t);
    if (awaited && awaited !== t) return this.recordOwners(awaited, depth + 1);
    const values = t.getStringIndexType();
    if (values) return this.recordOwners(values, depth + 1);
    if (!(t.flags & ts.TypeFlags.Object)) return [];
    const owner = soleOwner(t);
    if (owner && this.containers.get(owner)?.every((r) => r.shape === 'resource')) return [owner];
    const members = t.getProperties().flatMap((p) => this.recordOwners(checker.getTypeOfSymbol(p), depth + 1));
    return owner && this.containers.has(owner) ? [owner, ...members] : members;
  }

  /** The first v1 call whose values a type's container was seen on. */
  callSeenOn(t: ts.Type): object | undefined {
    const owner = soleOwner(this.checker.getNonNullableType(t));
    return owner ? this.seenOn.get(owner)?.values().next().value : undefined;
  }

  /** A type declared by a container that keeps its v1 names. */
  private isPinned(t: ts.Type): boolean {
    const declared = [t.aliasSymbol, t.getSymbol()].flatMap((symbol) => symbol?.declarations ?? []);
    const containers = declared.map((d) => (ts.isTypeAliasDeclaration(d) && ts.isTypeLiteralNode(d.type) ? d.type : d));
    const owner = soleOwner(t);
    return [...containers, ...(owner ? [owner] : [])].some((c) => this.pinned.has(c as Container));
  }

  /**
   * Whether a value's type takes a field v2 renames from a record type, pinned or not: `g: Group`,
   * `{ ...group, description }`. Such a value is an API record (of v1 where the type keeps its names),
   * never a value of the program's own.
   */
  holdsRecord(t: ts.Type): boolean {
    return this.recordTypeOf(t) !== undefined;
  }

  /** The record type a value's type takes a field v2 renames from, as holdsRecord finds it. */
  recordTypeOf(t: ts.Type): Container | undefined {
    for (const name of renamedFieldNames()) {
      const owner = t.getProperty(name)?.declarations?.[0]?.parent;
      if (owner && isContainer(owner) && this.containers.get(owner)?.some((r) => r.shape === 'resource')) return owner;
    }
    return undefined;
  }

  /**
   * `Pick<Identity, 'id' | 'name'>`, `Partial<Group>`, `Readonly<Group>`, the type of `{ ...group }`:
   * an object type whose every member is one container's, as mapped types over it and spreads of it
   * make, holds the same records.
   */
  private derivedRole(t: ts.Type): CheckedRole | null {
    const owner = soleOwner(t);
    if (!owner) return null;
    const roles = this.containers.get(owner);
    if (!roles || this.pinned.has(owner) || this.generics.has(owner)) return null;
    return roles.length === 1 || roles.every((r) => r.shape === roles[0]!.shape) ? roles[0]! : null;
  }

  /**
   * A generic list type that cannot take one set of v2 names in place: used for several kinds, or
   * for values that are no resource. Where it types a v2 list, it is replaced by a v2 copy.
   */
  needsCopies(container: Container): boolean {
    const generic = this.generics.get(container);
    return generic !== undefined && (generic.foreign || generic.kinds.size > 1);
  }

  /** `Page<Group>` is an envelope of groups; `Page<Order>` is nothing of ours. */
  private genericRole(type: ts.Type, generic: GenericEnvelope): CheckedRole | null {
    const args = type.aliasTypeArguments ?? ((type as ts.TypeReference).target ? this.checker.getTypeArguments(type as ts.TypeReference) : []);
    for (const arg of args) {
      const role = this.roleOf(arg);
      if (role?.shape === 'resource') return { shape: 'envelope', resource: role.resource };
    }
    return generic.kinds.size === 1 && args.length === 0 ? { shape: 'envelope', resource: [...generic.kinds][0]! } : null;
  }
}

/** `{ id: string, name: string }` of `@typedef {{ id: string, name: string }} Group` in a JavaScript file's JSDoc. */
function typedefType(d: ts.Declaration): ts.TypeNode | undefined {
  if (!ts.isJSDocTypedefTag(d) || !d.typeExpression) return undefined;
  return ts.isJSDocTypeExpression(d.typeExpression) ? d.typeExpression.type : d.typeExpression;
}

/** The record type a JSDoc typedef declares, written as a literal or with `@property` tags. */
function jsDocRecordType(d: ts.Declaration): Container | undefined {
  const typedef = typedefType(d);
  return typedef && (ts.isTypeLiteralNode(typedef) || ts.isJSDocTypeLiteral(typedef)) ? typedef : undefined;
}

/** Types of libraries and of the lib files are theirs, never ours to read as resources or to edit. */
export function isProjectSource(sf: ts.SourceFile): boolean {
  return !sf.isDeclarationFile && !sf.fileName.includes('/node_modules/');
}

/** The v1 names of the members v2 names otherwise: a record's renamed fields, a list's records' key. */
function renamedMembers(shape: TypeShape, resource: ResourceContract): string[] {
  const list = resource.v1.endpoints.list;
  if (shape === 'envelope') return list && list.envelopeKey !== resource.v2.endpoints.list?.envelopeKey ? [list.envelopeKey] : [];
  return [...clientFieldRenames(resource).keys()];
}

/** Whether a container names a member v2 names otherwise: a renamed field of a record, the records' key of a list. */
function namesRenamedMember(container: Container, shape: TypeShape, resource: ResourceContract): boolean {
  return renamedMembers(shape, resource).some((name) => namedMembers(container).some((m) => m.name === name));
}

/** A member of a record type written with a name: a property signature (or a method), or a JSDoc `@property` tag. */
export interface NamedMember {
  name: string;
  /** The node that names it, which a rename replaces. */
  nameNode: ts.Node;
  /** Its type, for a property. */
  type: ts.TypeNode | undefined;
}

/** The members of a record type that have a name: `id: string` of an interface or literal, `@property {string} id` of a JSDoc typedef. */
export function namedMembers(container: Container): NamedMember[] {
  if (ts.isJSDocTypeLiteral(container)) {
    return (container.jsDocPropertyTags ?? []).flatMap((tag) => (ts.isIdentifier(tag.name) ? [{ name: tag.name.text, nameNode: tag.name, type: tag.typeExpression?.type }] : []));
  }
  return container.members.flatMap((m) => (m.name && (ts.isIdentifier(m.name) || ts.isStringLiteral(m.name)) ? [{ name: m.name.text, nameNode: m.name, type: ts.isPropertySignature(m) ? m.type : undefined }] : []));
}

/** The type node of a container's member, by name. */
export function memberType(container: Container, name: string): ts.TypeNode | undefined {
  return namedMembers(container).find((m) => m.name === name)?.type;
}

/** `T` of `T[]` or `Array<T>`, when it is a plain name. */
/** The element type of `T[]`, `readonly T[]`, `Array<T>` and `ReadonlyArray<T>`. */
export function arrayElementType(node: ts.TypeNode): ts.TypeNode | undefined {
  const n = ts.isTypeOperatorNode(node) && node.operator === ts.SyntaxKind.ReadonlyKeyword ? node.type : node;
  return ts.isArrayTypeNode(n) ? n.elementType : ts.isTypeReferenceNode(n) && ts.isIdentifier(n.typeName) && ARRAY_NAMES.has(n.typeName.text) ? n.typeArguments?.[0] : undefined;
}

function elementTypeName(node: ts.TypeNode): string | undefined {
  const element = arrayElementType(node);
  return element && ts.isTypeReferenceNode(element) && ts.isIdentifier(element.typeName) ? element.typeName.text : undefined;
}

function isTypeParameterReference(node: ts.TypeNode): boolean {
  if (!ts.isTypeReferenceNode(node) || !ts.isIdentifier(node.typeName)) return false;
  for (let n: ts.Node | undefined = node.parent; n; n = n.parent) {
    if ((ts.isFunctionLike(n) || ts.isInterfaceDeclaration(n) || ts.isTypeAliasDeclaration(n) || ts.isClassLike(n)) && n.typeParameters?.some((p) => p.name.text === (node.typeName as ts.Identifier).text)) return true;
  }
  return false;
}

/** The interface or type literal that declares every member of an object type (mapped types over it and spreads of it keep their members' declarations). */
function soleOwner(t: ts.Type): Container | undefined {
  if (!(t.flags & ts.TypeFlags.Object)) return undefined;
  let owner: ts.Node | undefined;
  for (const member of t.getProperties()) {
    const parent = member.declarations?.[0]?.parent;
    if (!parent || (owner && parent !== owner)) return undefined;
    owner = parent;
  }
  return owner && isContainer(owner) ? owner : undefined;
}

/** An interface, a type literal, or a JSDoc typedef's `@property` list: what declares a record type's members. */
function isContainer(node: ts.Node): node is Container {
  return ts.isInterfaceDeclaration(node) || ts.isTypeLiteralNode(node) || ts.isJSDocTypeLiteral(node);
}
