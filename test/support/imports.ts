/**
 * The import graph of a folder of TypeScript sources, read with the compiler's parser (not a
 * regular expression): every relative import and re-export, static or `import()`, type-only or
 * not, as an edge between files. The structure tests of src/cli walk it for cycles.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export interface ImportEdge {
  from: string;
  to: string;
  /** `import()`: loaded when the line runs, not when the file does. */
  dynamic: boolean;
  /** Erased by TypeScript: `import type`, or every name imported is a type. */
  typeOnly: boolean;
}

export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.tsx?$/.test(f) && !f.endsWith('.d.ts'))
    .map((f) => join(dir, f))
    .sort();
}

function allTypes(clause: ts.ImportClause | undefined): boolean {
  if (!clause) return false;
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  return bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
}

/** The relative imports of one file, resolved to `.ts`/`.tsx` files (paths as given, joined). */
export function importsOf(file: string): ImportEdge[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const edges: ImportEdge[] = [];
  const add = (specifier: string, dynamic: boolean, typeOnly: boolean) => {
    if (!specifier.startsWith('.')) return;
    const target = resolve(dirname(file), specifier).replace(/\.js$/, '');
    const found = [`${target}.ts`, `${target}.tsx`].find((t) => existsSync(t));
    edges.push({ from: file, to: found ?? `${target}.ts`, dynamic, typeOnly });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) add(node.moduleSpecifier.text, false, allTypes(node.importClause));
    else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) add(node.moduleSpecifier.text, false, node.isTypeOnly);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) add(node.arguments[0].text, true, false);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) add(node.argument.literal.text, false, true);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

/** Every file of `dir` and every import among them (read once: parsing is the slow part). */
export function importEdges(dir: string): { files: string[]; edges: ImportEdge[] } {
  const files = sourceFiles(dir);
  const inside = new Set(files);
  return { files, edges: files.flatMap(importsOf).filter((e) => inside.has(e.to)) };
}

/** The graph of those files: the edges `keep` accepts. */
export function importGraph({ files, edges }: { files: string[]; edges: ImportEdge[] }, keep: (e: ImportEdge) => boolean = () => true): Map<string, string[]> {
  const graph = new Map<string, string[]>(files.map((f) => [f, []]));
  for (const e of edges) if (keep(e) && !graph.get(e.from)!.includes(e.to)) graph.get(e.from)!.push(e.to);
  return graph;
}

/** The graph's strongly connected components of more than one file (or a file importing itself): its cycles, each sorted. */
export function cycles(graph: Map<string, string[]>): string[][] {
  // Tarjan's algorithm.
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (v: string) => {
    indices.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!indices.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indices.get(w)!));
    }
    if (low.get(v) === indices.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!indices.has(v)) connect(v);
  return found;
}

/** Every file `from` reaches in the graph (itself left out unless a cycle leads back). */
export function reachable(graph: Map<string, string[]>, from: string): Set<string> {
  const seen = new Set<string>();
  const todo = [...(graph.get(from) ?? [])];
  while (todo.length > 0) {
    const f = todo.pop()!;
    if (seen.has(f)) continue;
    seen.add(f);
    todo.push(...(graph.get(f) ?? []));
  }
  return seen;
}

/** Paths relative to `root`, for messages. */
export const named = (root: string, files: Iterable<string>): string[] => [...files].map((f) => relative(root, f)).sort();
