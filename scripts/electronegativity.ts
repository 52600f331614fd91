import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * npm run test:security: Doyensec's Electronegativity over the Electron main and preload code and
 * the renderer, failing on any finding of MEDIUM severity or worse, or on any file it cannot parse.
 *
 *   node scripts/electronegativity.ts            scans electron/ and renderer/
 *   node scripts/electronegativity.ts DIR…       scans other folders (e.g. a sample in /tmp)
 *
 * It drives Electronegativity's own loader-free pipeline (Parser → Finder → GlobalChecks, as its
 * runner does) rather than its CLI, for three reasons:
 * - All folders form ONE scan. The global checks reason across files (a will-navigate handler in
 *   main satisfies the navigation check for every window; a CSP in renderer/index.html counts for
 *   the app), so electron/ and renderer/ scanned separately would report false "none found".
 * - Electronegativity reads .js/.ts/.html but skips .vue. The <script> blocks of single-file
 *   components are extracted into .ts files and the <template> blocks into .html files, padded so
 *   line numbers stay those of the .vue file, which is what findings then name.
 * - Its runner downloads translations from S3 on every run; here its bundled English strings are
 *   loaded instead, so the scan is offline and deterministic.
 *
 * Disabled, with reason:
 * - AvailableSecurityFixesGlobalCheck: downloads Electron's release list from GitHub on every run
 *   and judges the Electron version declared in a package.json, which this scan does not read.
 *   Keeping Electron current is the dependency updates' job (npm outdated / audit), not a test's.
 * Individual findings can be waived in the code with `// eng-disable CHECK_ID` and a reason.
 *
 * The Electron version is given explicitly, so checks judge defaults (contextIsolation, sandbox,
 * nodeIntegration…) as they are in that version rather than assuming the oldest Electron.
 */

export const ELECTRON_VERSION = '45.0.0';
const DISABLED_GLOBAL_CHECKS = ['AvailableSecurityFixesGlobalCheck'];
const SCANNED_EXTENSIONS = new Set([
  '.js',
  '.mjs',
  '.cjs',
  '.jsx',
  '.ts',
  '.mts',
  '.cts',
  '.tsx',
  '.html',
  '.htm',
]);
const SKIPPED_FOLDERS = new Set(['node_modules', 'out', 'dist', '.vite']);

// ── Electronegativity's internals (CommonJS, untyped) ───────────────────────────────────────

interface Level {
  value: number;
  name: 'HIGH' | 'MEDIUM' | 'LOW' | 'INFORMATIONAL' | 'CERTAIN' | 'FIRM' | 'TENTATIVE';
}
interface RawIssue {
  file: string;
  id: string;
  description: string;
  location: { line: number; column: number };
  severity: Level;
  confidence: Level;
  manualReview?: boolean;
  shortenedURL?: string;
  sample?: string;
  visibility?: { inlineDisabled?: boolean; globalCheckDisabled?: boolean };
}
interface ParserInstance {
  parse(
    file: string,
    content: string,
  ): [number, unknown, string, { message: string }[] | undefined];
}
interface FinderInstance {
  _enabled_checks: unknown[];
  find(
    file: string,
    data: unknown,
    type: number,
    content: string,
    onlyChecks: null,
    electronVersion: string,
  ): Promise<RawIssue[]>;
}
interface GlobalChecksInstance {
  _enabled_checks: unknown[];
  getResults(issues: RawIssue[], output: undefined): Promise<RawIssue[]>;
}
interface Electronegativity {
  Parser: new (babelFirst: boolean, typescriptBabelFirst: boolean) => ParserInstance;
  Finder: new (custom: string[], exclude: string[], upgrade: undefined) => FinderInstance;
  GlobalChecks: new (
    custom: string[],
    exclude: string[],
    upgrade: undefined,
  ) => GlobalChecksInstance;
}

