import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import { parseSync } from 'vite';

/**
 * What `electron-vite build` must produce for the app to load in Electron, checked on the built
 * files themselves (issue 16). Each check returns its problems as sentences naming the file and
 * line, so a failing test says what is wrong without a debugger: an empty list means it passes.
 */

/** One module specifier a file asks for, and where. */
interface Request {
  specifier: string | null; // null: not a string literal, so it cannot be checked
  kind: 'import' | 'export' | 'import()' | 'require';
  line: number;
}

type Node = { type: string; start: number; end: number; [key: string]: unknown };

function lineAt(source: string, offset: number): number {
  let line = 1;
  for (let index = source.indexOf('\n'); index !== -1 && index < offset;) {
    line += 1;
    index = source.indexOf('\n', index + 1);
  }
  return line;
}

/** A string literal's value from its source text, or null for anything computed. */
function literal(text: string): string | null {
  return /^(["'])(?:(?!\1)[^\\\n])*\1$/.test(text) ? text.slice(1, -1) : null;
}

function walk(node: unknown, visit: (node: Node) => void): void {
  if (Array.isArray(node)) {
    for (const child of node) walk(child, visit);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  if (typeof (node as Node).type === 'string') visit(node as Node);
  for (const value of Object.values(node))
    if (value && typeof value === 'object') walk(value, visit);
}

function isCreateRequireCall(node: unknown): boolean {
  if ((node as Node | null)?.type !== 'CallExpression') return false;
  const callee = (node as Node).callee as Node;
  const name =
    callee.type === 'Identifier'
      ? callee.name
      : callee.type === 'MemberExpression'
        ? (callee.property as Node).name
        : undefined;
  return name === 'createRequire';
}

/**
 * `require(…)` calls: the CommonJS global, `createRequire(…)(…)`, and a name bound to
 * `createRequire(…)` (bundlers call it `__require`).
 */
function requireCalls(source: string, program: unknown): Request[] {
  const requireNames = new Set(['require']);
  walk(program, (node) => {
    if (node.type === 'VariableDeclarator' && isCreateRequireCall(node.init)) {
      const id = node.id as Node;
      if (id.type === 'Identifier') requireNames.add(id.name as string);
    }
  });
  const calls: Request[] = [];
  walk(program, (node) => {
    if (node.type !== 'CallExpression') return;
    const callee = node.callee as Node;
    const isRequire =
      (callee.type === 'Identifier' && requireNames.has(callee.name as string)) ||
      isCreateRequireCall(callee);
    if (!isRequire) return;
    const [argument] = node.arguments as Node[];
    calls.push({
      specifier: argument ? literal(source.slice(argument.start, argument.end)) : null,
      kind: 'require',
      line: lineAt(source, node.start),
    });
  });
  return calls;
}

function parse(file: string, source: string, sourceType: 'module' | 'script') {
  const result = parseSync(file, source, { lang: 'js', sourceType });
  // Read each field: the result's fields are getters, which a spread would drop.
  const { program, module } = result;
  return { program, module, errors: result.errors.map((error) => error.message) };
}

/** Every module a built file asks for: static imports, re-exports, import() and require(). */
export function requestsOf(file: string, source: string): Request[] {
  const { program, module, errors } = parse(file, source, 'module');
  if (errors.length > 0) throw new Error(`${file} does not parse: ${errors.join('; ')}`);
  const at = (start: number) => lineAt(source, start);
  return [
    ...module.staticImports.map((entry) => ({
      specifier: entry.moduleRequest.value,
      kind: 'import' as const,
      line: at(entry.start),
    })),
    ...module.staticExports.flatMap((entry) =>
      entry.entries.flatMap((exported) =>
        exported.moduleRequest
          ? [
              {
                specifier: exported.moduleRequest.value,
                kind: 'export' as const,
                line: at(entry.start),
              },
            ]
          : [],
      ),
    ),
    ...module.dynamicImports.map((entry) => ({
      specifier: literal(source.slice(entry.moduleRequest.start, entry.moduleRequest.end)),
      kind: 'import()' as const,
      line: at(entry.start),
    })),
    ...requireCalls(source, program),
  ];
}

/** The package a bare specifier names: `@scope/name` or `name`, without a subpath. */
export function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

const isRelative = (specifier: string) => /^\.{1,2}\//.test(specifier);

/**
 * A main-process file may load only Node built-ins, `electron` (and its `electron/main`-style
 * entry points) and the package.json `dependencies`, which electron-builder ships: anything else
 * (a devDependency left external, a typo) is missing from the installed app.
 */
export function bareImportProblems(
  file: string,
  source: string,
  dependencies: readonly string[],
): string[] {
  const allowed = new Set(dependencies);
  return requestsOf(file, source).flatMap(({ specifier, kind, line }) => {
    if (specifier === null)
      return [`${file}:${line}: ${kind} of a computed specifier, which the build cannot check`];
    if (isRelative(specifier) || isBuiltin(specifier)) return [];
    if (packageName(specifier) === 'electron') return [];
    if (allowed.has(packageName(specifier))) return [];
    return [
      `${file}:${line}: ${kind} '${specifier}' is neither a Node built-in, electron nor a package.json dependency`,
    ];
  });
}

/**
 * `import.meta` in a shared chunk means the chunk's own location, which moves whenever the
 * bundler splits differently (issue 16's "paths that depend on chunking"): only the entry files,
 * whose place is fixed, may use it.
 */
export function importMetaProblems(file: string, source: string): string[] {
  const { module, errors } = parse(file, source, 'module');
  if (errors.length > 0) return [`${file} does not parse: ${errors.join('; ')}`];
  return module.importMetas.map(
    (meta) => `${file}:${lineAt(source, meta.start)}: uses import.meta in a shared chunk`,
  );
}

/**
 * A sandboxed preload is loaded as a CommonJS script that can require nothing but `electron`
 * (Electron's sandbox also offers a few polyfilled modules, which PlantDesk does not use).
 */
export function preloadProblems(file: string, source: string): string[] {
  const { program, module, errors } = parse(file, source, 'script');
  if (errors.length > 0) return [`${file} is not a CommonJS script: ${errors.join('; ')}`];
  const problems = module.dynamicImports.map(
    (entry) => `${file}:${lineAt(source, entry.start)}: import() in a sandboxed preload`,
  );
  for (const { specifier, line } of requireCalls(source, program)) {
    if (specifier !== 'electron')
      problems.push(
        `${file}:${line}: requires ${specifier === null ? 'a computed specifier' : `'${specifier}'`}, not only electron`,
      );
  }
  return problems;
}

function jsFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.[cm]?js$/.test(name))
    .sort();
}

/** Every check of out/: the preload file, every file of out/main, and out/main/chunks. */
export function builtOutputProblems(outDir: string, dependencies: readonly string[]): string[] {
  const read = (file: string) => readFileSync(path.join(outDir, file), 'utf8');
  const preload = path.join('preload', 'index.cjs');
  if (!existsSync(path.join(outDir, preload))) return [`${preload} is missing`];
  if (!existsSync(path.join(outDir, 'main', 'index.js'))) return ['main/index.js is missing'];
  const mainFiles = jsFiles(path.join(outDir, 'main')).map((name) => path.join('main', name));
  const chunks = mainFiles.filter((file) =>
    file.startsWith(path.join('main', 'chunks') + path.sep),
  );
  return [
    ...preloadProblems(preload, read(preload)),
    ...mainFiles.flatMap((file) => bareImportProblems(file, read(file), dependencies)),
    ...chunks.flatMap((file) => importMetaProblems(file, read(file))),
  ];
}
