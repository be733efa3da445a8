/**
 * A declared type made of primitives stands for every read of its name: narrowing keeps it a
 * primitive, so it is never a resource, an envelope or an array, and no read needs the checker.
 */
import { ts } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { onlyPrimitives } from '../../src/codemod/narrowing.js';

const SOURCE = `
interface Group { uid: string }
enum Colour { Red, Green }
declare const count: number;
declare const name: string | undefined;
declare const flag: boolean;
declare const colour: Colour;
declare const big: bigint | null;
declare const group: Group;
declare const maybe: Group | undefined;
declare const mixed: string | Group;
declare const list: number[];
declare const anything: any;
declare const unseen: unknown;
`;

/** The declared type of each `declare const` of SOURCE. */
function declaredTypes(): Map<string, ts.Type> {
  const options: ts.CompilerOptions = { strict: true, noEmit: true, types: [], noLib: true };
  const host = ts.createCompilerHost(options, true);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, how) => (name === 'a.ts' ? ts.createSourceFile(name, SOURCE, how, true) : getSourceFile(name, how));
  const program = ts.createProgram({ rootNames: ['a.ts'], options, host });
  const checker = program.getTypeChecker();
  const out = new Map<string, ts.Type>();
  for (const statement of program.getSourceFile('a.ts')!.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const d of statement.declarationList.declarations) out.set(d.name.getText(), checker.getTypeAtLocation(d.name));
  }
  return out;
}

describe('onlyPrimitives', () => {
  const types = declaredTypes();
  it.each(['count', 'name', 'flag', 'colour', 'big'])('%s: made of primitives', (name) => {
    expect(onlyPrimitives(types.get(name)!)).toBe(true);
  });
  it.each(['group', 'maybe', 'mixed', 'list', 'anything', 'unseen'])('%s: an object, an array or any type may be read there', (name) => {
    expect(onlyPrimitives(types.get(name)!)).toBe(false);
  });
});
