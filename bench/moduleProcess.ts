import type { BenchResult } from './benchResult.ts';
import { MODULES } from './modules.ts';

/** One benchmark module (its index in MODULES), its results sent to run.ts, which forked it. */
const module = MODULES[Number(process.argv[2])]!;
let results: BenchResult[];
try {
  results = await module.run();
} catch (error) {
  // A broken benchmark must not hide the others' results; it is reported and fails the run.
  console.error(error);
  results = [
    {
      name: module.title,
      value: 0,
      unit: '',
      target: '-',
      outcome: 'INVALID',
      note: `crashed: ${error instanceof Error ? error.message : String(error)}`,
    },
  ];
}
process.send!(results, () => process.exit(0));
