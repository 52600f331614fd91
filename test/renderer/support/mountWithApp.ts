import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { afterEach } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import PrimeVue from 'primevue/config';
import ConfirmationService from 'primevue/confirmationservice';
import ToastService from 'primevue/toastservice';
import Tooltip from 'primevue/tooltip';
import { createApp, defineComponent, h, type Component } from 'vue';
import {
  createMemoryHistory,
  createRouter,
  RouterView,
  type Router,
  type RouteRecordRaw,
} from 'vue-router';
import { ALL_PERMISSIONS } from '../../../api/permissions.ts';
import type { RouteId } from '../../../api/routes.ts';
import type { CurrentUser } from '../../../api/schemas/auth.ts';
import type {
  ApiCallOptions,
  AppInfo,
  ChannelName,
  Envelope,
  Environment,
  EnvironmentList,
  EventName,
  Events,
  LocalSandboxState,
  SerializedError,
  SessionState,
} from '../../../electron/ipc/contract.ts';
import {
  createBridge,
  PlantDeskError,
  provideBridgeForTests,
  type Transport,
} from '../../../renderer/src/bridge.ts';
import { acrossTheBridge } from './acrossTheBridge.ts';
import { useEnvironmentStore } from '../../../renderer/src/stores/useEnvironmentStore.ts';
import { useSessionStore } from '../../../renderer/src/stores/useSessionStore.ts';

/**
 * Mounts a renderer component the way the app runs it — Pinia, the app's own route table (with
 * stand-in components, in memory history), PrimeVue with ToastService, ConfirmationService and
 * the Tooltip directive — over a fake host that answers by route and by channel and records
 * every call.
 *
 *   const { wrapper, calls, emit, router } = await mountWithApp(PlantsView, {
 *     routes: { listPlants: page([plant]) , deletePlant: apiError(403, 'Permission PLANTS DELETE required') },
 *     user: { permissions: ['PLANTS READ'] },
 *     route: '/plants',
 *   });
 *
 * An answer is a value, a PlantDeskError-like object (`apiError(...)`, `networkError()` or any
 * `{ kind, message }`), or a function of the call's input (route: `{ params, query, body }`;
 * channel: its argument list) returning either, possibly async; a function that throws fails
 * the call with that error. A route without an answer fails with kind 'internal' and a message
 * naming the route, so a missing answer is obvious in the test output — except the freshness
 * extension (`listSensorStatuses`), which answers 404 like a server without it unless given.
 */

/** What a route or channel answers: a value, an error, or a function of the input. */
export type Answer = unknown;

export type RouteAnswers = Partial<Record<RouteId, Answer>>;
export type ChannelAnswers = Partial<Record<Exclude<ChannelName, 'api.call'>, Answer>>;

export interface RecordedCall {
  channel: ChannelName;
  /** The whole argument list as it would cross the bridge. */
  args: unknown[];
  /** For `api.call`: the route, its `{ params, query, body }` and options. */
  route?: RouteId;
  /** `any`: tests read the body they assert on, like a JSON answer. */
  input?: { params?: Record<string, string>; query?: Record<string, any>; body?: any };
  options?: ApiCallOptions;
}

export interface MountWithAppOptions {
  props?: Record<string, unknown>;
  slots?: Record<string, unknown>;
  /** Answers of `api.call`, by route id. */
  routes?: RouteAnswers;
  /** Answers of the other channels; defaults cover app.info, environments, session, sandbox. */
  channels?: ChannelAnswers;
  /**
   * The signed-in user (merged over an installer with every permission), or `null` for signed
   * out. `{ permissions: [...] }` is enough for permission tests.
   */
  user?: Partial<CurrentUser> | null;
  /** The active environment, merged over the Local sandbox (e.g. `{ kind: 'production', name: 'Acme' }`). */
  environment?: Partial<Environment>;
  /** More configured environments, listed after the active one. */
  otherEnvironments?: Environment[];
  /** Initial path of the router, e.g. '/plants/<uuid>/devices'. Default '/plants'. */
  route?: string;
  /** Extra stubs for @vue/test-utils; Teleport is stubbed by default so dialogs render inline. */
  stubs?: Record<string, unknown>;
  /** Render PrimeVue teleports into document.body instead of inline. */
  teleport?: boolean;
  /** Passed to @vue/test-utils (e.g. `document.body` for focus and keyboard tests). */
  attachTo?: Element | string;
}

