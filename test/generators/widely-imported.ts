/**
 * A large tree with v1 functions added to its most widely imported files: the shape of a real
 * application whose models gain a few platform calls. Importers are counted by the tree's own module
 * resolution (its tsconfig's `paths` included), and an import of a barrel (`export ... from`) counts
 * for every file it re-exports. Each chosen file gets, at its end, a resource type and two v1
 * functions that read and update records of it, named after the file so that no names clash.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { ts } from 'ts-morph';

export interface WidelyImportedOptions {
  /** How many files get v1 functions. */
  count: number;
  /** Only files below these folders of the tree (relative, forward slashes) are chosen. */
  under: readonly string[];
}

/** `import`, `export ... from` and `require` targets of a file, resolved to files of the tree. */
function resolvedImports(file: string, options: ts.CompilerOptions, known: ReadonlySet<string>): { imports: string[]; reexports: string[] } {
  const text = readFileSync(file, 'utf8');
  const info = ts.preProcessFile(text, true, true);
  const resolve = (spec: string) => ts.resolveModuleName(spec, file, options, ts.sys).resolvedModule?.resolvedFileName;
  const imports = info.importedFiles.flatMap((f) => resolve(f.fileName) ?? []).filter((f) => known.has(f));
  // `export * from`, `export { x } from`: what a barrel hands on.
  const reexports = [...text.matchAll(/^\s*export\s+(?:\*|\{[^}]*\}|type\s+\{[^}]*\})(?:\s+as\s+\w+)?\s+from\s+['"]([^'"]+)['"]/gm)].flatMap((m) => resolve(m[1]!) ?? []).filter((f) => known.has(f));
  return { imports, reexports };
}

/** Files of the tree by how many files import them (directly or through one barrel), most first. */
export function byImporters(files: readonly string[], tsconfig: string): [string, number][] {
  const parsed = ts.getParsedCommandLineOfConfigFile(tsconfig, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  const options = parsed?.options ?? {};
  const known = new Set(files);
  const importers = new Map<string, Set<string>>();
  const barrels = new Map<string, string[]>();
  for (const file of files) {
    const { imports, reexports } = resolvedImports(file, options, known);
    for (const target of imports) importers.set(target, (importers.get(target) ?? new Set()).add(file));
    if (reexports.length > 0) barrels.set(file, reexports);
  }
  for (const [barrel, targets] of barrels) {
    for (const target of targets) for (const importer of importers.get(barrel) ?? []) importers.set(target, (importers.get(target) ?? new Set()).add(importer));
  }
  return [...importers].map(([file, set]) => [file, set.size] as [string, number]).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}

/** The v1 code added to one file: a record type and two functions over it, in the file's names. */
export function v1Functions(file: string): string {
  const stem = basename(file, extname(file)).replace(/[^A-Za-z0-9]/g, '');
  const name = `${stem.charAt(0).toUpperCase()}${stem.slice(1)}`;
  return [
    '',
    `// Platform groups of ${name}, read from the platform's v1 API.`,
    `export interface Platform${name}Group {`,
    '  id: string;',
    '  name: string;',
    '  description: string;',
    '  createdAt: string;',
    '}',
    '',
    `export async function platformGroupsOf${name}(token: string): Promise<Platform${name}Group[]> {`,
    "  const res = await fetch(`${process.env.PLATFORM_URL ?? 'https://platform.example.com'}/iam/v1/groups`, { headers: { authorization: `Bearer ${token}` } });",
    `  const body = (await res.json()) as { items: Platform${name}Group[] };`,
    '  return body.items.filter((g) => g.createdAt !== "");',
    '}',
    '',
    `export async function describePlatformGroupOf${name}(group: Platform${name}Group, description: string): Promise<void> {`,
    "  await fetch(`${process.env.PLATFORM_URL ?? 'https://platform.example.com'}/iam/v1/groups/${group.id}`, { method: 'PUT', body: JSON.stringify({ ...group, description }) });",
    '}',
    '',
  ].join('\n');
}

/** Appends v1 functions to the `count` most imported files below `under`; the files chosen, most imported first. */
export function addV1ToWidelyImported(root: string, files: readonly string[], tsconfig: string, options: WidelyImportedOptions): string[] {
  const inside = (file: string) => options.under.some((dir) => file.startsWith(`${root}/${dir.replace(/\/$/, '')}/`));
  const chosen = byImporters(files, tsconfig)
    .filter(([file]) => inside(file) && !/\/index\.[cm]?[jt]sx?$/.test(file) && !file.endsWith('.d.ts') && !/\.(test|spec)\./.test(file))
    .slice(0, options.count)
    .map(([file]) => file);
  for (const file of chosen) appendFileSync(file, v1Functions(file));
  return chosen;
}
