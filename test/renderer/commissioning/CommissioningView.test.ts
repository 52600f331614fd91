// @vitest-environment happy-dom
import { describe, expect, test, vi } from 'vitest';
import CommissioningView from '../../../renderer/src/views/CommissioningView.vue';
import { i18n } from '../../../renderer/src/i18n.ts';
import { mountWithApp, type RecordedCall, type RouteAnswers } from '../support/mountWithApp.ts';
import { commissionedRoof, PLANT_UUID } from './fixtures.ts';
import { sensorStatus, statusesOf } from '../sensors/statusFixtures.ts';
import {
  connectionsPass,
  mountWizard,
  pinWizardClock,
  wizardRoutes,
} from '../support/commissioningApp.ts';
import { button } from '../support/queries.ts';

/**
 * The commissioning wizard: resuming at the step the address names, moving between steps from
 * the keyboard, the verification's checklist, the report with "Save as PDF"; the plant
 * and verification steps in German.
 */

const roof = commissionedRoof();

/**
 * The app's clock in these tests: noon in Rome. Verification looks at "the last 15 minutes" and
 * the report is dated, both from it.
 */
const NOW = Date.parse('2026-06-21T10:00:00Z');

/** Raw samples of the last minutes, the latest 20 s ago, every sensor reporting. */
function freshSeries() {
  const now = Date.now();
  return {
    plantUuid: PLANT_UUID,
    timezone: 'Europe/Rome',
    unit: 'W',
    from: new Date(now - 15 * 60_000).toISOString(),
    to: new Date(now + 60_000).toISOString(),
    points: [
      { timestamp: new Date(now - 80_000).toISOString(), value: 1200, coverage: 1 },
      { timestamp: new Date(now - 20_000).toISOString(), value: 1250, coverage: 1 },
    ],
  };
}

function plantRoutes(extra: RouteAnswers = {}): RouteAnswers {
  return wizardRoutes(roof, {
    testSensorConnection: connectionsPass('2026-11-21T10:00:00Z'),
    historyProduction: () => freshSeries(),
    historyConsumption: () => freshSeries(),
    ...extra,
  });
}

const mountAt = (step: string | undefined, extra: RouteAnswers = {}, options = {}) =>
  mountWizard(step, plantRoutes(extra), options);

const stepHeading = (app: { wrapper: { find(selector: string): any } }) =>
  app.wrapper.find('h2.step-title');
const tab = (app: Awaited<ReturnType<typeof mountAt>>, label: string) =>
  app.wrapper.find(`[role="tab"][aria-label="${label}"]`);
const buttonNamed = (app: Awaited<ReturnType<typeof mountAt>>, name: string) =>
  button(app.wrapper as never, name);

pinWizardClock(NOW);

describe('resuming from the address', () => {
  test('opens at the step the route names, with what already exists', async () => {
    const app = await mountAt('devices');
    await app.settle();
    expect(stepHeading(app).text()).toBe('Step 3 of 6: Devices');
    expect(tab(app, 'Step 3: Devices').element.closest('[data-pc-name="step"]')).not.toBeNull();
    expect(
      tab(app, 'Step 3: Devices')
        .element.closest('[data-pc-name="step"]')!
        .getAttribute('aria-current'),
    ).toBe('step');
    // Devices created earlier are listed with their linked sensors, from the API.
    expect(app.callsTo('getPlant')[0]!.input).toEqual({ params: { plantUuid: PLANT_UUID } });
    const rows = app.wrapper.findAll('tbody tr').map((row) => row.text());
    expect(rows.some((row) => row.includes('Inverter') && row.includes('PV output'))).toBe(true);
    expect(rows.some((row) => row.includes('Grid meter') && row.includes('Grid connection'))).toBe(
      true,
    );
    expect(app.wrapper.find('h1').text()).toBe('Commissioning: Roof in Turin');
    expect(app.wrapper.find('[role="tablist"]').attributes('aria-label')).toBe(
      'Commissioning steps',
    );
  });

  test('resumes at the sensors step, listing the sensors with units', async () => {
    const app = await mountAt('sensors');
    await app.settle();
    expect(stepHeading(app).text()).toBe('Step 2 of 6: Sensors');
    const text = app.wrapper.text();
    expect(text).toContain('PV output');
    expect(text).toContain('Power (W)');
    expect(text).toContain('Energy (kWh)');
    expect(text).toContain('sim://roof/grid');
  });

  test('shows the plant at step 1 when the step is missing or unknown', async () => {
    const app = await mountAt('no-such-step');
    await app.settle();
    expect(stepHeading(app).text()).toBe('Step 1 of 6: Plant');
    expect(app.wrapper.text()).toContain('Europe/Rome');
    expect(app.wrapper.text()).toContain('6 kWp');
  });

  test('without a plant, offers a new plant and keeps the later steps disabled', async () => {
    const app = await mountWithApp(CommissioningView, {
      props: {},
      route: '/commission',
      routes: plantRoutes(),
    });
    await app.settle();
    expect(stepHeading(app).text()).toBe('Step 1 of 6: Plant');
    expect(app.wrapper.text()).toContain('New plant');
    for (const label of ['Step 2: Sensors', 'Step 5: Verification', 'Step 6: Report']) {
      expect(tab(app as never, label).attributes('disabled')).toBeDefined();
    }
    expect(app.callsTo('getPlant')).toHaveLength(0);
    // Or continue one whose commissioning started earlier.
    expect(app.callsTo('listPlants')).toHaveLength(1);
    expect(app.wrapper.text()).toContain('Continue an existing plant');
  });

  test('leaving a plant for a new commissioning offers the new plant form again', async () => {
    const app = await mountAt('plant');
    await app.settle();
    expect(app.wrapper.text()).toContain('Edit plant');
    await app.wrapper.setProps({ plantUuid: undefined, step: undefined });
    await app.settle();
    expect(app.wrapper.find('h1').text()).toBe('Commissioning');
    expect(app.wrapper.text()).toContain('Continue an existing plant');
    expect(app.callsTo('listPlants')).toHaveLength(1);
  });
});

