import { z } from 'zod';
import { routes, type RouteId } from '../../api/routes.ts';
import type { RouteInput, RouteResult } from '../../api/routeInput.ts';
import type { CurrentUser } from '../../api/schemas/auth.ts';
import { Name, Uuid } from '../../api/schemas/common.ts';
import { DevicesCreateDto } from '../../api/schemas/devices.ts';
import { PlantCreateDto } from '../../api/schemas/plants.ts';
import { SensorCreateDto } from '../../api/schemas/sensors.ts';
import { SettingValue } from '../../api/schemas/vendors.ts';
import { isSecureEnough } from './addresses.ts';
import type { ChannelName, EventName } from './names.ts';
import { APP_LOCALES, type AppLocale } from '../../i18n/locales.ts';
import type { PlantDiff } from '../../server/domain/comparison/types.ts';
import type { FleetReport } from '../../server/domain/reports/reportModel.ts';

export { CHANNEL_NAMES, EVENT_NAMES, type ChannelName, type EventName } from './names.ts';

/**
 * The one contract between the renderer and the host (Electron main, or the browser-mode web
 * host): every channel with the schema of its arguments and the type of its result, and every
 * event with its payload. Main registers handlers from it, the preload exposes exactly it as
 * `window.plantdesk`, the web host serves it as `POST /rpc/<channel>`, and the renderer's
 * bridge calls it. Everything crossing it is plain JSON.
 */

/** Only the TypeScript type of a result travels here; results come from our own code. */
declare const resultType: unique symbol;
interface Channel<Args extends z.ZodType<readonly unknown[]>, Result> {
  args: Args;
  [resultType]?: Result;
}
function channel<Result = void>() {
  return <Args extends z.ZodType<readonly unknown[]>>(args: Args): Channel<Args, Result> => ({
    args,
  });
}

// ── Shared shapes ───────────────────────────────────────────────────────────────────────────

export const ENVIRONMENT_KINDS = ['local', 'sandbox', 'production'] as const;
export type EnvironmentKind = (typeof ENVIRONMENT_KINDS)[number];

export interface Environment {
  id: string;
  name: string;
  kind: EnvironmentKind;
  /** For the Local sandbox: the address of its running server, or '' while it is not running. */
  baseUrl: string;
  /** `builtin` (the Local sandbox), `admin` (shipped in environments.json) or `user`. */
  source: 'builtin' | 'admin' | 'user';
  /** An administrator's entry locked against edits and removal (environments.json `locked`). */
  locked?: boolean;
}

const httpUrl = z
  .url({ protocol: /^https?$/, error: 'baseUrl must be an http or https address' })
  .max(2048);
/** An environment's address: https, unless the server is on this machine. */
const environmentUrl = httpUrl.refine(isSecureEnough, {
  error: 'baseUrl must be an https address (http only for a server on this machine)',
  // The renderer's words for it (i18n/zodIssueText.ts).
  params: { messageKey: 'common.validation.httpsOnly' },
});
export const EnvironmentInput = z.strictObject({
  name: z.string().trim().min(1, { error: 'name is required' }).max(100),
  kind: z.enum(['sandbox', 'production']),
  baseUrl: environmentUrl,
});
export type EnvironmentInput = z.infer<typeof EnvironmentInput>;
const EnvironmentId = z.string().min(1).max(100);

export interface EnvironmentList {
  environments: Environment[];
  activeId: string;
}

export interface ConnectionTestResult {
  ok: boolean;
  /** What the user reads: "Reachable: Plant Energy API answered in 42 ms" or why not. */
  message: string;
  latencyMs?: number;
}

export type LocalSandboxStatus = 'stopped' | 'starting' | 'running' | 'restarting' | 'failed';
export interface LocalSandboxState {
  status: LocalSandboxStatus;
  /** Set while running. */
  url?: string;
  /** Why it stopped or failed, in words. */
  message?: string;
  restarts: number;
}

export interface SessionState {
  environmentId: string;
  status: 'signedOut' | 'signedIn';
  user?: CurrentUser;
  /** The email remembered for this environment, if any. */
  rememberedEmail?: string;
}

export const SignInInput = z.strictObject({
  email: z.string().trim().min(1, { error: 'email is required' }).max(320),
  password: z.string().min(1, { error: 'password is required' }).max(1024),
  remember: z.boolean(),
});
export type SignInInput = z.infer<typeof SignInInput>;

export interface PdfSaveResult {
  /** False when the user cancelled the file dialog. */
  saved: boolean;
  path?: string;
}

export interface KeychainStatus {
  available: boolean;
  /** Set when unavailable: what that means for the user. */
  message?: string;
}

/** The language of the app: the user's choice, else the system's (i18n/locales.ts). */
export interface LanguageState {
  /** Chosen in the app, or null while it follows the system. */
  chosen: AppLocale | null;
  /** What the host's system prefers, among the languages PlantDesk speaks. */
  system: AppLocale;
}

