import { createRouter, createWebHashHistory, type RouteRecordRaw } from 'vue-router';
import SignInView from './views/SignInView.vue';

/**
 * Hash history: the page is one static file (app:// in Electron, the web host in browser mode),
 * so only the part after `#` may change. Every screen has a deep link.
 *
 * `meta.breadcrumb`: the crumb's label as a message key (translated when shown); `'plant'` shows the name of the plant in the path.
 * `meta.section`: which navigation entry is current.
 */
const routes: RouteRecordRaw[] = [
  { path: '/', redirect: { name: 'fleet' } },
  { path: '/sign-in', name: 'signIn', component: SignInView, meta: { public: true } },
  {
    // The home screen of a signed-in environment: every plant at a glance, worst first.
    path: '/fleet',
    name: 'fleet',
    component: () => import('./views/FleetView.vue'),
    meta: { breadcrumb: 'shell.breadcrumbs.fleet', section: 'fleet' },
  },
  {
    path: '/alerts',
    name: 'alerts',
    component: () => import('./views/AlertsView.vue'),
    meta: { breadcrumb: 'shell.breadcrumbs.alerts', section: 'alerts' },
  },
  {
    path: '/plants',
    meta: { breadcrumb: 'shell.breadcrumbs.plants', section: 'plants' },
    children: [
      { path: '', name: 'plants', component: () => import('./views/PlantsView.vue') },
      {
        path: 'new',
        name: 'plantNew',
        component: () => import('./views/PlantFormView.vue'),
        meta: { breadcrumb: 'shell.breadcrumbs.newPlant' },
      },
      {
        path: ':plantUuid',
        component: () => import('./views/PlantView.vue'),
        props: true,
        meta: { breadcrumb: 'plant' },
        children: [
          {
            path: '',
            name: 'plant',
            component: () => import('./views/PlantOverviewView.vue'),
            props: true,
          },
          {
            path: 'dashboard',
            name: 'plantDashboard',
            component: () => import('./views/PlantDashboardView.vue'),
            props: true,
            meta: { breadcrumb: 'shell.breadcrumbs.dashboard' },
          },
          {
            // Range summary, sensor history and forecasts; the view keeps its choices (range,
            // granularity, comparison) in the query, so a link reopens the same chart.
            path: 'analytics/:tab(summary|history|forecasts)?',
            name: 'plantAnalytics',
            component: () => import('./views/PlantAnalyticsView.vue'),
            props: true,
            meta: { breadcrumb: 'shell.breadcrumbs.analytics' },
          },
          {
            path: 'data-health',
            name: 'plantDataHealth',
            component: () => import('./views/PlantDataHealthView.vue'),
            props: true,
            meta: { breadcrumb: 'shell.breadcrumbs.dataHealth' },
          },
          {
            path: 'edit',
            name: 'plantEdit',
            component: () => import('./views/PlantFormView.vue'),
            props: true,
            meta: { breadcrumb: 'shell.breadcrumbs.edit' },
          },
          {
            path: 'devices',
            name: 'plantDevices',
            component: () => import('./views/PlantDevicesView.vue'),
            props: true,
            meta: { breadcrumb: 'shell.breadcrumbs.devices' },
          },
          {
            path: 'sensors',
            name: 'plantSensors',
            component: () => import('./views/PlantSensorsView.vue'),
            props: true,
            meta: { breadcrumb: 'shell.breadcrumbs.sensors' },
          },
          {
            path: 'vendors',
            name: 'plantVendors',
            component: () => import('./views/PlantVendorsView.vue'),
            props: true,
            meta: { breadcrumb: 'shell.breadcrumbs.vendors' },
          },
          {
            path: 'reports',
            name: 'plantReports',
            component: () => import('./views/ReportsView.vue'),
            props: true,
            meta: { breadcrumb: 'reports.title' },
          },
          {
            path: 'compare',
            name: 'plantComparison',
            component: () => import('./views/EnvironmentComparisonView.vue'),
            props: true,
            meta: { breadcrumb: 'comparison.breadcrumb' },
          },
        ],
      },
    ],
  },
  {
    // A commissioning kept as a local draft while the server cannot be reached ('new': a new one).
    path: '/commission/draft/:draftId/:step?',
    name: 'commissionDraft',
    component: () => import('./views/CommissioningDraftView.vue'),
    props: true,
    meta: { breadcrumb: 'shell.breadcrumbs.draft', section: 'commission', drafts: true },
  },
  {
    // The drafts alone: what is reachable before signing in, when the server cannot be reached.
    path: '/drafts',
    name: 'drafts',
    component: () => import('./views/DraftsView.vue'),
    meta: { breadcrumb: 'shell.breadcrumbs.drafts', section: 'commission', drafts: true },
  },
  {
    // A new plant from nothing, or a plant's commissioning resumed at a step.
    path: '/commission/:plantUuid?/:step?',
    name: 'commission',
    component: () => import('./views/CommissioningView.vue'),
    props: true,
    meta: { breadcrumb: 'shell.breadcrumbs.commission', section: 'commission' },
  },
  {
    path: '/catalogs',
    component: () => import('./views/CatalogsView.vue'),
    meta: { breadcrumb: 'shell.breadcrumbs.catalogs', section: 'catalogs' },
    children: [
      { path: '', name: 'catalogs', redirect: { name: 'sensorTypes' } },
      {
        path: 'sensor-types',
        name: 'sensorTypes',
        component: () => import('./views/SensorTypesView.vue'),
        meta: { breadcrumb: 'shell.breadcrumbs.sensorTypes' },
      },
      {
        path: 'device-types',
        name: 'deviceTypes',
        component: () => import('./views/DeviceTypesView.vue'),
        meta: { breadcrumb: 'shell.breadcrumbs.deviceTypes' },
      },
      {
        path: 'load-signatures',
        name: 'loadSignatures',
        component: () => import('./views/LoadSignaturesView.vue'),
        meta: { breadcrumb: 'shell.breadcrumbs.loadSignatures' },
      },
      {
        path: 'data-types',
        name: 'dataTypesCollects',
        component: () => import('./views/DataTypesCollectsView.vue'),
        meta: { breadcrumb: 'shell.breadcrumbs.dataTypes' },
      },
    ],
  },
  {
    path: '/environments',
    name: 'environments',
    component: () => import('./views/EnvironmentsView.vue'),
    meta: { breadcrumb: 'shell.breadcrumbs.environments', section: 'environments', public: true },
  },
  {
    // Monthly and yearly reports of a plant or the fleet, and their schedule.
    path: '/reports',
    name: 'reports',
    component: () => import('./views/ReportsView.vue'),
    meta: { breadcrumb: 'reports.title', section: 'reports' },
  },
  {
    // The desktop app's hidden print window (the schedule's PDFs): the report alone, no shell.
    path: '/reports/print',
    name: 'reportPrint',
    component: () => import('./views/ReportPrintView.vue'),
    meta: { bare: true },
  },
  {
    // Help and support: the app-wide support bundle, also before signing in.
    path: '/support',
    name: 'support',
    component: () => import('./views/SupportView.vue'),
    meta: { breadcrumb: 'shell.breadcrumbs.support', section: 'support', public: true },
  },
  { path: '/:unknown(.*)*', redirect: { name: 'fleet' } },
];

/**
 * Where a navigation may go: a screen needs a session, except the public ones and, for an
 * environment that remembers an account, the drafts' screens (the host keeps them per account).
 */
export function admits(
  meta: { public?: boolean; drafts?: boolean },
  session: { signedIn: boolean; rememberedEmail?: string },
): boolean {
  if (meta.public || session.signedIn) return true;
  return meta.drafts === true && session.rememberedEmail !== undefined;
}

export function createAppRouter() {
  return createRouter({ history: createWebHashHistory(), routes });
}

declare module 'vue-router' {
  interface RouteMeta {
    /** Reachable without a session (everything else sends to sign-in). */
    public?: boolean;
    /** Shown without the app's shell (top bar, notices): a page made to be printed. */
    bare?: boolean;
    breadcrumb?: string;
    /**
     * A commissioning draft's screen: reachable signed out too when the environment remembers an
     * account (after a restart without the server, its drafts are still that account's).
     */
    drafts?: boolean;
    section?:
      | 'fleet'
      | 'alerts'
      | 'plants'
      | 'reports'
      | 'commission'
      | 'catalogs'
      | 'environments'
      | 'support';
  }
}
