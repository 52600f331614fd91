import { routes } from '../../api/routes.ts';
import type { RouteId } from '../../api/routes.ts';
import type { RouteInput } from '../../api/routeInput.ts';
import { clockFrom } from '../../server/clock.ts';
import type {
  AlertNotification,
  AppInfo,
  ChannelHandlers,
  ConnectionTestResult,
  Environment,
  KeychainStatus,
  LocalSandboxState,
  PdfSaveResult,
  SupportBundleSaveResult,
} from '../ipc/contract.ts';
import { createApiClient } from './api/apiClient.ts';
import { createProxyAuth, type ProxyAuth } from './proxyAuth.ts';
import { createProxyPrompt } from './proxyPrompt.ts';
import { proxyRefusal } from './api/apiError.ts';
import {
  createNodeTransport,
  failureCode,
  PROXY_CODES,
  RedirectRefused,
  type FetchTransport,
} from './api/transport.ts';
import { formatDuration } from '../../i18n/format.ts';
import { ENGLISH } from './hostText.ts';
import { HostError } from './hostError.ts';
import { displayBaseUrl, joinUrl } from './api/requestBuilder.ts';
import { credentialOrigin } from '../ipc/addresses.ts';
import { createEnvironmentStore, LOCAL_ENVIRONMENT_ID } from './environments.ts';
import { sweepFolderOnce } from './durableFile.ts';
import { createEventBus, type EventBus } from './eventBus.ts';
import { createLocalSandbox, type SpawnServer } from './localSandbox.ts';
import { createLocalSandboxChoice } from './localSandboxChoice.ts';
import { problemsOnly, type Logger } from './logger.ts';
import {
  KEYCHAIN_UNAVAILABLE_MESSAGE,
  normalizeEmail,
  openSecretStore,
  type LazySecretStore,
  type SecretStore,
} from './secrets.ts';
import { createDraftService } from './drafts/draftService.ts';
import { createDraftStore, draftFolders, ownerOf, type DraftOwner } from './drafts/draftStore.ts';
import { createCommissioningNotes, notesLocator } from './commissioningNotes.ts';
import { createSessionManager } from './session.ts';
import { IMMEDIATE_TIMING, UnknownAlertError } from './monitor/alertLifecycle.ts';
import { createAlertStore } from './monitor/alertStore.ts';
import { createMonitor, type Monitor } from './monitor/monitorService.ts';
import { createAcceptanceService } from './acceptance/acceptanceService.ts';
import { createAcceptanceStore } from './acceptance/acceptanceStore.ts';
import { createEnvironmentComparison } from './environmentComparison/comparisonService.ts';
import { createLanguagePreference, type LanguagePreference } from './languagePreference.ts';
import { recentLogLines } from './supportBundle/logTail.ts';
import { createSupportBundleService } from './supportBundle/supportBundleService.ts';
import { createReportScheduleService } from './reports/reportScheduleService.ts';
import { reportScheduleHostDeps } from './reports/reportScheduleHost.ts';
import { createReportPrinter, type PrintWindow } from './reports/reportPrinter.ts';
import type { AppLocale } from '../../i18n/locales.ts';
import { localeOf, type Translate } from '../../i18n/translator.ts';

/**
 * The composition both hosts use (Electron main and the browser-mode web host): every service
 * wired together and one handler per channel of the IPC contract. Hosts add only their
 * transport (IPC or HTTP) and what needs their platform (opening a link, the server process).
 */