export interface AppInfo {
  name: string;
  version: string;
  host: 'electron' | 'web';
  keychain: KeychainStatus;
  /**
   * The host's clock, epoch ms, when it answered: the system's, or the instant the app was
   * started at (`--clock`) plus the time since. The renderer's "now" follows it.
   */
  now: number;
  language: LanguageState;
}

// ── Fleet monitoring: alerts ────────────────────────────────────────────────────────────────

/**
 * What the monitor service watches for (electron/services/monitor/alertRules.ts states each):
 * - `SENSOR_SILENT`: a sensor sends no readings (freshness SILENT);
 * - `PV_HEALTH`: PV health of the last 7 days DEGRADED or FAULT;
 * - `NO_PRODUCTION`: production at rest for an hour of daylight while clear sky expects > 10 % of peak;
 * - `ABOVE_CLEAR_SKY`: production above what clear sky allows (units or peak power wrong);
 * - `GRID_SIGN`: the grid meter imports while production and consumption say export, or the reverse;
 * - `METER_UNITS`: a power meter a thousand times off what the plant's balance says (kW as W);
 * - `SOC_STUCK`: a battery's state of charge unchanged for 24 hours while its sensor reports.
 */
export const ALERT_RULES = [
  'SENSOR_SILENT',
  'PV_HEALTH',
  'NO_PRODUCTION',
  'ABOVE_CLEAR_SKY',
  'GRID_SIGN',
  'METER_UNITS',
  'SOC_STUCK',
] as const;
export type AlertRule = (typeof ALERT_RULES)[number];
export const ALERT_SEVERITIES = ['critical', 'warning'] as const;
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];

/** Where the evidence is: a screen of the plant, the history chart over a range (plant-local). */
export type AlertLink =
  | { view: 'dashboard' | 'sensors' }
  | { view: 'history'; start: string; end: string; granularity: 'minutes' | 'hours' };

export interface AlertEvent {
  at: string;
  kind: 'opened' | 'acknowledged' | 'resolved';
  /** Acknowledged: who (the signed-in user's email). */
  by?: string;
  note?: string;
  /** What was measured when it happened. */
  message?: string;
}

export interface Alert {
  /** Stable for one occurrence: environment, plant, rule, subject and when it opened. */
  id: string;
  environmentId: string;
  plantUuid: string;
  plantName: string;
  timezone: string;
  rule: AlertRule;
  /** The sensor it is about, or null when it is about the plant. */
  subjectUuid: string | null;
  subjectName: string | null;
  severity: AlertSeverity;
  /**
   * What was measured against what was expected, as of the last evaluation, in the user's
   * language at the time of asking (`alerts.changed` follows a change of language).
   */
  message: string;
  /** When the condition was first seen (before the rule's delay). */
  since: string;
  openedAt: string;
  lastSeenAt: string;
  /** Open, but the condition has not been seen since then (the rule's hysteresis runs). */
  clearingSince: string | null;
  status: 'open' | 'resolved';
  resolvedAt: string | null;
  acknowledged: { by: string; at: string; note?: string } | null;
  /** Opened while its plant (or rule) was muted: listed, never notified. */
  muted: boolean;
  link: AlertLink;
  history: AlertEvent[];
}

export interface AlertMute {
  plantUuid: string;
  plantName: string;
  /** One rule, or every rule of the plant when null. */
  rule: AlertRule | null;
  until: string;
  by: string;
  note?: string;
}

export interface MonitorSettings {
  /** How often every plant is evaluated. */
  intervalMinutes: number;
  /** OS notifications for new and cleared alerts. */
  notifications: boolean;
  /** Closing the window keeps the app in the system tray (Electron). */
  keepInTray: boolean;
}
export const MonitorSettingsInput = z.strictObject({
  intervalMinutes: z.int().min(1).max(1440),
  notifications: z.boolean(),
  keepInTray: z.boolean(),
});

export interface MonitorCycle {
  at: string;
  plants: number;
  durationMs: number;
  /** `extension`: plant-summaries and sensor-statuses; `specification`: pv-health only. */
  source: 'extension' | 'specification';
  /** Why the last cycle failed or was partial, in words. */
  error?: string;
}

export interface AlertsState {
  environmentId: string;
  /** Open alerts, then the resolved ones, newest first. */
  alerts: Alert[];
  mutes: AlertMute[];
  settings: MonitorSettings;
  lastCycle: MonitorCycle | null;
}

/** One notification for a plant's new and cleared alerts of one cycle. */
export interface AlertNotification {
  environmentId: string;
  plantUuid: string;
  /** How many of the plant's alerts opened and cleared (title and body say it in words). */
  opened: number;
  cleared: number;
  title: string;
  body: string;
}

const AlertId = z.string().min(1).max(300);
export const AcknowledgeInput = z.strictObject({
  alertId: AlertId,
  note: z.string().trim().max(1000).optional(),
});
export const MuteInput = z.strictObject({
  plantUuid: Uuid,
  rule: z.enum(ALERT_RULES).nullable(),
  until: z.iso.datetime({ offset: true }),
  note: z.string().trim().max(1000).optional(),
});
export type MuteInput = z.infer<typeof MuteInput>;