describe('moving between steps', () => {
  test('Next and Back change the address; the new step’s heading takes the focus', async () => {
    const app = await mountAt('sensors', {}, { attachTo: document.body });
    await app.settle();

    await buttonNamed(app, 'Next: Devices').trigger('click');
    await app.settle();
    expect(app.router.currentRoute.value.fullPath).toBe(`/commission/${PLANT_UUID}/devices`);

    // The route's parameters are the view's props.
    await app.wrapper.setProps({ step: 'devices' });
    await app.settle();
    expect(stepHeading(app).text()).toBe('Step 3 of 6: Devices');
    expect(document.activeElement).toBe(stepHeading(app).element);

    await buttonNamed(app, 'Back').trigger('click');
    await app.settle();
    expect(app.router.currentRoute.value.fullPath).toBe(`/commission/${PLANT_UUID}/sensors`);
  });

  test('a step of the stepper can be chosen directly', async () => {
    const app = await mountAt('plant');
    await app.settle();
    await tab(app, 'Step 4: Vendor integrations').trigger('click');
    await app.settle();
    expect(app.router.currentRoute.value.fullPath).toBe(`/commission/${PLANT_UUID}/vendors`);
  });
});

describe('verification', () => {
  test('reads with relationships, re-tests each connection, and shows every check passing', async () => {
    const app = await mountAt('verification');
    await app.settle();
    await vi.waitFor(() => expect(app.wrapper.text()).toContain('Verification passed'));

    expect(app.callsTo('listDevices')[0]!.input!.query).toMatchObject({
      includeRelationships: true,
    });
    expect(app.callsTo('listSensors')[0]!.input!.query).toMatchObject({
      includeRelationships: true,
    });
    // Each sensor with a connection is tested again by the server, nothing created or deleted.
    const tested = app
      .callsTo('testSensorConnection')
      .map((call) => call.input!.params!.sensorUuid);
    expect(tested.sort()).toEqual([roof.grid.sensorUuid, roof.pv.sensorUuid].sort());
    expect(app.callsTo('createSensor')).toHaveLength(0);
    // The latest readings as raw samples, in the plant's local time.
    const history = app.callsTo('historyProduction')[0]!.input!.query!;
    expect(history.granularity).toBe('seconds');
    expect(history.startDate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);

    const items = app.wrapper.findAll('[data-check]');
    expect(items).toHaveLength(5);
    for (const item of items) expect(item.text()).toContain('PASS');
    expect(app.wrapper.text()).toContain('Each of the 2 devices has a sensor.');
  });

  test('shows a failing check with its reason, and checks again on request', async () => {
    const empty = { ...freshSeries(), points: [] };
    const app = await mountAt('verification', { historyConsumption: empty });
    await app.settle();
    await vi.waitFor(() => expect(app.wrapper.text()).toContain('Verification failed'));
    const readings = app.wrapper.find('[data-check="readingsArrived"]');
    expect(readings.text()).toContain('FAIL');
    expect(readings.text()).toContain('Consumption has no reading in the last 15 minutes');

    app.routes.historyConsumption = () => freshSeries();
    const readBefore = app.callsTo('historyConsumption').length;
    await buttonNamed(app, 'Check again').trigger('click');
    await vi.waitFor(() => expect(app.wrapper.text()).toContain('Verification passed'));
    expect(app.callsTo('historyConsumption').length).toBeGreaterThan(readBefore);
  });
});