export interface PlantDeskOptions {
  host: 'electron' | 'web';
  version: string;
  /** environments.json and the Local sandbox's database live here. */
  dataDir: string;
  /** Where the host writes its log; recorded for support, the services log through `log`. */
  logDir?: string;
  /** An administrator's environments.json, if any. */
  defaultsFile?: string;
  /** Starts the Local sandbox server (utilityProcess in Electron, a child process on the web). */
  spawnServer: SpawnServer;
  /** The keychain's service name; default `PlantDesk` (a development run has its own). */
  keychainService?: string;
  /** Default: the OS keychain once found to work, else memory (see openSecretStore). */
  secrets?: { store: SecretStore; status: KeychainStatus } | LazySecretStore;
  log: Logger;
  /** Opens an address in the system browser; called only for allowed https addresses. */
  openExternal(url: string): Promise<void>;
  /**
   * Hosts `shell.openExternal` may open besides those of the administrator's environments.
   * Default: the PlantDesk documentation's. What the renderer adds never extends it.
   */
  externalAllowList?: string[];
  /**
   * Asks the user, outside the renderer (a native dialog), to confirm that a production
   * environment now points to another server. Without it (browser mode) such a change is refused.
   */
  confirmAddressChange?(change: AddressChange): Promise<boolean>;
  /** Arguments appended to the Local sandbox server's (tests: `--no-simulation`, `--quiet`). */
  localSandboxArgs?: readonly string[];
  /**
   * Run the app at a chosen instant (`--clock`, an ISO 8601 date-time with an offset): the Local
   * sandbox's clock starts there, and `app.info` tells the renderer the host's time. Default:
   * the system clock.
   */
  clock?: string;
  /**
   * End-to-end tests: the Local environment's address while the sandbox runs is this loopback
   * relay (which forwards to the sandbox) instead of the sandbox's own, so that a test can cut
   * a connection halfway through a send.
   */
  localSandboxRelay?: string;
  /** How long `environments.testConnection` waits. Default 10 s. */
  connectionTestTimeoutMs?: number;
  /**
   * Saves the focused window's page as a PDF where the user chooses (Electron: printToPDF and a
   * save dialog). Absent in browser mode, where the renderer uses the browser's print dialog.
   */
  savePdf?(suggestedName: string): Promise<PdfSaveResult>;
  /**
   * Writes a prepared support bundle where the user chooses (Electron: the save dialog). Absent
   * in browser mode, where the page downloads the bundle instead.
   */
  saveSupportBundle?(fileName: string, zip: Uint8Array): Promise<SupportBundleSaveResult>;
  /**
   * Asks for a folder (Electron: the folder dialog); null when cancelled. Absent in browser mode,
   * where the monthly report schedule is not offered: it writes into this machine's folders.
   */
  chooseFolder?(): Promise<string | null>;
  /**
   * Opens a hidden window on the renderer's print route (`hash`, see reportPrinter.ts), for the
   * schedule's PDFs; `failed` when it cannot load, is closed or its page's process ends. Absent in browser mode (no schedule there).
   */
  openPrintWindow?(hash: string, failed: (message: string) => void): PrintWindow;
  /**
   * Shows a notification of new or cleared alerts (Electron: an OS notification). Default: the
   * `alerts.notification` event, which the page shows itself (browser mode).
   */
  notify?(notification: AlertNotification): void;
  /** `immediate`: alerts open and clear at the first evaluation (demos, end-to-end tests). */
  alertTiming?: 'rules' | 'immediate';
  /**
   * The system's preferred languages, most preferred first (Electron:
   * app.getPreferredSystemLanguages()). Default: the host process's own locale.
   */
  systemLanguages?(): readonly string[];
  /** After the effective language changed (Electron: the menu is built again in it). */
  onLanguageChanged?(locale: AppLocale): void;
  /**
   * How API calls and connection tests travel (api/transport.ts). Electron: `net.fetch`, Chromium's
   * stack with the system's proxies and trust store. Default: Node's fetch with the proxy of
   * HTTP_PROXY / HTTPS_PROXY / NO_PROXY (browser mode). `withProxyLogin`: a transport that
   * answers a proxy's request for a password with the service given (proxyAuth.ts), which asks
   * the user in the window.
   */
  fetch?: FetchTransport | { withProxyLogin(auth: ProxyAuth): FetchTransport };
}

export interface AddressChange {
  name: string;
  from: string;
  to: string;
}

export interface PlantDesk {
  handlers: ChannelHandlers;
  events: EventBus;
  /** The fleet monitor (the Electron host shows its open-alert count in the tray). */
  monitor: Monitor;
  /** The user's language, which the host's own texts follow. */
  language: LanguagePreference;
  /** Stops the Local sandbox and the session's timers; in-flight API calls are cancelled. */
  dispose(): Promise<void>;
}