// ── Acceptance re-check (24 h after commissioning) ──────────────────────────────────────────

export type AcceptanceStatus = 'pass' | 'warning' | 'fail' | 'notApplicable';
export type AcceptanceFindingId = 'dataCoverage' | 'production' | 'openAlerts';

/** A number the re-check compared, named for the screen and the report. */
export interface AcceptanceFigure {
  name: string;
  value: number | null;
  unit: string;
}

export interface AcceptanceFinding {
  id: AcceptanceFindingId;
  title: string;
  status: AcceptanceStatus;
  figures: AcceptanceFigure[];
  /** One sentence: what was found. */
  finding: string;
  /** What to do about it; empty when nothing is to be done. */
  action: string;
}

export interface AcceptanceResult {
  checkedAt: string;
  /** The window judged: the 24 hours after commissioning. */
  windowStart: string;
  windowEnd: string;
  /** The worst of the findings (not applicable counts as a pass). */
  status: 'pass' | 'warning' | 'fail';
  findings: AcceptanceFinding[];
}

/** One plant's re-check: pending until `dueAt`, then its result. */
export interface AcceptanceRecheck {
  plantUuid: string;
  plantName: string;
  commissionedAt: string;
  dueAt: string;
  status: 'pending' | 'done';
  result: AcceptanceResult | null;
  /** Why the last attempt could not run (retried); null when it ran or has not been tried. */
  lastError: string | null;
}

export const AcceptanceCommissionedInput = z.strictObject({
  plantUuid: Uuid,
  plantName: z.string().trim().min(1).max(200),
});
export type AcceptanceCommissionedInput = z.infer<typeof AcceptanceCommissionedInput>;

// ── Commissioning drafts (without a connection) ─────────────────────────────────────────────

/** The local id of a device or sensor within its draft (the renderer chooses it). */
const DraftKey = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'key must be 1 to 64 letters, digits, - or _' });
const SettingName = z.string().min(1).max(100);

/** A device as the wizard describes it; its name identifies it within the plant. */
export const DraftDevice = DevicesCreateDto.extend({ key: DraftKey, name: Name });
export type DraftDevice = z.infer<typeof DraftDevice>;

/** A sensor; `deviceKey` links it to a device of the same draft. */
export const DraftSensor = SensorCreateDto.omit({ deviceUuid: true }).extend({
  key: DraftKey,
  name: Name,
  deviceKey: DraftKey.nullable().optional(),
  /** Sent as `ignoreConnectionsTest=true`: the installer saved it without a passing test. */
  ignoreConnectionsTest: z.boolean().optional(),
});
export type DraftSensor = z.infer<typeof DraftSensor>;

/**
 * A vendor integration's settings, without its secrets: `secretFields` names the secret fields
 * the installer filled in, whose values are asked again when the draft is sent (they are never
 * written to the data folder, nor to the keychain, which may not exist).
 */
export const DraftVendor = z.strictObject({
  vendorUuid: Uuid,
  settings: z.record(SettingName, SettingValue),
  secretFields: z.array(SettingName).max(50).default([]),
});
export type DraftVendor = z.infer<typeof DraftVendor>;

function duplicateOf(values: readonly string[]): string | undefined {
  const seen = new Set<string>();
  for (const value of values) {
    if (seen.has(value)) return value;
    seen.add(value);
  }
  return undefined;
}

/** What the wizard fills in: the plant, its devices, sensors and vendor settings. */
export const DraftContent = z
  .strictObject({
    plant: PlantCreateDto,
    devices: z.array(DraftDevice).max(200).default([]),
    sensors: z.array(DraftSensor).max(500).default([]),
    vendors: z.array(DraftVendor).max(50).default([]),
  })
  .superRefine((content, context) => {
    const problem = (path: (string | number)[], message: string) =>
      context.addIssue({ code: 'custom', path, message });
    for (const [list, label] of [
      [content.devices, 'device'],
      [content.sensors, 'sensor'],
    ] as const) {
      const section = label === 'device' ? 'devices' : 'sensors';
      const key = duplicateOf(list.map((item) => item.key));
      if (key !== undefined) problem([section], `Two ${label}s have the key '${key}'`);
      // A name identifies a device or sensor within its plant when a send is retried.
      const name = duplicateOf(list.map((item) => item.name));
      if (name !== undefined) problem([section], `Two ${label}s are named '${name}'`);
    }
    const deviceKeys = new Set(content.devices.map((device) => device.key));
    content.sensors.forEach((sensor, index) => {
      if (sensor.deviceKey != null && !deviceKeys.has(sensor.deviceKey)) {
        problem(
          ['sensors', index, 'deviceKey'],
          `No device of this draft has the key '${sensor.deviceKey}'`,
        );
      }
    });
    const vendor = duplicateOf(content.vendors.map((entry) => entry.vendorUuid));
    if (vendor !== undefined) problem(['vendors'], `Vendor ${vendor} is set twice`);
    content.vendors.forEach((entry, index) => {
      const secret = entry.secretFields.find((field) => Object.hasOwn(entry.settings, field));
      if (secret !== undefined) {
        problem(
          ['vendors', index, 'settings', secret],
          `'${secret}' is a secret: it is asked again when the draft is sent, never kept in the draft`,
        );
      }
    });
  });
