/**
 * What every benchmark module reports. Benchmarks measure, they do not gate: a result below its
 * target is printed as MISS, and a measurement that cannot be trusted (errors, wrong status codes)
 * as INVALID, but neither fails the run.
 */
export type BenchOutcome = 'PASS' | 'MISS' | 'INVALID';

export interface BenchResult {
  /** What was measured, e.g. `GET /plants/{plantUuid}`. */
  name: string;
  /** The measured value, in `unit`. */
  value: number;
  unit: string;
  /** The same measure on the reference implementation, when the target is a ratio against it. */
  baseline?: number;
  /** `value / baseline`, when there is a baseline. */
  ratio?: number;
  /** The target as people read it, e.g. `ratio ≥ 0.5`. */
  target: string;
  outcome: BenchOutcome;
  /** Why a result is INVALID, or anything else worth reading next to the number. */
  note?: string;
}

/** A group of benchmarks that `npm run bench` runs in sequence. */
export interface BenchModule {
  /** Shown as a heading while the module runs. */
  title: string;
  run(): Promise<BenchResult[]>;
}

/**
 * PASS when `value / baseline ≥ minimum`, otherwise MISS; INVALID when `problem` says the run
 * cannot be trusted (the problem then replaces the note).
 */
export function ratioResult(
  fields: { name: string; value: number; baseline: number; unit: string; note?: string },
  minimum: number,
  problem?: string,
): BenchResult {
  const ratio = fields.baseline > 0 ? fields.value / fields.baseline : 0;
  return {
    ...fields,
    ratio,
    target: `ratio ≥ ${minimum}`,
    outcome: problem ? 'INVALID' : ratio >= minimum ? 'PASS' : 'MISS',
    note: problem ?? fields.note,
  };
}

/** The one result of a module that crashed: reported with the others, and it fails the run. */
export function crashedResult(title: string, why: string): BenchResult {
  return { name: title, value: 0, unit: '', target: '-', outcome: 'INVALID', note: why };
}

/** What a module's process sends the run (bench/moduleProcess.ts). */
export interface ModuleReport {
  results: BenchResult[];
  crashed: boolean;
}