describe('verification: the sensors’ freshness', () => {
  // The live readings ask the same route with `recent=true`: those are not freshness.
  const freshnessCalls = (app: { callsTo(route: 'listSensorStatuses'): RecordedCall[] }) =>
    app.callsTo('listSensorStatuses').filter((call) => !call.input?.query?.recent);

  const statuses = () =>
    statusesOf(
      [
        sensorStatus(1, {
          sensorUuid: roof.grid.sensorUuid,
          name: 'Grid connection',
          state: 'NEVER',
          lastReadingAt: null,
          lastValue: null,
          lastChangedAt: null,
          coverage24h: 0,
        }),
        sensorStatus(2, {
          sensorUuid: roof.pv.sensorUuid,
          name: 'PV output',
          lastReadingAt: new Date(NOW - 20_000).toISOString(),
          lastValue: 1250,
        }),
      ],
      PLANT_UUID,
    );

  test('lists each sensor’s freshness, and reads it again with "Check again"', async () => {
    const app = await mountAt('verification', { listSensorStatuses: statuses() });
    await app.settle();
    await vi.waitFor(() => expect(app.wrapper.text()).toContain('Verification passed'));
    const section = app.wrapper.find('section[data-sensor-freshness]');
    expect(section.find('h3').text()).toBe('Sensor data');
    expect(section.attributes('aria-labelledby')).toBe(section.find('h3').attributes('id'));
    const grid = section.find('[role="group"][aria-label="Data of Grid connection"]');
    expect(grid.find('.p-tag').text()).toBe('Never reported');
    expect(grid.text()).toContain('No reading yet');
    const pv = section.find('[role="group"][aria-label="Data of PV output"]');
    expect(pv.find('.p-tag').text()).toBe('Reporting');
    expect(pv.text()).toContain('1.25 kW · 20 s ago');

    await buttonNamed(app, 'Check again').trigger('click');
    await app.settle();
    expect(freshnessCalls(app)).toHaveLength(2);
  });

  test('is not asked before the verification step', async () => {
    const app = await mountAt('sensors', { listSensorStatuses: statuses() });
    await app.settle();
    expect(freshnessCalls(app)).toHaveLength(0);
  });

  test('without the extension (404) the step shows its checks and no freshness, no error', async () => {
    const app = await mountAt('verification');
    await app.settle();
    await vi.waitFor(() => expect(app.wrapper.text()).toContain('Verification passed'));
    expect(freshnessCalls(app)).toHaveLength(1);
    expect(app.wrapper.find('section[data-sensor-freshness]').exists()).toBe(false);
    expect(app.wrapper.find('.p-message-error, .p-message-warn').exists()).toBe(false);
    expect(app.wrapper.text()).not.toContain('could not be read');
  });
});

describe('report', () => {
  test('shows the plant, devices, sensors with units, checks, installer and environment', async () => {
    const app = await mountAt('report');
    await app.settle();
    await vi.waitFor(() => expect(app.wrapper.find('.commissioning-report').exists()).toBe(true));
    const report = app.wrapper.find('.commissioning-report');
    const text = report.text();
    expect(text).toContain('Commissioning report: Roof in Turin');
    expect(text).toContain('Europe/Rome');
    expect(text).toContain('6 kWp');
    expect(text).toContain('Inverter');
    expect(text).toContain('PV inverter');
    expect(text).toContain('Grid connection');
    expect(text).toContain('Power (W), Energy (kWh)');
    expect(text).toContain('Ines Installer <installer@plantdesk.test>');
    expect(text).toContain('Local sandbox');
    expect(text).toContain('PASSED: all 5 checks passed');
  });

  test('in the browser, Save as PDF opens the print dialog', async () => {
    // happy-dom has no print dialog; the browser's window.print is what the report calls.
    const print = vi.fn();
    Object.defineProperty(window, 'print', { value: print, configurable: true, writable: true });
    const app = await mountAt('report');
    await vi.waitFor(() => expect(app.wrapper.find('.commissioning-report').exists()).toBe(true));
    await buttonNamed(app, 'Save as PDF').trigger('click');
    await app.settle();
    expect(print).toHaveBeenCalledTimes(1);
    expect(app.wrapper.text()).toContain('choose “Save as PDF”');
  });

  test('in the desktop app, Save as PDF asks the host with a file name', async () => {
    const saved = vi.fn(() => ({ saved: true, path: '/home/ines/Commissioning.pdf' }));
    const app = await mountAt(
      'report',
      {},
      {
        channels: {
          'app.info': {
            name: 'PlantDesk',
            version: '1',
            host: 'electron',
            keychain: { available: true },
            now: Date.parse('2026-06-21T10:00:00Z'),
          },
          'report.savePdf': saved,
        },
      },
    );
    await vi.waitFor(() => expect(app.wrapper.find('.commissioning-report').exists()).toBe(true));
    await buttonNamed(app, 'Save as PDF').trigger('click');
    await app.settle();
    expect(saved).toHaveBeenCalledTimes(1);
    const [{ suggestedName }] = (
      saved.mock.calls[0] as unknown as [[{ suggestedName: string }]]
    )[0];
    expect(suggestedName).toMatch(/^Commissioning Roof in Turin \d{4}-\d{2}-\d{2}$/);
    expect(app.wrapper.text()).toContain('Report saved to /home/ines/Commissioning.pdf.');
  });
});