export type DraftContentInput = z.input<typeof DraftContent>;
export type DraftContent = z.output<typeof DraftContent>;

/** What the server already holds of a draft: the uuids it answered, as the send went. */
export interface DraftProgress {
  plantUuid: string | null;
  /** Device key → deviceUuid. */
  devices: Record<string, string>;
  /** Sensor key → sensorUuid. */
  sensors: Record<string, string>;
  /** vendorUuid → when it was configured (the server's `configuredAt`). */
  vendors: Record<string, string>;
}

export type DraftSection = 'plant' | 'devices' | 'sensors' | 'vendors';

/** Something of the draft the last send could not create, on the field it concerns. */
export interface DraftRefusal {
  section: DraftSection;
  /** The device's or sensor's key, the vendor's uuid; absent for the plant. */
  key?: string;
  /** The field of that plant, device, sensor or vendor setting, when the message names one. */
  field?: string;
  /**
   * - `refused`: the server answered 400, 403, 409 or 422 (`status`);
   * - `conflict`: the server holds a different plant (device, sensor) under the draft's external
   *   id (name): nothing is changed on either side, the user decides;
   * - `secretNeeded`: a secret setting was not given again for this send;
   * - `notSent`: it depends on something refused (a sensor of a device that was not created).
   */
  kind: 'refused' | 'conflict' | 'secretNeeded' | 'notSent';
  message: string;
  status?: number;
}

export interface Draft {
  draftId: string;
  /** The environment and account it belongs to: it is listed, read and sent only there. */
  environmentId: string;
  account: string;
  createdAt: string;
  updatedAt: string;
  content: DraftContent;
  /** `sent`: the server holds all of it; `partlySent`: some of it; `notSent`: none yet. */
  status: 'notSent' | 'partlySent' | 'sent';
  sent: DraftProgress;
  /** What the last send could not create. */
  refusals: DraftRefusal[];
  lastSentAt: string | null;
}

export const DraftId = Uuid;
export const DraftSaveInput = z.strictObject({
  /** Absent: a new draft. */
  draftId: DraftId.optional(),
  content: DraftContent,
});
export type DraftSaveInput = z.input<typeof DraftSaveInput>;

export const DraftSendInput = z.strictObject({
  /** vendorUuid → secret field → value, for this send only (see DraftVendor.secretFields). */
  secrets: z.record(z.string(), z.record(SettingName, z.string().max(4096))).optional(),
});
export type DraftSendInput = z.input<typeof DraftSendInput>;

export interface DraftSendResult {
  draft: Draft;
  /**
   * - `sent`: the server holds the whole draft;
   * - `refused`: the rest was created, but the server refused something (see `draft.refusals`);
   * - `interrupted`: the connection (or session) failed meanwhile: what was created is recorded,
   *   and sending again resumes there.
   */
  outcome: 'sent' | 'refused' | 'interrupted';
  message: string;
}

// ── Commissioning notes and photos ─────────────────────────────────────────────────────────

/** The wizard's steps an installer writes notes on (the report step shows them). */
export const NOTE_STEPS = ['plant', 'sensors', 'devices', 'vendors', 'verification'] as const;
export type NoteStep = (typeof NOTE_STEPS)[number];

export const NOTE_TEXT_MAX = 4000;
export const PHOTO_CAPTION_MAX = 200;
/** A photo as a data URL: the renderer downscales to ≤ 1600 px JPEG, a few hundred kB. */
export const PHOTO_DATA_URL_MAX = 2_000_000;
export const PHOTOS_PER_STEP_MAX = 6;
/** All photos of one commissioning together, so a notes file (and a report) stays printable. */
export const PHOTOS_TOTAL_CHARS_MAX = 10_000_000;

const PHOTO_DATA_URL = /^data:image\/(?:jpeg|png|webp);base64,[A-Za-z0-9+/]+={0,2}$/;

/** Whose notes: a plant on the server (of the active environment), or a local draft. */
export const NotesSubject = z.union([
  z.strictObject({ plantUuid: Uuid }),
  z.strictObject({ draftId: Uuid }),
]);
export type NotesSubject = z.infer<typeof NotesSubject>;

export const NoteStepSchema = z.enum(NOTE_STEPS);
export const NoteText = z.string().max(NOTE_TEXT_MAX);
export const NotePhotoInput = z.strictObject({
  dataUrl: z
    .string()
    .max(PHOTO_DATA_URL_MAX, { error: 'the photo is too large: downscale it first' })
    .regex(PHOTO_DATA_URL, { error: 'a photo must be a base64 JPEG, PNG or WebP data URL' }),
  caption: z.string().trim().max(PHOTO_CAPTION_MAX).optional(),
});
export type NotePhotoInput = z.infer<typeof NotePhotoInput>;
const PhotoId = z.string().regex(/^[A-Za-z0-9-]{1,64}$/);

