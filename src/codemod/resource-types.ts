/**
 * Interfaces and type aliases of a file that describe a v1 resource: the name names the resource
 * (`Group`, `V1Group`, `RoleBinding`) and every member is one of its v1 fields, `id` among them.
 * Values declared with such a type are API resources, whoever produced them.
 */
import { ts } from 'ts-morph';
import { fieldNames, modelledResources, type ResourceContract } from '../contract/index.js';

export function describedResource(name: string, members: readonly string[]): ResourceContract | undefined {
  const resource = modelledResources()
    .filter((r) => name.toLowerCase().includes(r.kind.toLowerCase()))
    .sort((a, b) => b.kind.length - a.kind.length)[0];
  if (!resource || !members.includes('id')) return undefined;
  const v1 = new Set(fieldNames(resource, 'v1'));
  return members.every((m) => v1.has(m)) ? resource : undefined;
}

export function memberNames(members: ts.NodeArray<ts.TypeElement>): string[] {
  return members.flatMap((m) => (ts.isPropertySignature(m) && (ts.isIdentifier(m.name) || ts.isStringLiteral(m.name)) ? [m.name.text] : []));
}

/** Type name -> the v1 resource it describes, for the file's interfaces and type literals. */
export function resourceTypesOf(sf: ts.SourceFile): Map<string, ResourceContract> {
  const out = new Map<string, ResourceContract>();
  const visit = (node: ts.Node): void => {
    const members = ts.isInterfaceDeclaration(node) ? node.members : ts.isTypeAliasDeclaration(node) && ts.isTypeLiteralNode(node.type) ? node.type.members : undefined;
    if (members && (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node))) {
      const resource = describedResource(node.name.text, memberNames(members));
      if (resource) out.set(node.name.text, resource);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}
