import { crashedResult, type ModuleReport } from './benchResult.ts';
import { MODULES } from './modules.ts';

/** One benchmark module (its index in MODULES), its results sent to run.ts, which forked it. */
const module = MODULES[Number(process.argv[2])]!;
let report: ModuleReport;
try {
  report = { results: await module.run(), crashed: false };
} catch (error) {
  // A broken benchmark must not hide the others' results; it is reported and fails the run.
  console.error(error);
  const why = `crashed: ${error instanceof Error ? error.message : String(error)}`;
  report = { results: [crashedResult(module.title, why)], crashed: true };
}
process.send!(report, () => process.exit(0));