export interface NotePhoto {
  photoId: string;
  dataUrl: string;
  caption: string;
  addedAt: string;
}

export interface StepNotes {
  text: string;
  photos: NotePhoto[];
}

/** The installer's notes and photos of one commissioning, per wizard step. */
export interface CommissioningNotes {
  steps: Partial<Record<NoteStep, StepNotes>>;
  updatedAt: string | null;
}

// ── Support bundle ──────────────────────────────────────────────────────────────────────────

/** One file of a support bundle, as listed before saving (and in its manifest.json). */
export interface SupportBundleFile {
  /** Its path inside the zip, `/`-separated. */
  name: string;
  /** Its size before compression. */
  bytes: number;
}

/** A bundle made and redacted by the host, kept there until saved (or replaced by the next). */
export interface SupportBundlePreview {
  bundleId: string;
  /** What the save dialog (or the download) suggests. */
  fileName: string;
  /** The plant it is about, or null for the app-wide bundle. */
  plantName: string | null;
  files: SupportBundleFile[];
  /** The zip's size. */
  zipBytes: number;
  /** Parts of the plant the server did not give (an extension it lacks, a permission). */
  missing: SupportBundlePart[];
}

export type SupportBundlePart = 'devices' | 'sensors' | 'vendors' | 'sensorStatuses' | 'dataHealth';

export interface SupportBundleSaveResult {
  /** False when the user cancelled the file dialog. */
  saved: boolean;
  path?: string;
}

/** Browser mode: the zip itself, redacted, for the page to offer as a download. */
export interface SupportBundleDownload {
  fileName: string;
  base64: string;
}

export const SupportBundleInput = z.strictObject({
  /** A plant of the active environment; absent: the app-wide bundle (Help). */
  plantUuid: Uuid.optional(),
});
export type SupportBundleInput = z.infer<typeof SupportBundleInput>;
const BundleId = z.strictObject({ bundleId: Uuid });

// ── Period reports ──────────────────────────────────────────────────────────────────────────

/**
 * The monthly report schedule's choices the page may change. The folder is not among them: the
 * host sets it only from its own folder dialog (`reports.chooseFolder`), so a page cannot point
 * the schedule at a folder the user did not pick.
 */
export const ReportScheduleInput = z.strictObject({
  enabled: z.boolean(),
  /** 1..28: a day every month has. */
  dayOfMonth: z.int().min(1).max(28),
});
export type ReportScheduleInput = z.infer<typeof ReportScheduleInput>;

export const ReportPrintReady = z.strictObject({
  token: z.uuid(),
  ok: z.boolean(),
  /** Why the page could not make the report (ok: false), in the user's language. */
  message: z.string().max(2000).optional(),
});
export type ReportPrintReady = z.infer<typeof ReportPrintReady>;

export const PreparedReportRequest = z.strictObject({ token: z.uuid() });
export type PreparedReportRequest = z.infer<typeof PreparedReportRequest>;

/**
 * A report the host made for its print window: plain data (numbers, strings, null, arrays), so
 * it crosses structured clone and JSON alike. Only whole reports are printed, so there are no
 * failed plants to carry; `madeAt` is when the host made it (ISO), as its CSVs say.
 */
export interface PreparedReport {
  fleet: FleetReport;
  madeAt: string;
}

export interface ReportScheduleSettings extends ReportScheduleInput {
  folder: string | null;
}

export interface ReportScheduleState {
  /** False in browser mode: the schedule writes into a folder of the desktop app's machine. */
  available: boolean;
  settings: ReportScheduleSettings;
  /** The last period written (`2026-03`), when, and the last attempt's failure. */
  lastWritten: string | null;
  lastWrittenAt: string | null;
  lastError: string | null;
}

/** An error as it crosses the bridge; the renderer's bridge rebuilds a `PlantDeskError`. */
export interface SerializedError {
  /**
   * - `api`: the server answered an error status (`status`, `error`, `message`, `path` from its body);
   * - `network`, `timeout`, `cancelled`: the request did not complete;
   * - `proxy`: the proxy between the host and the server refused (credentials it wants, an
   *   address it blocks) or could not be reached: not retried, the message says what to check;
   * - `invalidResponse`: the server's answer does not match the contract;
   * - `signedOut`: no session for the active environment;
   * - `invalidArguments`, `forbidden`, `internal`: the bridge itself refused or failed.
   */
  kind:
    | 'api'
    | 'network'
    | 'proxy'
    | 'timeout'
    | 'cancelled'
    | 'invalidResponse'
    | 'signedOut'
    | 'invalidArguments'
    | 'forbidden'
    | 'internal';
  message: string;
  status?: number;
  error?: string;
  path?: string;
  /** The fields a 400 or 422 is about, when the server lists them (our server's extension). */
  fieldErrors?: FieldRefusal[];
}

