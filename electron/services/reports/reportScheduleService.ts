import { join } from 'node:path';
import { z } from 'zod';
import type { Translate } from '../../../i18n/translator.ts';
import { fileSlug } from '../../../server/domain/csv.ts';
import {
  buildFleetReport,
  daysCsv,
  makeReport,
  periodKey,
  reportPlants,
  summaryCsv,
  type PlantFacts,
  type ReportSourceDeps,
} from '../../../server/domain/reports/index.ts';
import type { JsonFileRead } from '../dataFolder.ts';
import type { Logger } from '../logger.ts';
import {
  ReportScheduleInput,
  type PreparedReport,
  type ReportScheduleState,
} from '../../ipc/contract.ts';
import type { ReportPrintRequest } from '../../../server/domain/reports/printRequest.ts';
import { DEFAULT_SCHEDULE, periodToWrite } from './reportSchedule.ts';

/**
 * The monthly report schedule: checks at start and then every CHECK_INTERVAL_MS whether last
 * month's fleet report is due (see reportSchedule.ts) and, when it is, writes it into the chosen
 * folder as CSV (summary and days) and, in the desktop app, as PDF: the fleet's and each plant's
 * (the report screen offers both), the document the screen prints, in the user's language. Its settings and what it last wrote
 * live in a private JSON file (0600 in a 0700 folder, per OS user) like the other settings.
 *
 * Everything outside is injected (clock, local day, timers, files, the active environment's API)
 * so it is tested under vitest with a pinned clock, without Electron.
 */

/** An hour: a due run starts within the hour of its day, whatever the clock did overnight. */
export const CHECK_INTERVAL_MS = 3_600_000;

const StoredSchedule = z.object({
  version: z.literal(1),
  settings: ReportScheduleInput.extend({ folder: z.string().min(1).nullable() }),
  lastWritten: z.string().nullable(),
  lastWrittenAt: z.string().nullable(),
  lastError: z.string().nullable(),
});
type StoredSchedule = z.infer<typeof StoredSchedule>;

type StoredState = Omit<StoredSchedule, 'version'>;

