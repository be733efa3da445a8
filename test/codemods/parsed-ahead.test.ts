/**
 * The typed scope parses the candidates before the program exists; the program takes those trees
 * in place of a second parse, but only where it would have parsed the file the same way.
 */
import { join } from 'node:path';
import { ts } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { hostWithTexts, ParsedAhead } from '../../src/codemod/program.js';
import { projectOf } from '../helpers/project.js';

const NODE_NEXT: ts.CompilerOptions = { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, strict: true, noEmit: true, types: [] };


/** A program over `path` whose host takes the trees `ahead` kept. */
function programOver(path: string, text: string, options: ts.CompilerOptions, ahead: ParsedAhead) {
  const host = hostWithTexts(options, (name) => (name === path ? text : undefined), (name, how) => ahead.take(name, how));
  const program = ts.createProgram({ rootNames: [path], options, host });
  return { sf: program.getSourceFile(path)!, program };
}

const TEXT = "export const group = { id: 'g1' };\nexport type Group = typeof group;\n";

describe('trees parsed ahead of the program', () => {
  it('are taken by a program that parses the file alike: the same tree, its module format told by package.json', () => {
    const dir = projectOf({ 'package.json': '{ "type": "module" }', 'a.ts': TEXT });
    const path = join(dir, 'a.ts');
    const ahead = new ParsedAhead(NODE_NEXT, 10);
    const parsed = ahead.parse(path, TEXT);
    const { sf, program } = programOver(path, TEXT, NODE_NEXT, ahead);
    expect(sf).toBe(parsed);
    expect(sf.impliedNodeFormat).toBe(ts.ModuleKind.ESNext);
    expect(sf.languageVersion).toBe(ts.ScriptTarget.ES2022);
    expect(program.getSemanticDiagnostics(sf)).toEqual([]);
    // Taken once: a second program parses the file itself.
    expect(programOver(path, TEXT, NODE_NEXT, ahead).sf).not.toBe(parsed);
  });

  it('are not taken where the program parses otherwise: another target, another module format', () => {
    const dir = projectOf({ 'package.json': '{ "type": "commonjs" }', 'a.ts': TEXT });
    const path = join(dir, 'a.ts');
    const esm = new ParsedAhead({ ...NODE_NEXT, target: ts.ScriptTarget.ES2020 }, 10);
    const parsed = esm.parse(path, TEXT);
    const { sf } = programOver(path, TEXT, NODE_NEXT, esm);
    expect(sf).not.toBe(parsed);
    expect(sf.languageVersion).toBe(ts.ScriptTarget.ES2022);
    expect(sf.impliedNodeFormat).toBe(ts.ModuleKind.CommonJS);
  });

  it('are kept up to the limit only: past it, none', () => {
    const dir = projectOf({ 'a.ts': TEXT, 'b.ts': TEXT });
    const ahead = new ParsedAhead(NODE_NEXT, 1);
    const a = ahead.parse(join(dir, 'a.ts'), TEXT);
    ahead.parse(join(dir, 'b.ts'), TEXT);
    expect(programOver(join(dir, 'a.ts'), TEXT, NODE_NEXT, ahead).sf).not.toBe(a);
  });
});