export interface MountedApp<C extends Component = Component> {
  wrapper: VueWrapper<InstanceType<C extends new (...args: never[]) => unknown ? C : never>>;
  /** Every call made after mounting started (the defaults' preloading is not recorded). */
  calls: RecordedCall[];
  /** Route calls only, for a given route id. */
  callsTo(route: RouteId): RecordedCall[];
  /** Delivers a host event to the app's listeners. */
  emit<E extends EventName>(event: E, payload: Events[E]): void;
  router: Router;
  /** Mutable: replace an answer mid-test (`routes.listPlants = page([])`). */
  routes: RouteAnswers;
  channels: ChannelAnswers;
  /** `flushPromises` twice: lets chained awaits (call → store → render) settle. */
  settle(): Promise<void>;
}

// ── Answer builders ─────────────────────────────────────────────────────────────────────────

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  422: 'Unprocessable Entity',
  500: 'Internal Server Error',
};

/** The server answered an error status: what `bridge.call` rejects with. */
export function apiError(status: number, message: string, path = '/'): SerializedError {
  return { kind: 'api', status, error: STATUS_TEXT[status] ?? 'Error', message, path };
}

/** The server could not be reached. */
export function networkError(message = 'The server is not reachable'): SerializedError {
  return { kind: 'network', message };
}

/** A page as list routes answer it. */
export function page<Row>(content: Row[], totalElements = content.length, size = 20, number = 0) {
  return {
    content,
    page: { number, size, totalElements, totalPages: Math.ceil(totalElements / size) },
  };
}

// ── Defaults ────────────────────────────────────────────────────────────────────────────────

export const TEST_USER: CurrentUser = {
  userUuid: '00000000-0000-4000-8000-000000000001',
  email: 'installer@plantdesk.test',
  displayName: 'Ines Installer',
  organizationUuid: '00000000-0000-4000-8000-0000000000aa',
  organizationName: 'Demo Solar',
  permissions: [...ALL_PERMISSIONS],
};

export const LOCAL_ENVIRONMENT: Environment = {
  id: 'local',
  name: 'Local sandbox',
  kind: 'local',
  baseUrl: 'http://127.0.0.1:4010',
  source: 'builtin',
};

/** Every kind an error crossing the bridge may have (a new kind fails to compile here). */
const SERIALIZED_KINDS: ReadonlySet<string> = new Set(
  Object.keys({
    api: true,
    network: true,
    proxy: true,
    timeout: true,
    cancelled: true,
    invalidResponse: true,
    signedOut: true,
    invalidArguments: true,
    forbidden: true,
    internal: true,
  } satisfies Record<SerializedError['kind'], true>),
);

function asSerializedError(value: unknown): SerializedError | null {
  if (value instanceof PlantDeskError) {
    return {
      kind: value.kind,
      message: value.message,
      status: value.status,
      error: value.error,
      path: value.path,
    };
  }
  if (
    typeof value === 'object' &&
    value !== null &&
    'kind' in value &&
    'message' in value &&
    typeof value.message === 'string' &&
    SERIALIZED_KINDS.has(value.kind as SerializedError['kind'])
  ) {
    return value as SerializedError;
  }
  if (value instanceof Error) return { kind: 'internal', message: value.message };
  return null;
}

async function envelopeOf(answer: Answer, input: unknown): Promise<Envelope<unknown>> {
  let value: unknown;
  try {
    value =
      typeof answer === 'function' ? await (answer as (i: unknown) => unknown)(input) : answer;
  } catch (caught) {
    return {
      ok: false,
      error: asSerializedError(caught) ?? { kind: 'internal', message: String(caught) },
    };
  }
  const error = asSerializedError(value);
  if (error) return { ok: false, error };
  // Plain JSON crosses the bridge: callers must not share objects with the test's fixtures.
  return { ok: true, value: value === undefined ? undefined : structuredClone(value) };
}

/** What every route renders in tests: only its child routes (the component under test is mounted on its own). */
const RouteStandIn = defineComponent({
  name: 'RouteStandIn',
  inheritAttrs: false,
  render: () => h(RouterView),
});

/** The app's route table with every component replaced by a stand-in that renders its children. */
function stubRoutes(records: readonly RouteRecordRaw[]): RouteRecordRaw[] {
  return records.map((record) => {
    const copy = { ...record } as RouteRecordRaw & {
      component?: unknown;
      components?: unknown;
      children?: RouteRecordRaw[];
    };
    if ('component' in copy && copy.component) copy.component = RouteStandIn;
    if ('components' in copy && copy.components) copy.components = { default: RouteStandIn };
    if (copy.children) copy.children = stubRoutes(copy.children);
    return copy as RouteRecordRaw;
  });
}