export const APP_NAME = 'PlantDesk';
export { HostError };

export const DOCS_HOSTS: readonly string[] = ['plantdesk.example'];
const DEFAULT_CONNECTION_TEST_TIMEOUT_MS = 10_000;

function transportOf(given: PlantDeskOptions['fetch'], proxyAuth: () => ProxyAuth): FetchTransport {
  if (given === undefined) return createNodeTransport();
  return typeof given === 'function' ? given : given.withProxyLogin(proxyAuth());
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function lazySecrets(options: PlantDeskOptions): LazySecretStore {
  const given = options.secrets;
  if (!given) return openSecretStore({ log: options.log, service: options.keychainService });
  const { store, status } = given;
  return typeof status === 'function' ? { store, status } : { store, status: async () => status };
}

export async function startPlantDesk(options: PlantDeskOptions): Promise<PlantDesk> {
  const { log } = options;
  // A malformed clock fails the start, before any service is running.
  const now = clockFrom(options.clock);
  // The settings files live here: what a writer killed by a crash or power cut left goes first.
  const leftovers = sweepFolderOnce(options.dataDir);
  if (leftovers.length > 0)
    log.info('Removed temporary files of an interrupted write', { leftovers });
  const events = createEventBus();
  const language = createLanguagePreference({
    dataDir: options.dataDir,
    systemLanguages:
      options.systemLanguages ?? (() => [Intl.DateTimeFormat().resolvedOptions().locale]),
    log,
    onChange: (locale) => {
      options.onLanguageChanged?.(locale);
      // Alerts and re-checks are worded when read: the pages read them again, in the new language.
      monitor.languageChanged();
      acceptance.languageChanged();
    },
  });
  /** The host's own words, in the user's language at the moment they are said. */
  const say: Translate = (key, named, plural) => language.translator()(key, named, plural);
  // Not awaited: the keychain is asked on first use, never on the start path.
  const secrets = lazySecrets(options);
  const proxyPrompt = createProxyPrompt(events.emit);
  const transport = transportOf(options.fetch, () =>
    createProxyAuth({ ask: proxyPrompt.ask, keychain: secrets.store, log }),
  );

  const environments = createEnvironmentStore({
    t: () => language.translator(),
    dataDir: options.dataDir,
    defaultsFile: options.defaultsFile,
    emit: events.emit,
    log,
  });
  const localSandbox = createLocalSandbox({
    spawn: options.spawnServer,
    dataDir: options.dataDir,
    emit: events.emit,
    log,
    extraArgs: options.localSandboxArgs,
    clock: options.clock,
  });
  const sandboxChoice = createLocalSandboxChoice(options.dataDir, log);
  const session = createSessionManager({
    secrets: secrets.store,
    emit: events.emit,
    // A line per successful call would fill the log with traffic; failures and refusals stay.
    createClient: ({ baseUrl, credentials }) =>
      createApiClient({
        baseUrl,
        credentials,
        fetch: transport,
        log: problemsOnly(log),
        t: () => language.translator(),
      }),
    log,
    t: () => language.translator(),
  });

  // The Local sandbox gets a new port at every (re)start: the environment follows it, and the
  // session learns the address (and may now restore a remembered sign-in).
  const stopFollowingSandbox = events.on('localSandbox.changed', (state: LocalSandboxState) => {
    const url = state.status === 'running' ? (options.localSandboxRelay ?? state.url) : undefined;
    environments.setLocalUrl(url ?? '');
    void session.environmentChanged(environments.get(LOCAL_ENVIRONMENT_ID));
  });

  const monitor = createMonitor({
    store: createAlertStore(options.dataDir, log),
    signedIn: () => session.signedIn(),
    emit: events.emit,
    notify: options.notify ?? ((notification) => events.emit('alerts.notification', notification)),
    now: () => now().getTime(),
    log,
    language,
    ...(options.alertTiming === 'immediate' && { timing: IMMEDIATE_TIMING }),
  });
  monitor.start();
  /** The client of an environment with a session, active or not. */
  const signedInClient = (environmentId: string) =>
    session.signedIn().find((entry) => entry.environmentId === environmentId)?.client ?? null;
  const acceptance = createAcceptanceService({
    store: createAcceptanceStore(options.dataDir, log),
    clientFor: signedInClient,
    openAlerts: (environmentId, plantUuid) =>
      monitor.kept(environmentId).filter((alert) => alert.plantUuid === plantUuid),
    emit: events.emit,
    now: () => now().getTime(),
    log,
    language,
  });
  acceptance.start();
  const comparison = createEnvironmentComparison({
    active: () => environments.active(),
    environment: (id) => environments.get(id),
    sessionOf: (environment) => session.sessionOf(environment),
    signInTo: (environment, input) => session.signInTo(environment, input),
    clientFor: signedInClient,
    say: (key) => say(key),
    log,
  });
  // A new sign-in is checked at once rather than at the next interval; re-checks that came due
  // while it was signed out (or the app closed) run after the monitor's cycle, whose alerts they
  // report.
  const stopWatchingSignIns = events.on('session.changed', (state) => {
    if (state.status !== 'signedIn') return;
    const environmentId = state.environmentId;
    void monitor.check(environmentId).finally(() => acceptance.runDue(environmentId));
  });
  /** The signed-in user of the active environment, who acknowledges and mutes. */
  function actor(): { environmentId: string; email: string } {
    const state = session.state();
    if (state.status !== 'signedIn' || !state.user) {
      throw new HostError('signedOut', say('host.errors.signInForAlerts'));
    }
    return { environmentId: state.environmentId, email: state.user.email };
  }

  /**
   * Drafts are the active environment's, for its signed-in account or, while the server cannot
   * be reached (a remembered sign-in not yet restored), the account remembered for it.
   */
  function draftOwner(): DraftOwner {
    const state = session.state();
    const account = state.user?.email ?? state.rememberedEmail;
    if (!state.environmentId || account === undefined) {
      throw new HostError('signedOut', say('host.errors.signInForDrafts'));
    }
    return ownerOf(state.environmentId, account);
  }
  const drafts = createDraftService({
    t: () => language.translator(),
    store: createDraftStore(options.dataDir, log),
    owner: draftOwner,
    clientFor(owner) {
      const signedIn = session
        .signedIn()
        .find(
          (entry) =>
            entry.environmentId === owner.environmentId &&
            normalizeEmail(entry.email) === owner.account,
        );
      if (!signedIn) {
        throw new HostError('signedOut', say('host.errors.signInToSendDraft'));
      }
      return signedIn.client;
    },
    now,
    log,
  });

  const notes = createCommissioningNotes({
    t: () => language.translator(),
    locate: notesLocator({
      dataDir: options.dataDir,
      environmentId: () => environments.list().activeId,
      draftOwner,
      // Only a draft the user has here: get() throws for any other id.
      hasDraft: (draftId) => void drafts.get(draftId),
      draftFolders,
    }),
    now,
    log,
  });

  const supportBundle = createSupportBundleService({
    active() {
      const environment = environments.active();
      let origin = '';
      try {
        origin = environment.baseUrl ? new URL(environment.baseUrl).origin : '';
      } catch {
        // An address that does not parse says nothing more as an origin.
      }
      const signedIn = session.signedIn().find((entry) => entry.environmentId === environment.id);
      return {
        environment: { id: environment.id, name: environment.name, kind: environment.kind, origin },
        client: signedIn?.client ?? null,
      };
    },
    alerts: (environmentId) => monitor.state(environmentId).alerts,
    logLines: () => recentLogLines(options.logDir),
    app: () => ({
      name: APP_NAME,
      version: options.version,
      host: options.host,
      platform: process.platform,
      arch: process.arch,
      versions: Object.fromEntries(
        ['node', 'electron', 'chrome', 'v8']
          .filter((name) => process.versions[name] !== undefined)
          .map((name) => [name, process.versions[name]!]),
      ),
      language: language.effective(),
    }),
    ...(options.saveSupportBundle && { save: options.saveSupportBundle }),
    now,
    t: () => language.translator(),
  });

  const openPrintWindow = options.openPrintWindow;
  const reportPrinter = openPrintWindow
    ? createReportPrinter({
        open: openPrintWindow,
        newToken: () => crypto.randomUUID(),
        // Never what keeps the app running, as the schedule's own timer.
        setTimeout: (run, ms) => setTimeout(run, ms).unref(),
        clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
        log,
      })
    : undefined;
  const reportSchedule = createReportScheduleService({
    ...reportScheduleHostDeps(options.dataDir, () => {
      const environment = environments.active();
      const signedIn = session.signedIn().find((entry) => entry.environmentId === environment.id);
      return {
        name: environment.name,
        client: signedIn?.client ?? null,
        alerts: monitor.state(environment.id).alerts,
      };
    }),
    ...(reportPrinter && { renderPdf: reportPrinter.render }),
    now,
    t: () => language.translator(),
    log,
  });
  // Desktop only; a run missed while signed out is written at the next check after sign-in.
  const stopScheduleOnSignIn = options.chooseFolder
    ? events.on('session.changed', () => void reportSchedule.check())
    : () => {};
  if (options.chooseFolder) reportSchedule.start();
  const scheduleState = () =>
    options.chooseFolder ? reportSchedule.state() : { ...reportSchedule.state(), available: false };

  // Restoring a remembered session may wait for a remote server: handlers that need the session
  // wait for it, startup does not.
  let activation: Promise<unknown> = session.activate(environments.active()).catch((error) => {
    log.warn('Could not activate the environment at startup', { error: describe(error) });
  });
  const activated = async () => {
    await activation;
  };
  async function activate(environment: Environment) {
    const next = session.activate(environment);
    activation = next.catch(() => {});
    return next;
  }

  // Not awaited: the sign-in screen shows "Starting…" meanwhile, and other environments work.
  // One the user stopped stays stopped until started again (the sign-in screen offers Start).
  if (sandboxChoice.stoppedByUser()) log.info('Local sandbox: left stopped, as the user chose');
  else
    void localSandbox.start().then(
      (state) => {
        if (state.status === 'failed') log.error('Local sandbox failed to start');
      },
      (error: unknown) => log.error('Local sandbox could not start', { error: describe(error) }),
    );

  // Said once per launch rather than once per install: without a keychain the password is asked
  // at every launch, so every launch deserves the reason. The keychain is asked once the host has
  // its handlers and has subscribed (right after startPlantDesk resolves); a page loaded later
  // reads `app.info`.
  setImmediate(() => {
    void keychainStatus().then((status) => {
      if (!status.available) events.emit('keychain.unavailable', status);
    });
  });

  const inFlight = new Map<string, AbortController>();

  /** Our documentation and the administrator's servers: nothing the renderer can add. */
  const allowedExternalHosts = new Set(
    [
      ...(options.externalAllowList ?? DOCS_HOSTS),
      ...environments
        .administratorDefaults()
        .filter((entry) => entry.baseUrl.startsWith('https:'))
        .map((entry) => new URL(entry.baseUrl).hostname),
    ].map((host) => host.toLowerCase()),
  );

  /** A production environment moving to another server needs the user's word, not the page's. */
  async function confirmMove(id: string, nextUrl: string): Promise<void> {
    const current = environments.get(id);
    const from = credentialOrigin(current);
    const to = credentialOrigin({ kind: current.kind, baseUrl: nextUrl });
    if (current.kind !== 'production' || from === to) return;
    if (!options.confirmAddressChange) {
      throw new HostError(
        'forbidden',
        say('host.errors.addressOnlyInDesktop', { environment: current.name }),
      );
    }
    if (!(await options.confirmAddressChange({ name: current.name, from, to }))) {
      throw new HostError(
        'cancelled',
        say('host.errors.addressKept', { environment: current.name }),
      );
    }
  }

  async function keychainStatus(): Promise<KeychainStatus> {
    const status = await secrets.status();
    return status.message === KEYCHAIN_UNAVAILABLE_MESSAGE
      ? { ...status, message: say('host.keychainUnavailable') }
      : status;
  }

  const handlers: ChannelHandlers = {
    async 'app.info'(): Promise<AppInfo> {
      return {
        name: APP_NAME,
        version: options.version,
        host: options.host,
        keychain: await keychainStatus(),
        now: now().getTime(),
        language: language.state(),
      };
    },
    async 'app.setLanguage'(locale) {
      return language.choose(locale);
    },

    async 'environments.list'() {
      return environments.list();
    },
    async 'environments.add'(input) {
      return environments.add(input);
    },
    async 'environments.update'(id, input) {
      await confirmMove(id, input.baseUrl);
      const updated = environments.update(id, input);
      await session.environmentChanged(updated);
      return updated;
    },
    async 'environments.remove'(id) {
      const removed = environments.get(id);
      const wasActive = environments.list().activeId === id;
      environments.remove(id);
      await session.forgetEnvironment(removed);
      monitor.forget(id);
      acceptance.forget(id);
      // The store falls back to the Local sandbox; the session follows.
      if (wasActive) await activate(environments.active());
    },
    async 'environments.select'(id) {
      await activated();
      return activate(environments.select(id));
    },
    async 'environments.testConnection'(url) {
      return testConnection(
        url,
        options.connectionTestTimeoutMs ?? DEFAULT_CONNECTION_TEST_TIMEOUT_MS,
        language.translator(),
        transport,
      );
    },

    async 'localSandbox.state'() {
      return localSandbox.state();
    },
    async 'localSandbox.start'() {
      sandboxChoice.remember(false);
      return localSandbox.start();
    },
    async 'localSandbox.stop'() {
      sandboxChoice.remember(true);
      await localSandbox.stop();
      return localSandbox.state();
    },
    async 'localSandbox.restart'() {
      sandboxChoice.remember(false);
      return localSandbox.restart();
    },

    async 'session.state'() {
      await activated();
      return session.state();
    },
    async 'session.signIn'(input) {
      await activated();
      return session.signIn(input);
    },
    async 'session.signOut'() {
      await activated();
      return session.signOut();
    },
    async 'session.refreshUser'() {
      await activated();
      return session.refreshUser();
    },

    async 'api.call'(...args) {
      const [route, input, callOptions] = args;
      // Sign-in, token refresh and logout answer or take tokens: only the session calls them.
      if (routes[route].auth !== 'access') {
        throw new HostError(
          'forbidden',
          `'${route}' is reserved to the session; use session.signIn or session.signOut`,
        );
      }
      const requestId = callOptions?.requestId;
      const controller = new AbortController();
      // Registered before any wait, so that a cancel sent right after the call finds it.
      if (requestId !== undefined) {
        // Reusing an id replaces the call (a newer search supersedes the one still running).
        inFlight.get(requestId)?.abort();
        inFlight.set(requestId, controller);
      }
      try {
        await activated();
        return await session.api().call(route as RouteId, input as RouteInput<RouteId>, {
          signal: controller.signal,
          timeoutMs: callOptions?.timeoutMs,
        });
      } finally {
        if (requestId !== undefined && inFlight.get(requestId) === controller) {
          inFlight.delete(requestId);
        }
      }
    },
    async 'api.cancel'(requestId) {
      inFlight.get(requestId)?.abort();
      inFlight.delete(requestId);
    },

    async 'report.savePdf'({ suggestedName }) {
      if (!options.savePdf) {
        throw new HostError('invalidArguments', say('host.errors.pdfNeedsDesktop'));
      }
      const name = suggestedName.toLowerCase().endsWith('.pdf')
        ? suggestedName
        : `${suggestedName}.pdf`;
      return options.savePdf(name);
    },

    async 'alerts.state'() {
      await activated();
      return monitor.state(environments.list().activeId);
    },
    async 'alerts.acknowledge'({ alertId, note }) {
      await activated();
      const { environmentId, email } = actor();
      try {
        return monitor.acknowledge(environmentId, alertId, email, note);
      } catch (error) {
        if (error instanceof UnknownAlertError)
          throw new HostError('invalidArguments', error.message);
        throw error;
      }
    },
    async 'alerts.mute'(input) {
      await activated();
      const { environmentId, email } = actor();
      if (Date.parse(input.until) <= now().getTime()) {
        throw new HostError('invalidArguments', say('host.errors.muteInPast'));
      }
      return monitor.mute(environmentId, input, email);
    },
    async 'alerts.unmute'({ plantUuid, rule }) {
      await activated();
      const { environmentId } = actor();
      return monitor.unmute(environmentId, plantUuid, rule);
    },
    async 'alerts.updateSettings'(settings) {
      const activeId = environments.list().activeId;
      monitor.state(activeId); // loaded, so that the change is announced for it too
      monitor.updateSettings(settings);
      return monitor.state(activeId);
    },
    async 'alerts.checkNow'() {
      await activated();
      const { environmentId } = actor();
      await monitor.check(environmentId);
      return monitor.state(environmentId);
    },

    async 'drafts.list'() {
      await activated();
      return drafts.list();
    },
    async 'drafts.get'(draftId) {
      await activated();
      return drafts.get(draftId);
    },
    async 'drafts.save'(input) {
      await activated();
      return drafts.save(input);
    },
    async 'drafts.delete'(draftId) {
      await activated();
      const removeNotes = notes.removal({ draftId });
      drafts.remove(draftId);
      removeNotes();
    },
    async 'drafts.send'(...args) {
      const [draftId, input] = args;
      await activated();
      const result = await drafts.send(draftId, input);
      // The wizard goes on with the plant: the installer's notes go with it.
      const plantUuid = result.draft.sent.plantUuid;
      if (plantUuid) notes.adopt({ draftId }, { plantUuid });
      return result;
    },

    async 'commissioningNotes.get'(subject) {
      await activated();
      return notes.get(subject);
    },
    async 'commissioningNotes.setText'(subject, step, text) {
      await activated();
      return notes.setText(subject, step, text);
    },
    async 'commissioningNotes.addPhoto'(subject, step, photo) {
      await activated();
      return notes.addPhoto(subject, step, photo);
    },
    async 'commissioningNotes.removePhoto'(subject, step, photoId) {
      await activated();
      return notes.removePhoto(subject, step, photoId);
    },

    async 'acceptance.commissioned'(input) {
      await activated();
      return acceptance.commissioned(actor().environmentId, input);
    },
    async 'acceptance.get'(plantUuid) {
      await activated();
      return acceptance.get(environments.list().activeId, plantUuid);
    },

    async 'comparison.compare'(input) {
      await activated();
      return comparison.compare(input);
    },
    async 'comparison.signIn'(environmentId, input) {
      await activated();
      return comparison.signIn(environmentId, input);
    },
    async 'supportBundle.prepare'(input) {
      await activated();
      return supportBundle.prepare(input);
    },
    async 'supportBundle.save'({ bundleId }) {
      return supportBundle.save(bundleId);
    },
    async 'supportBundle.download'({ bundleId }) {
      return supportBundle.download(bundleId);
    },

    async 'reports.schedule'() {
      return scheduleState();
    },
    async 'reports.updateSchedule'(input) {
      if (!options.chooseFolder)
        throw new HostError('invalidArguments', say('host.errors.scheduleNeedsDesktop'));
      const state = reportSchedule.update(input);
      void reportSchedule.check();
      return state;
    },
    async 'reports.chooseFolder'() {
      if (!options.chooseFolder)
        throw new HostError('invalidArguments', say('host.errors.scheduleNeedsDesktop'));
      const folder = await options.chooseFolder();
      return folder === null ? reportSchedule.state() : reportSchedule.setFolder(folder);
    },

    async 'reports.printReady'(signal) {
      if (!reportPrinter)
        throw new HostError('invalidArguments', say('host.errors.scheduleNeedsDesktop'));
      reportPrinter.ready(signal);
    },
    async 'reports.preparedReport'({ token }) {
      const prepared = reportPrinter?.prepared(token);
      if (!prepared) throw new HostError('invalidArguments', say('host.errors.noPreparedReport'));
      return prepared;
    },

    async 'proxyAuth.answer'(requestId, answer) {
      return proxyPrompt.answer(requestId, answer);
    },

    async 'shell.openExternal'(url) {
      const target = new URL(url);
      if (
        target.protocol !== 'https:' ||
        !allowedExternalHosts.has(target.hostname.toLowerCase())
      ) {
        log.warn('Refused to open an address that is not on the allow-list', {
          host: target.hostname,
        });
        throw new HostError(
          'forbidden',
          say('host.errors.linkNotAllowed', { host: target.hostname }),
        );
      }
      // Checked above: https only, and the host is on the allow-list.
      await options.openExternal(target.href); // eng-disable OPEN_EXTERNAL_JS_CHECK
    },
  };

  let disposed: Promise<void> | undefined;
  async function dispose(): Promise<void> {
    stopFollowingSandbox();
    stopWatchingSignIns();
    stopScheduleOnSignIn();
    reportSchedule.stop();
    monitor.dispose();
    acceptance.dispose();
    for (const controller of inFlight.values()) controller.abort();
    inFlight.clear();
    session.dispose();
    await localSandbox.stop();
  }

  return {
    handlers,
    events,
    monitor,
    language,
    dispose: () => (disposed ??= dispose()),
  };
}

/**
 * Is a Plant Energy API at this address? Asks `/auth/me` without a token, at the address given
 * and nowhere else (no redirect followed), and reads nothing but the status: the API answers 401
 * to a request without a token. The body is never read, so the test cannot be used to fetch
 * what some other server at that address would show. Never sends a credential.
 */
export async function testConnection(
  baseUrl: string,
  timeoutMs = DEFAULT_CONNECTION_TEST_TIMEOUT_MS,
  t: Translate = ENGLISH,
  transport: FetchTransport = createNodeTransport(),
): Promise<ConnectionTestResult> {
  let url: string;
  try {
    const given = new URL(baseUrl);
    if (given.username || given.password || given.search || given.hash) {
      return { ok: false, message: t('host.connection.addressOnly') };
    }
    url = joinUrl(baseUrl, '/auth/me');
  } catch (error) {
    return { ok: false, message: describe(error) };
  }
  const started = performance.now();
  const signal = AbortSignal.timeout(timeoutMs);
  // A redirect whose status the stack hides (net.fetch) is still a redirect.
  let status: number | '3xx';
  try {
    // The transport of the API calls, so that the test goes where they go (the same proxy).
    const response = await transport(url, {
      method: 'GET',
      headers: { accept: 'application/json' },
      signal,
      // A redirect (to a sign-in page, say) means something else answers here.
      redirect: 'manual',
    });
    status = response.type === 'opaqueredirect' ? '3xx' : response.status;
    await response.body?.cancel().catch(() => {});
  } catch (error) {
    if (error instanceof RedirectRefused) {
      return { ok: false, message: t('host.connection.notTheApi', { status: '3xx' }) };
    }
    if (signal.aborted) {
      const duration = formatDuration(localeOf(t), timeoutMs);
      return { ok: false, message: t('host.connection.noAnswer', { duration }) };
    }
    const code = failureCode(error);
    if (code !== undefined && PROXY_CODES.has(code)) {
      return { ok: false, message: proxyRefusal(displayBaseUrl(baseUrl), code, t) };
    }
    return {
      ok: false,
      message: t('host.connection.unreachable', { reason: code ?? describe(error) }),
    };
  }
  const latencyMs = Math.round(performance.now() - started);
  if (status === 401) {
    return {
      ok: true,
      message: t('host.connection.reachable', { ms: latencyMs }),
      latencyMs,
    };
  }
  return {
    ok: false,
    message: t('host.connection.notTheApi', { status }),
    latencyMs,
  };
}