function loadElectronegativity(): Electronegativity {
  const require = createRequire(import.meta.url);
  const packageDir = path.dirname(require.resolve('@doyensec/electronegativity/package.json'));
  const fromPackage = createRequire(path.join(packageDir, 'package.json'));
  // The checks call a global __() for their texts; give them the bundled English ones.
  const i18n = fromPackage('i18n') as {
    configure(options: object): void;
    setLocale(locale: string): void;
  };
  i18n.configure({
    locales: ['en-US'],
    defaultLocale: 'en-US',
    directory: path.join(packageDir, 'dist', 'locales'),
    updateFiles: false,
    objectNotation: true,
    retryInDefaultLocale: true,
    register: globalThis,
  });
  i18n.setLocale('en-US');
  const { Parser } = fromPackage('./dist/parser') as Pick<Electronegativity, 'Parser'>;
  const { Finder, GlobalChecks } = fromPackage('./dist/finder') as Omit<
    Electronegativity,
    'Parser'
  >;
  return { Parser, Finder, GlobalChecks };
}

// ── Scan ────────────────────────────────────────────────────────────────────────────────────

export type Severity = 'HIGH' | 'MEDIUM' | 'LOW' | 'INFORMATIONAL';
export interface Finding {
  id: string;
  severity: Severity;
  confidence: string;
  /** Relative to the working folder; "N/A" for app-wide findings (e.g. no CSP anywhere). */
  file: string;
  line: number;
  column: number;
  description: string;
  url?: string;
  sample?: string;
  manualReview: boolean;
}
export interface ScanError {
  file: string;
  message: string;
}
export interface ScanResult {
  files: number;
  checks: number;
  findings: Finding[];
  errors: ScanError[];
}

const FAILING: ReadonlySet<Severity> = new Set(['HIGH', 'MEDIUM']);

export function failed(result: ScanResult): boolean {
  return result.errors.length > 0 || result.findings.some((f) => FAILING.has(f.severity));
}