describe('the wizard in German', () => {
  test('the plant step: headings, navigation and the plant with decimal commas', async () => {
    i18n.global.locale.value = 'de';
    const app = await mountAt('plant');
    await app.settle();
    expect(app.wrapper.find('h1').text()).toBe('Inbetriebnahme: Roof in Turin');
    expect(stepHeading(app).text()).toBe('Schritt 1 von 6: Anlage');
    expect(app.wrapper.find('[role="tab"][aria-label="Schritt 5: Prüfung"]').exists()).toBe(true);
    expect(buttonNamed(app, 'Weiter: Sensoren').exists()).toBe(true);
    const summary = app.wrapper.find('dl.plant-summary').text();
    expect(summary).toContain('Standort');
    expect(summary).toContain('45,07°, 7,69°, 240 m');
    expect(summary).toContain('6 kWp, Neigung 25°, Azimut 170°, Verluste 12 %');
  });

  test('the verification: every check in German, the overall result with its plural', async () => {
    i18n.global.locale.value = 'de';
    const app = await mountAt('verification');
    await app.settle();
    await vi.waitFor(() => expect(app.wrapper.text()).toContain('Prüfung bestanden:'));
    expect(stepHeading(app).text()).toBe('Schritt 5 von 6: Prüfung');
    const text = app.wrapper.text();
    expect(text).toContain('Alle 5 Prüfungen sind bestanden. Weiter zum Protokoll.');
    expect(text).toContain('Jedes der 2 Geräte hat einen Sensor.');
    expect(text).toContain('Alle 2 Verbindungen haben ihren Test soeben bestanden.');
    const devices = app.wrapper.find('[data-check="devicesHaveSensors"]').text();
    expect(devices).toContain('Jedes Gerät hat einen Sensor');
    // The live values with a decimal comma and their age in German.
    const pv = app.wrapper.find('[data-live-readings] tr[data-live-sensor="PV output"]');
    expect(pv.find('[data-live-value]').text()).toBe('1,25 kW');
    expect(pv.find('[data-live-age]').text()).toBe('vor 20 s');
    expect(app.wrapper.find('[data-wiring-checks] h3').text()).toBe(
      'Verkabelung und Plausibilität',
    );
  });

  test('one failing check: the singular, and the reason in German', async () => {
    i18n.global.locale.value = 'de';
    const app = await mountAt('verification', {
      historyConsumption: { ...freshSeries(), points: [] },
    });
    await app.settle();
    await vi.waitFor(() => expect(app.wrapper.text()).toContain('Prüfung nicht bestanden:'));
    expect(app.wrapper.text()).toContain('1 von 5 Prüfungen ist fehlgeschlagen.');
    const readings = app.wrapper.find('[data-check="readingsArrived"]').text();
    expect(readings).toContain('FEHLER');
    expect(readings).toContain('Verbrauch hat in den letzten 15 Minuten keinen Messwert');
  });

  test('a change of language re-words the checklist at once, without checking again', async () => {
    const app = await mountAt('verification');
    await app.settle();
    await vi.waitFor(() => expect(app.wrapper.text()).toContain('Verification passed:'));
    const tests = app.callsTo('testSensorConnection').length;

    i18n.global.locale.value = 'it';
    await app.settle();
    expect(app.wrapper.text()).toContain('Verifica superata:');
    expect(app.wrapper.text()).toContain('Ognuno dei 2 dispositivi ha un sensore.');
    expect(app.wrapper.text()).not.toContain('Each of the 2 devices has a sensor.');
    expect(app.callsTo('testSensorConnection')).toHaveLength(tests);
  });
});