/**
 * The app's route table (router.ts). While some lazily imported view does not exist yet (views are
 * written in parallel), router.ts cannot be transformed; this mirror of its names, paths and meta
 * stands in until then.
 */
const MIRRORED_ROUTES: RouteRecordRaw[] = (() => {
  const view = RouteStandIn;
  return [
    { path: '/', redirect: { name: 'fleet' } },
    { path: '/sign-in', name: 'signIn', component: view, meta: { public: true } },
    {
      path: '/fleet',
      name: 'fleet',
      component: view,
      meta: { breadcrumb: 'Fleet', section: 'fleet' },
    },
    {
      path: '/alerts',
      name: 'alerts',
      component: view,
      meta: { breadcrumb: 'Alerts', section: 'alerts' },
    },
    {
      path: '/plants',
      meta: { breadcrumb: 'Plants', section: 'plants' },
      children: [
        { path: '', name: 'plants', component: view },
        { path: 'new', name: 'plantNew', component: view, meta: { breadcrumb: 'New plant' } },
        {
          path: ':plantUuid',
          component: view,
          props: true,
          meta: { breadcrumb: 'plant' },
          children: [
            { path: '', name: 'plant', component: view, props: true },
            { path: 'edit', name: 'plantEdit', component: view, meta: { breadcrumb: 'Edit' } },
            {
              path: 'devices',
              name: 'plantDevices',
              component: view,
              meta: { breadcrumb: 'Devices' },
            },
            {
              path: 'sensors',
              name: 'plantSensors',
              component: view,
              meta: { breadcrumb: 'Sensors' },
            },
            {
              path: 'vendors',
              name: 'plantVendors',
              component: view,
              meta: { breadcrumb: 'Vendors' },
            },
          ],
        },
      ],
    },
    {
      path: '/commission/:plantUuid?/:step?',
      name: 'commission',
      component: view,
      props: true,
      meta: { breadcrumb: 'Commissioning', section: 'commission' },
    },
    {
      path: '/catalogs',
      component: view,
      meta: { breadcrumb: 'Catalogs', section: 'catalogs' },
      children: [
        { path: '', name: 'catalogs', redirect: { name: 'sensorTypes' } },
        {
          path: 'sensor-types',
          name: 'sensorTypes',
          component: view,
          meta: { breadcrumb: 'Sensor types' },
        },
        {
          path: 'device-types',
          name: 'deviceTypes',
          component: view,
          meta: { breadcrumb: 'Device types' },
        },
        {
          path: 'load-signatures',
          name: 'loadSignatures',
          component: view,
          meta: { breadcrumb: 'Load signatures' },
        },
        {
          path: 'data-types',
          name: 'dataTypesCollects',
          component: view,
          meta: { breadcrumb: 'Data types' },
        },
      ],
    },
    {
      path: '/environments',
      name: 'environments',
      component: view,
      meta: { breadcrumb: 'Environments', section: 'environments', public: true },
    },
    { path: '/:unknown(.*)*', redirect: { name: 'fleet' } },
  ];
})();

let appRoutes: Promise<RouteRecordRaw[]> | undefined;

/** router.ts's own table (components replaced), or the mirror while it cannot be loaded. */
function loadAppRoutes(): Promise<RouteRecordRaw[]> {
  appRoutes ??= import('../../../renderer/src/router.ts').then(
    (module) => stubRoutes(module.createAppRouter().options.routes),
    () => MIRRORED_ROUTES,
  );
  return appRoutes;
}

// Every mounted app is unmounted after its test: document listeners (dialogs, tooltips) and
// teleported nodes of one test do not reach the next.
const mounted: VueWrapper[] = [];
afterEach(() => {
  for (const wrapper of mounted.splice(0)) {
    try {
      wrapper.unmount();
    } catch {
      // Already unmounted by the test.
    }
  }
});

// ── Mounting ────────────────────────────────────────────────────────────────────────────────

