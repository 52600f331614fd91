import { fork } from 'node:child_process';
import { crashedResult, type BenchResult, type ModuleReport } from './benchResult.ts';
import { MODULES } from './modules.ts';
import { formatReport, formatVerdict } from './report.ts';

/** `npm run bench -- fleet api`: only the modules whose title starts with one of the words. */
const only = process.argv.slice(2).map((word) => word.toLowerCase());
const selected = MODULES.filter(
  (module) => only.length === 0 || only.some((word) => module.title.toLowerCase().startsWith(word)),
);

const results: BenchResult[] = [];
for (const module of selected) {
  console.log(`\n== ${module.title}`);
  results.push(...(await runAlone(MODULES.indexOf(module))));
}
console.log(`\n${formatReport(results)}\n\n${formatVerdict(results)}`);
// A target that is missed is news, not a failure: only a crashed benchmark changes the exit code.

/**
 * One module in a process of its own (moduleProcess.ts): run in this one after another, a module
 * inherited the heap the ones before it left (the ingestion benchmark's year of readings), and its
 * figures moved with the order they ran in (SQLite's fresh hourly answers 54 µs alone, 71 µs after
 * ingestion). A module that crashes, or whose process dies, is reported and fails the run.
 */
function runAlone(index: number): Promise<BenchResult[]> {
  const title = MODULES[index]!.title;
  return new Promise((resolve) => {
    let report: ModuleReport | undefined;
    const child = fork(new URL('./moduleProcess.ts', import.meta.url), [String(index)], {
      stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    });
    child.on('message', (message) => (report = message as ModuleReport));
    child.on('exit', (code) => {
      if (!report || report.crashed) process.exitCode = 1;
      resolve(
        report?.results ?? [
          crashedResult(title, `its process exited with code ${code} before reporting`),
        ],
      );
    });
  });
}