/** One field's refusal: a dotted path into the request body, or a parameter's name. */
export interface FieldRefusal {
  field: string;
  message: string;
}

/** What every invocation answers, so that errors keep their fields across IPC and HTTP. */
export type Envelope<T> = { ok: true; value: T } | { ok: false; error: SerializedError };

// ── Environment comparison ──────────────────────────────────────────────────────────────────

/** A plant of the active environment against the same plant (by external id) in another one. */
export const ComparisonInput = z.strictObject({
  plantUuid: Uuid,
  otherEnvironmentId: EnvironmentId,
});
export type ComparisonInput = z.infer<typeof ComparisonInput>;

export interface ComparedEnvironment {
  id: string;
  name: string;
  kind: EnvironmentKind;
  /** The server its credentials are bound to (scheme, host, port; or the Local sandbox). */
  origin: string;
}

export interface ComparedPlant {
  plantUuid: string;
  name: string;
  externalIds: string[];
}

/**
 * - `compared`: both plants read and compared (`diff`: left is the active environment);
 * - `noExternalId`: the plant has no external id to find it by elsewhere;
 * - `signInNeeded`: the other environment has no session (`comparison.signIn` makes one
 *   without switching environments);
 * - `notFound` / `ambiguous`: no plant, or several, in the other environment holds one of its
 *   external ids.
 */
export type ComparisonResult =
  | {
      status: 'compared';
      left: { environment: ComparedEnvironment; plant: ComparedPlant };
      right: { environment: ComparedEnvironment; plant: ComparedPlant };
      matchedExternalIds: string[];
      diff: PlantDiff;
    }
  | { status: 'noExternalId'; left: { environment: ComparedEnvironment; plant: ComparedPlant } }
  | {
      status: 'signInNeeded';
      left: { environment: ComparedEnvironment; plant: ComparedPlant };
      other: ComparedEnvironment;
      rememberedEmail?: string;
    }
  | {
      status: 'notFound' | 'ambiguous';
      left: { environment: ComparedEnvironment; plant: ComparedPlant };
      other: ComparedEnvironment;
      candidates: ComparedPlant[];
    };

// ── Proxy sign-in ───────────────────────────────────────────────────────────────────────────

/**
 * A proxy between the host and the server asks for a user name and password (Basic, Digest):
 * the page asks the user and answers with `proxyAuth.answer` and this id.
 */
export interface ProxyLoginRequest {
  requestId: string;
  host: string;
  port: number;
  realm: string;
  scheme: string;
  /** The proxy refused the last answer. */
  refused: boolean;
}

export const ProxyLoginAnswerInput = z.strictObject({
  username: z.string().min(1, { error: 'user name is required' }).max(256),
  password: z.string().max(1024),
  /** Keep it in the OS keychain for this proxy and realm only. */
  remember: z.boolean(),
});
export type ProxyLoginAnswerInput = z.infer<typeof ProxyLoginAnswerInput>;

// ── API proxy arguments ─────────────────────────────────────────────────────────────────────

const routeIds = Object.keys(routes) as [RouteId, ...RouteId[]];
export const RouteIdSchema = z.enum(routeIds);
export const ApiCallInput = z.strictObject({
  params: z.record(z.string(), z.string().max(200)).optional(),
  query: z
    .record(
      z.string(),
      z.union([
        z.string(),
        z.number(),
        z.boolean(),
        z.array(z.union([z.string(), z.number()])),
        z.undefined(),
        z.null(),
      ]),
    )
    .optional(),
  body: z.unknown().optional(),
});
export const ApiCallOptions = z.strictObject({
  /** Lets `api.cancel` abort this call. */
  requestId: z.string().min(1).max(100).optional(),
  timeoutMs: z.int().min(100).max(600_000).optional(),
});
export type ApiCallOptions = z.infer<typeof ApiCallOptions>;