export async function mountWithApp<C extends Component>(
  component: C,
  options: MountWithAppOptions = {},
): Promise<MountedApp<C>> {
  const user: CurrentUser | null =
    options.user === null ? null : { ...TEST_USER, ...(options.user ?? {}) };
  const active: Environment = { ...LOCAL_ENVIRONMENT, ...(options.environment ?? {}) };
  const environmentList: EnvironmentList = {
    environments: [
      ...(active.id === LOCAL_ENVIRONMENT.id ? [] : [LOCAL_ENVIRONMENT]),
      active,
      ...(options.otherEnvironments ?? []),
    ],
    activeId: active.id,
  };
  const sessionState: SessionState = user
    ? { environmentId: active.id, status: 'signedIn', user }
    : { environmentId: active.id, status: 'signedOut' };
  const sandbox: LocalSandboxState = {
    status: 'running',
    url: LOCAL_ENVIRONMENT.baseUrl,
    restarts: 0,
  };
  const info: AppInfo = {
    name: 'PlantDesk',
    version: '0.0.0-test',
    host: 'web',
    keychain: { available: true },
    // Component tests never follow the host's clock (main.ts does); any instant serves.
    now: Date.parse('2026-06-21T10:00:00Z'),
    language: { chosen: null, system: 'en' },
  };

  const routes: RouteAnswers = {
    // Screens that show freshness ask for it; by default the server lacks the extension.
    listSensorStatuses: apiError(404, 'No route for GET /plants/{plantUuid}/sensor-statuses'),
    ...(options.routes ?? {}),
  };
  const channels: ChannelAnswers = {
    'app.info': info,
    'environments.list': environmentList,
    'localSandbox.state': sandbox,
    'session.state': sessionState,
    'session.refreshUser': sessionState,
    'session.signOut': { environmentId: active.id, status: 'signedOut' },
    'api.cancel': undefined,
    // The commissioning wizard reads the installer's notes on every step.
    'commissioningNotes.get': { steps: {}, updatedAt: null },
    ...(options.channels ?? {}),
  };

  const calls: RecordedCall[] = [];
  let recording = false;
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>();

  const transport: Transport = {
    async request(channel, given) {
      const args = acrossTheBridge(channel, given);
      if (channel === 'api.call') {
        const [route, input, callOptions] = args as [
          RouteId,
          RecordedCall['input'],
          ApiCallOptions?,
        ];
        if (recording) calls.push({ channel, args, route, input, options: callOptions });
        if (!(route in routes)) {
          return {
            ok: false,
            error: { kind: 'internal', message: `mountWithApp: no answer for route '${route}'` },
          };
        }
        return envelopeOf(routes[route], input);
      }
      if (recording) calls.push({ channel, args });
      if (!(channel in channels)) {
        return {
          ok: false,
          error: { kind: 'internal', message: `mountWithApp: no answer for channel '${channel}'` },
        };
      }
      return envelopeOf(channels[channel as keyof ChannelAnswers], args);
    },
    on(event, listener) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener);
      return () => set.delete(listener);
    },
  };
  provideBridgeForTests(createBridge(transport));

  const pinia = createPinia();
  const router = createRouter({
    history: createMemoryHistory(),
    routes: await loadAppRoutes(),
  });

  // Stores that need the router (useRouter inside a setup store) run inside the app's context;
  // a throwaway app gives them that before the real mount, so the preloading below can run.
  const host = createApp(RouteStandIn);
  host.use(pinia).use(router);
  setActivePinia(pinia);
  await host.runWithContext(async () => {
    const session = useSessionStore();
    const environments = useEnvironmentStore();
    await Promise.all([session.load(), environments.load()]);
  });

  await router.push(options.route ?? '/plants');
  await router.isReady();

  recording = true;
  const wrapper = mount(component, {
    props: options.props as never,
    slots: options.slots as never,
    attachTo: options.attachTo,
    global: {
      plugins: [pinia, router, [PrimeVue, { theme: 'none' }], ToastService, ConfirmationService],
      directives: { tooltip: Tooltip },
      stubs: { ...(options.teleport ? {} : { teleport: true }), ...(options.stubs ?? {}) },
    },
  }) as MountedApp<C>['wrapper'];
  mounted.push(wrapper as unknown as VueWrapper);
  await flushPromises();

  return {
    wrapper,
    calls,
    callsTo: (route) => calls.filter((call) => call.route === route),
    emit(event, payload) {
      for (const listener of [...(listeners.get(event) ?? [])]) listener(payload);
    },
    router,
    routes,
    channels,
    async settle() {
      await flushPromises();
      await flushPromises();
    },
  };
}