export interface ReportScheduleDeps {
  now(): Date;
  /** The host's local day of an instant, `yyyy-MM-dd`. */
  localDay(at: Date): string;
  setInterval(run: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
  /** The schedule's file, and the private folder it lives in. */
  file: string;
  readJson(path: string): JsonFileRead;
  writeJson(path: string, value: unknown): void;
  /** Writes a report file (0644 is fine: the user chose the folder to share them). */
  writeFile(path: string, data: string | Uint8Array): Promise<void>;
  /**
   * The report screen's document of `report` (made here, for the CSVs) as PDF (Electron: a
   * hidden window printed). Absent: CSV only. A failure fails the run, which is tried again at
   * the next check.
   */
  renderPdf?(request: ReportPrintRequest, report: PreparedReport): Promise<Uint8Array>;
  /** The active environment's API, or null when no one is signed in (then the run waits). */
  source(): { deps: ReportSourceDeps; environmentName: string } | null;
  t(): Translate;
  log: Logger;
}

export interface ReportScheduleService {
  state(): ReportScheduleState;
  update(input: ReportScheduleInput): ReportScheduleState;
  /** A folder the user chose in the host's dialog. */
  setFolder(folder: string): ReportScheduleState;
  /** Writes the due report if there is one; answers the state after. */
  check(): Promise<ReportScheduleState>;
  start(): void;
  stop(): void;
}

const INITIAL: StoredState = {
  settings: DEFAULT_SCHEDULE,
  lastWritten: null,
  lastWrittenAt: null,
  lastError: null,
};

/** Each plant's part of its PDF's name; two plants of the same name are told apart by uuid. */
export function plantFileNames(plants: readonly PlantFacts[]): [PlantFacts, string][] {
  const slugs = plants.map((plant) => fileSlug(plant.name, 'plant'));
  return plants.map((plant, index) => {
    const slug = slugs[index]!;
    const shared = slugs.indexOf(slug) !== slugs.lastIndexOf(slug);
    return [plant, shared ? `${slug}-${plant.uuid.slice(0, 8)}` : slug];
  });
}

export function createReportScheduleService(deps: ReportScheduleDeps): ReportScheduleService {
  let current = load();
  let timer: unknown = null;
  let running: Promise<ReportScheduleState> | null = null;

  function load(): StoredState {
    const read = deps.readJson(deps.file);
    if (read.status !== 'ok') return INITIAL;
    const parsed = StoredSchedule.safeParse(read.value);
    if (!parsed.success) {
      deps.log.warn('Report schedule file not understood; starting from defaults');
      return INITIAL;
    }
    const { version: _version, ...state } = parsed.data;
    return state;
  }

  const view = (): ReportScheduleState => ({ available: true, ...current });

  function save(next: StoredState): ReportScheduleState {
    current = next;
    deps.writeJson(deps.file, { version: 1, ...next });
    return view();
  }

  async function run(): Promise<ReportScheduleState> {
    const period = periodToWrite(current.settings, current.lastWritten, deps.localDay(deps.now()));
    const folder = current.settings.folder;
    if (!period || folder === null) return view();
    const source = deps.source();
    if (!source) return view();
    const key = periodKey(period);
    try {
      const plants = await reportPlants(source.deps);
      const made = await makeReport(source.deps, plants, period);
      if (made.failed.length > 0) {
        throw new Error(
          `${made.failed.length} plant(s) could not be read: ${made.failed.map((f) => f.name).join(', ')}`,
        );
      }
      const t = deps.t();
      const base = `plantdesk-report-${fileSlug(source.environmentName, 'environment')}-${key}`;
      await deps.writeFile(join(folder, `${base}-summary.csv`), summaryCsv(made.fleet, key, t));
      await deps.writeFile(join(folder, `${base}-days.csv`), daysCsv(made.fleet.plants, t));
      if (deps.renderPdf) {
        // The print windows draw the report made here: the API is read once per run.
        const madeAt = deps.now().toISOString();
        await deps.writeFile(
          join(folder, `${base}.pdf`),
          await deps.renderPdf({ period, scope: 'fleet' }, { fleet: made.fleet, madeAt }),
        );
        const byUuid = new Map(made.fleet.plants.map((report) => [report.plant.uuid, report]));
        // One at a time: each is a hidden window.
        for (const [plant, name] of plantFileNames(plants)) {
          const fleet = buildFleetReport(period, [byUuid.get(plant.uuid)!]);
          await deps.writeFile(
            join(folder, `${base}-${name}.pdf`),
            await deps.renderPdf({ period, scope: plant.uuid }, { fleet, madeAt }),
          );
        }
      }
      deps.log.info('Scheduled report written', {
        period: key,
        plants: plants.length,
        pdf: deps.renderPdf !== undefined,
      });
      return save({
        ...current,
        lastWritten: key,
        lastWrittenAt: deps.now().toISOString(),
        lastError: null,
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      deps.log.warn('Scheduled report not written; trying again at the next check', {
        period: key,
        error: message,
      });
      return save({ ...current, lastError: message });
    }
  }

  return {
    state: view,
    update(input) {
      const { enabled, dayOfMonth } = ReportScheduleInput.parse(input);
      return save({
        ...current,
        settings: { ...current.settings, enabled, dayOfMonth },
        lastError: null,
      });
    },
    setFolder(folder) {
      return save({ ...current, settings: { ...current.settings, folder }, lastError: null });
    },
    check() {
      // One run at a time: a check while one writes waits for it instead of writing twice.
      running ??= run().finally(() => {
        running = null;
      });
      return running;
    },
    start() {
      if (timer !== null) return;
      void this.check();
      timer = deps.setInterval(() => void this.check(), CHECK_INTERVAL_MS);
    },
    stop() {
      if (timer !== null) deps.clearInterval(timer);
      timer = null;
    },
  };
}