export async function scan(roots: readonly string[], cwd = process.cwd()): Promise<ScanResult> {
  const engine = loadElectronegativity();
  const parser = new engine.Parser(false, true); // as its runner: TypeScript through Babel first
  const globalChecks = new engine.GlobalChecks(
    [],
    DISABLED_GLOBAL_CHECKS.map((name) => name.toLowerCase()),
    undefined,
  );
  const finder = new engine.Finder([], [], undefined);

  const staging = mkdtempSync(path.join(os.tmpdir(), 'plantdesk-electronegativity-'));
  try {
    const sources = roots.flatMap((root) => collectSources(path.resolve(cwd, root), staging));
    const issues: RawIssue[] = [];
    const errors: ScanError[] = [];
    for (const source of sources) {
      const shown = path.relative(cwd, source.original) || source.original;
      try {
        const content = readFileSync(source.scanned, 'utf8');
        const [type, data, text, warnings] = parser.parse(source.scanned, content);
        if (data === null) continue;
        // A recovered parse may have skipped code, so warnings count as failures too.
        for (const warning of warnings ?? [])
          errors.push({ file: shown, message: warning.message });
        const found = await finder.find(source.scanned, data, type, text, null, ELECTRON_VERSION);
        for (const issue of found) issue.file = shown;
        issues.push(...found);
      } catch (error) {
        errors.push({
          file: shown,
          message: error instanceof Error ? error.message : String(error),
        });
      }
    }
    const results = await globalChecks.getResults(issues, undefined);
    const visible = results.filter(
      (issue) => !issue.visibility?.inlineDisabled && !issue.visibility?.globalCheckDisabled,
    );
    return {
      files: sources.length,
      checks: finder._enabled_checks.length + globalChecks._enabled_checks.length,
      findings: visible.map(toFinding).sort(bySeverityThenPlace),
      errors,
    };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

interface Source {
  /** What the user edits (a .vue file for its extracted blocks). */
  original: string;
  /** What Electronegativity reads. */
  scanned: string;
}

function collectSources(root: string, staging: string): Source[] {
  const sources: Source[] = [];
  const visit = (entry: string) => {
    const name = path.basename(entry);
    let children: string[] | undefined;
    try {
      children = readdirSync(entry);
    } catch {
      children = undefined; // a file
    }
    if (children) {
      if (SKIPPED_FOLDERS.has(name)) return;
      for (const child of children.sort()) visit(path.join(entry, child));
      return;
    }
    const extension = path.extname(name).toLowerCase();
    if (SCANNED_EXTENSIONS.has(extension)) sources.push({ original: entry, scanned: entry });
    else if (extension === '.vue') {
      sources.push(...extractVueBlocks(entry, mkdtempSync(path.join(staging, 'vue-'))));
    }
  };
  visit(root);
  return sources;
}

/**
 * Each <script> block becomes a .ts file and the <template> an .html file, padded with empty lines
 * so that every line keeps its number in the .vue file. Only top-level blocks are matched: a
 * nested <template> is part of the outer one, which is found first and taken whole.
 */
export function extractVueBlocks(file: string, intoDir: string): Source[] {
  const text = readFileSync(file, 'utf8');
  const blocks: { kind: 'script' | 'template'; start: number; body: string }[] = [];
  const script = /<script\b[^>]*>([\s\S]*?)<\/script>/g;
  for (const match of text.matchAll(script)) {
    const start = match.index + match[0].indexOf('>') + 1;
    blocks.push({ kind: 'script', start, body: match[1]! });
  }
  const open = text.search(/<template\b[^>]*>/);
  const close = text.lastIndexOf('</template>');
  if (open >= 0 && close > open) {
    const start = text.indexOf('>', open) + 1;
    blocks.push({ kind: 'template', start, body: text.slice(start, close) });
  }
  const base = path.join(intoDir, path.basename(file));
  return blocks.map((block, index) => {
    const padding = '\n'.repeat(text.slice(0, block.start).split('\n').length - 1);
    const columnPad = ' '.repeat(block.start - (text.lastIndexOf('\n', block.start - 1) + 1));
    const scanned = `${base}.${index}.${block.kind === 'script' ? 'ts' : 'html'}`;
    writeFileSync(scanned, padding + columnPad + block.body);
    return { original: file, scanned };
  });
}
function toFinding(issue: RawIssue): Finding {
  return {
    id: issue.id,
    severity: issue.severity.name as Severity,
    confidence: issue.confidence.name,
    file: issue.file,
    line: issue.location.line,
    column: issue.location.column,
    description: issue.description,
    url: issue.shortenedURL,
    sample: issue.sample,
    manualReview: Boolean(issue.manualReview),
  };
}

const SEVERITY_ORDER: Severity[] = ['HIGH', 'MEDIUM', 'LOW', 'INFORMATIONAL'];
function bySeverityThenPlace(a: Finding, b: Finding): number {
  return (
    SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity) ||
    a.file.localeCompare(b.file) ||
    a.line - b.line
  );
}

// ── CLI ─────────────────────────────────────────────────────────────────────────────────────

export function report(result: ScanResult): string {
  const lines = [
    `Electronegativity: ${result.checks} checks over ${result.files} files (Electron ${ELECTRON_VERSION})`,
  ];
  for (const finding of result.findings) {
    const place =
      finding.file === 'N/A' ? 'whole app' : `${finding.file}:${finding.line}:${finding.column}`;
    const review = finding.manualReview ? ', review' : '';
    lines.push(
      `${FAILING.has(finding.severity) ? '✗' : '·'} ${finding.severity} ${finding.id} (${finding.confidence}${review}) ${place}`,
      `    ${finding.description.replace(/\s+/g, ' ').trim()}${finding.url ? ` ${finding.url}` : ''}`,
    );
    if (finding.sample) lines.push(`    > ${finding.sample}`);
  }
  for (const error of result.errors) lines.push(`✗ cannot analyse ${error.file}: ${error.message}`);
  const failing = result.findings.filter((f) => FAILING.has(f.severity)).length;
  lines.push(
    failed(result)
      ? `FAILED: ${failing} finding(s) of MEDIUM or HIGH severity, ${result.errors.length} file(s) not analysed`
      : `OK: no finding of MEDIUM or HIGH severity (${result.findings.length} lower, listed for review)`,
  );
  return lines.join('\n');
}

async function main(): Promise<void> {
  const repo = fileURLToPath(new URL('..', import.meta.url));
  const args = process.argv.slice(2);
  const roots = args.length > 0 ? args : [path.join(repo, 'electron'), path.join(repo, 'renderer')];
  const result = await scan(roots);
  console.log(report(result));
  process.exitCode = failed(result) ? 1 : 0;
}

if (import.meta.main) await main();