/** No folder separators, characters Windows forbids, or control characters. */
function isPlainFileName(name: string): boolean {
  return !/[/\\:*?"<>|]/.test(name) && [...name].every((char) => char >= ' ');
}

// ── Channels ────────────────────────────────────────────────────────────────────────────────

export const channels = {
  'app.info': channel<AppInfo>()(z.tuple([])),
  /** Keeps the user's language (null: follow the system again); the host's texts follow at once. */
  'app.setLanguage': channel<LanguageState>()(z.tuple([z.enum(APP_LOCALES).nullable()])),

  'environments.list': channel<EnvironmentList>()(z.tuple([])),
  'environments.add': channel<Environment>()(z.tuple([EnvironmentInput])),
  'environments.update': channel<Environment>()(z.tuple([EnvironmentId, EnvironmentInput])),
  'environments.remove': channel()(z.tuple([EnvironmentId])),
  /** Switches the active environment, and with it the session. */
  'environments.select': channel<SessionState>()(z.tuple([EnvironmentId])),
  'environments.testConnection': channel<ConnectionTestResult>()(z.tuple([environmentUrl])),

  'localSandbox.state': channel<LocalSandboxState>()(z.tuple([])),
  /** Starts it (a no-op while running); it starts at the next launches again. */
  'localSandbox.start': channel<LocalSandboxState>()(z.tuple([])),
  /** Stops it, keeping its database; it stays stopped at the next launches until started. */
  'localSandbox.stop': channel<LocalSandboxState>()(z.tuple([])),
  'localSandbox.restart': channel<LocalSandboxState>()(z.tuple([])),

  'session.state': channel<SessionState>()(z.tuple([])),
  'session.signIn': channel<SessionState>()(z.tuple([SignInInput])),
  'session.signOut': channel<SessionState>()(z.tuple([])),
  /** Reads `/auth/me` again (permissions may have changed). */
  'session.refreshUser': channel<SessionState>()(z.tuple([])),

  /** One call of the Plant Energy API, made by the host with the session's tokens. */
  'api.call': channel<unknown>()(
    z.union([
      z.tuple([RouteIdSchema, ApiCallInput]),
      z.tuple([RouteIdSchema, ApiCallInput, ApiCallOptions]),
    ]),
  ),
  'api.cancel': channel()(z.tuple([z.string().min(1).max(100)])),

  /**
   * Saves the window's current page (the commissioning report, a period report: only the
   * `printed-document` prints) as PDF, where the user picks the file. Electron only: in browser
   * mode the renderer opens the print dialog instead.
   */
  'report.savePdf': channel<PdfSaveResult>()(
    z.tuple([
      z.strictObject({
        suggestedName: z
          .string()
          .trim()
          .min(1)
          .max(200)
          .refine(isPlainFileName, { error: 'not a file name' }),
      }),
    ]),
  ),

  /** The active environment's alerts, mutes, monitor settings and last cycle. */
  'alerts.state': channel<AlertsState>()(z.tuple([])),
  'alerts.acknowledge': channel<AlertsState>()(z.tuple([AcknowledgeInput])),
  /** A maintenance window: the plant (or one rule) raises no notification until then. */
  'alerts.mute': channel<AlertsState>()(z.tuple([MuteInput])),
  'alerts.unmute': channel<AlertsState>()(
    z.tuple([z.strictObject({ plantUuid: Uuid, rule: z.enum(ALERT_RULES).nullable() })]),
  ),
  'alerts.updateSettings': channel<AlertsState>()(z.tuple([MonitorSettingsInput])),
  /** Evaluates the active environment now rather than at the next interval. */
  'alerts.checkNow': channel<AlertsState>()(z.tuple([])),

  /**
   * Commissioning drafts of the active environment and account (the signed-in one, else the one
   * remembered for the environment): kept by the host in its data folder while the server
   * cannot be reached, and sent when it can.
   */
  'drafts.list': channel<Draft[]>()(z.tuple([])),
  'drafts.get': channel<Draft>()(z.tuple([DraftId])),
  'drafts.save': channel<Draft>()(z.tuple([DraftSaveInput])),
  'drafts.delete': channel()(z.tuple([DraftId])),
  /** Creates what the server does not hold yet, in workflow order; safe to repeat. */
  'drafts.send': channel<DraftSendResult>()(
    z.union([z.tuple([DraftId]), z.tuple([DraftId, DraftSendInput])]),
  ),

  /**
   * The installer's notes and photos per wizard step, kept by the host in its data folder: a
   * draft's beside the draft, a plant's by environment and plant.
   */
  'commissioningNotes.get': channel<CommissioningNotes>()(z.tuple([NotesSubject])),
  'commissioningNotes.setText': channel<CommissioningNotes>()(
    z.tuple([NotesSubject, NoteStepSchema, NoteText]),
  ),
  'commissioningNotes.addPhoto': channel<CommissioningNotes>()(
    z.tuple([NotesSubject, NoteStepSchema, NotePhotoInput]),
  ),
  'commissioningNotes.removePhoto': channel<CommissioningNotes>()(
    z.tuple([NotesSubject, NoteStepSchema, PhotoId]),
  ),

  /**
   * The acceptance re-check of a plant of the active environment: `commissioned` records when
   * its commissioning verification passed (the first time only) and schedules the re-check 24 h
   * later; `get` answers it, or null when the plant was never commissioned here.
   */
  'acceptance.commissioned': channel<AcceptanceRecheck>()(z.tuple([AcceptanceCommissionedInput])),
  'acceptance.get': channel<AcceptanceRecheck | null>()(z.tuple([Uuid])),

  /** Compares a plant of the active environment with the same plant in another environment. */
  'comparison.compare': channel<ComparisonResult>()(z.tuple([ComparisonInput])),
  /**
   * Signs in to another environment for the comparison; the active environment, its session and
   * the renderer's state stay as they are. The password goes to that environment's server only.
   */
  'comparison.signIn': channel<SessionState>()(z.tuple([EnvironmentId, SignInInput])),
  /**
   * A support bundle of a plant (or of the app, without one): gathered by the host from the
   * server, the alert store and the log, redacted, zipped and kept there; the page lists its
   * files before the user saves it.
   */
  'supportBundle.prepare': channel<SupportBundlePreview>()(z.tuple([SupportBundleInput])),
  /** Electron: writes the prepared bundle where the user chooses in the save dialog. */
  'supportBundle.save': channel<SupportBundleSaveResult>()(z.tuple([BundleId])),
  /** Browser mode: the prepared (redacted) zip, which the page offers as a download. */
  'supportBundle.download': channel<SupportBundleDownload>()(z.tuple([BundleId])),

  /** The monthly report schedule (monthly, on a chosen day, into a chosen folder). */
  'reports.schedule': channel<ReportScheduleState>()(z.tuple([])),
  'reports.updateSchedule': channel<ReportScheduleState>()(z.tuple([ReportScheduleInput])),
  /** Electron: the folder dialog; the chosen folder becomes the schedule's (cancel: unchanged). */
  'reports.chooseFolder': channel<ReportScheduleState>()(z.tuple([])),
  /**
   * The desktop app's hidden print window (the renderer's print route) says its report is drawn
   * (`ok`) or could not be made (`message`): the host then prints it to PDF, or fails that run.
   * The token is the one in the page's address, so only the page the host opened can answer.
   */
  'reports.printReady': channel()(z.tuple([ReportPrintReady])),
  /**
   * The hidden print window asks for the report the host already made for it (by its address's
   * token), instead of making it from the API again. Only print windows may ask (main's sender
   * rule), and only while the host waits for that token; anything else is refused.
   */
  'reports.preparedReport': channel<PreparedReport>()(z.tuple([PreparedReportRequest])),

  /** The user's answer to `proxyAuth.requested` (null: cancelled); false when nothing waits for it. */
  'proxyAuth.answer': channel<boolean>()(z.tuple([z.uuid(), ProxyLoginAnswerInput.nullable()])),

  /** Opens an https address on the allow-list in the system browser. */
  'shell.openExternal': channel()(z.tuple([z.url({ protocol: /^https$/ }).max(2048)])),
} as const satisfies Record<ChannelName, unknown>;

export type Channels = typeof channels;
export type ChannelArgs<C extends ChannelName> = z.input<Channels[C]['args']>;
export type ChannelResult<C extends ChannelName> =
  Channels[C] extends Channel<z.ZodType<readonly unknown[]>, infer Result> ? Result : never;

// ── Events (host → renderer) ────────────────────────────────────────────────────────────────

export interface Events {
  'session.changed': SessionState;
  /** The refresh token was refused: signed out, ask for the password and keep unsaved input. */
  'session.expired': { environmentId: string; email: string; message: string };
  'environments.changed': EnvironmentList;
  'localSandbox.changed': LocalSandboxState;
  /** Said once: no OS keychain, so the password is asked at every launch. */
  'keychain.unavailable': KeychainStatus;
  /** After each monitor cycle of an environment and each acknowledgement or mute. */
  'alerts.changed': { environmentId: string; openCount: number };
  /** A plant's new or cleared alerts, for a host that shows notifications in the page (browser mode). */
  'alerts.notification': AlertNotification;
  /** A plant's acceptance re-check was recorded or has run. */
  'acceptance.changed': { environmentId: string; plantUuid: string };
  /** The Help menu asked for a support bundle: the page opens the support screen. */
  'supportBundle.open': Record<string, never>;
  /** A proxy asks for a user name and password: the page shows its dialog (Electron only). */
  'proxyAuth.requested': ProxyLoginRequest;
}
// Every event named in names.ts has a payload here, and no other.
const _eventsMatchTheirNames: [keyof Events, EventName] extends [EventName, keyof Events]
  ? true
  : never = true;

// ── What hosts implement and what the renderer sees ─────────────────────────────────────────

/** The host side: one handler per channel (the router has already validated the arguments). */
export type ChannelHandlers = {
  [C in ChannelName]: (...args: z.output<Channels[C]['args']>) => Promise<ChannelResult<C>>;
};

export type Unsubscribe = () => void;

/**
 * `window.plantdesk` (and its HTTP twin): the channels as methods, with `api.call` typed per
 * route, plus event subscriptions. Methods reject with the envelope's `SerializedError`, which
 * the renderer's bridge turns into a `PlantDeskError`.
 */
export interface PlantDeskBridge {
  invoke<C extends Exclude<ChannelName, 'api.call'>>(
    channel: C,
    ...args: ChannelArgs<C>
  ): Promise<ChannelResult<C>>;
  call<R extends RouteId>(
    route: R,
    input: RouteInput<R>,
    options?: ApiCallOptions,
  ): Promise<RouteResult<R>>;
  on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): Unsubscribe;
}

/**
 * What the preload exposes as `window.plantdesk`: exactly one method per channel, answering the
 * envelope (the renderer's bridge unwraps it), and `on` for the events. Nothing else.
 */
export type PreloadApi = {
  [C in ChannelName]: (...args: ChannelArgs<C>) => Promise<Envelope<ChannelResult<C>>>;
} & {
  on(event: EventName, listener: (payload: unknown) => void): Unsubscribe;
};
