// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import type {
  ComparedEnvironment,
  ComparedPlant,
  ComparisonResult,
  Environment,
} from '../../../electron/ipc/contract.ts';
import EnvironmentComparisonView from '../../../renderer/src/views/EnvironmentComparisonView.vue';
import { comparePlants, secretState } from '../../../server/domain/comparison/index.ts';
import type { PlantSnapshot } from '../../../server/domain/comparison/index.ts';
import { apiError, mountWithApp } from '../support/mountWithApp.ts';
import { button, control } from '../support/queries.ts';

const PLANT = '11111111-1111-4111-8111-111111111111';
const SANDBOX: Environment = {
  id: 'sandbox',
  name: 'Shared sandbox',
  kind: 'sandbox',
  baseUrl: 'https://sandbox.example.com',
  source: 'admin',
};
const PRODUCTION: ComparedEnvironment = {
  id: 'local',
  name: 'Production EU',
  kind: 'production',
  origin: 'https://api.example.com',
};
const OTHER: ComparedEnvironment = {
  id: 'sandbox',
  name: 'Shared sandbox',
  kind: 'sandbox',
  origin: 'https://sandbox.example.com',
};
const HERE: ComparedPlant = { plantUuid: PLANT, name: 'Demo Home', externalIds: ['DEMO-1'] };
const THERE: ComparedPlant = {
  plantUuid: '22222222-2222-4222-8222-222222222222',
  name: 'Demo Home',
  externalIds: ['DEMO-1'],
};

const base: PlantSnapshot = {
  plant: { name: 'Demo Home', externalIds: ['DEMO-1'] },
  devices: [
    {
      label: 'Rooftop inverter',
      keys: { serialNumber: 'INV-1', name: 'Rooftop inverter' },
      fields: { name: 'Rooftop inverter', ratedPowerW: 8000 },
    },
  ],
  sensors: [
    { label: 'Grid exchange', keys: { name: 'Grid exchange' }, fields: { flow: 'GRID' } },
    { label: 'Wallbox power', keys: { name: 'Wallbox power' }, fields: { flow: 'CONSUMPTION' } },
  ],
  vendors: [
    {
      label: 'SolarEdge monitoring',
      keys: { code: 'SOLAREDGE', name: 'SolarEdge monitoring' },
      fields: { 'setting:siteId': '4711', 'secret:apiKey': secretState(true) },
    },
  ],
};
const sandbox: PlantSnapshot = {
  ...base,
  devices: [{ ...base.devices[0]!, fields: { name: 'Rooftop inverter', ratedPowerW: 10000 } }],
  sensors: [base.sensors[0]!],
  vendors: [
    {
      ...base.vendors[0]!,
      fields: { 'setting:siteId': '4711', 'secret:apiKey': secretState(false) },
    },
  ],
};

const COMPARED: ComparisonResult = {
  status: 'compared',
  left: { environment: PRODUCTION, plant: HERE },
  right: { environment: OTHER, plant: THERE },
  matchedExternalIds: ['DEMO-1'],
  diff: comparePlants(base, sandbox),
};

function mount(compare: unknown) {
  return mountWithApp(EnvironmentComparisonView, {
    props: { plantUuid: PLANT },
    environment: { kind: 'production', name: 'Production EU' },
    otherEnvironments: [SANDBOX],
    route: `/plants/${PLANT}/compare`,
    channels: {
      'comparison.compare': compare,
      'comparison.signIn': { environmentId: 'sandbox', status: 'signedIn' },
    },
  });
}

describe('EnvironmentComparisonView', () => {
  test('compares with the sandbox at once and names every difference in words', async () => {
    const app = await mount(COMPARED);
    await app.settle();
    const compareCalls = app.calls.filter((call) => call.channel === 'comparison.compare');
    expect(compareCalls[0]!.args).toEqual([{ plantUuid: PLANT, otherEnvironmentId: 'sandbox' }]);
    const text = app.wrapper.text();
    expect(text).toContain('Production EU and Shared sandbox, matched by external id DEMO-1.');
    expect(text).toContain('3 differences');

    const entries = app.wrapper.findAll('li.entry');
    const byName = (name: string) => entries.find((entry) => entry.text().includes(name))!;
    const inverter = byName('Rooftop inverter');
    expect(inverter.text()).toContain('Changed');
    expect(inverter.text()).toContain('Matched by serial number');
    const row = inverter.find('tbody tr');
    expect(row.findAll('th, td').map((cell) => cell.text())).toEqual([
      'Rated power (W)',
      '8000',
      '10000',
      'Changed',
    ]);
    expect(byName('Wallbox power').text()).toContain('Removed');
    expect(byName('Wallbox power').text()).toContain('Only in Production EU');
    const vendor = byName('SolarEdge monitoring');
    expect(vendor.text()).toContain('apiKey (secret)');
    expect(vendor.text()).toContain('set (hidden)');
    expect(vendor.text()).toContain('not set');
    // Unchanged entries are summed up, not listed, until asked for.
    expect(byName('Grid exchange')).toBeUndefined();
    expect(text).toContain('1 more is the same in both.');
    await control(app.wrapper, 'Show only differences').setValue(false);
    await app.settle();
    expect(
      app.wrapper.findAll('li.entry').some((entry) => entry.text().includes('Grid exchange')),
    ).toBe(true);
  });

  test('asks to sign in to the other environment, then compares without switching', async () => {
    let signedIn = false;
    const app = await mount(() =>
      signedIn
        ? COMPARED
        : {
            status: 'signInNeeded',
            left: { environment: PRODUCTION, plant: HERE },
            other: OTHER,
          },
    );
    app.channels['comparison.signIn'] = (environmentId: string) => {
      signedIn = true;
      return { environmentId, status: 'signedIn' };
    };
    await app.settle();
    const text = app.wrapper.text();
    expect(text).toContain('Sign in to Shared sandbox');
    expect(text).toContain('you stay in Production EU');
    expect(text).toContain('The password goes to https://sandbox.example.com only.');

    await control(app.wrapper, 'Email').setValue('installer@plantdesk.test');
    await control(app.wrapper, 'Password').setValue('installer-pass-1');
    await button(app.wrapper, 'Sign in to Shared sandbox and compare').trigger('submit');
    await app.settle();
    const signIn = app.calls.find((call) => call.channel === 'comparison.signIn')!;
    expect(signIn.args).toEqual([
      'sandbox',
      { email: 'installer@plantdesk.test', password: 'installer-pass-1', remember: false },
    ]);
    expect(app.calls.some((call) => call.channel === 'environments.select')).toBe(false);
    expect(app.wrapper.text()).toContain('3 differences');
  });

  test("a refused sign-in to the other environment shows the server's message", async () => {
    const app = await mount({
      status: 'signInNeeded',
      left: { environment: PRODUCTION, plant: HERE },
      other: OTHER,
      rememberedEmail: 'installer@plantdesk.test',
    });
    app.channels['comparison.signIn'] = apiError(401, 'Invalid e-mail or password');
    await app.settle();
    expect(control(app.wrapper, 'Email').element.value).toBe('installer@plantdesk.test');
    await control(app.wrapper, 'Password').setValue('not-the-password');
    await button(app.wrapper, 'Sign in to Shared sandbox and compare').trigger('submit');
    await app.settle();
    expect(app.wrapper.get('[role="alert"]').text()).toBe('Invalid e-mail or password');
    expect(control(app.wrapper, 'Password').element.value).toBe('');
    // Nothing is compared again until the sign-in succeeds.
    expect(app.calls.filter((call) => call.channel === 'comparison.compare')).toHaveLength(1);
  });

  test('a plant without a twin, and a plant without an external id, say why', async () => {
    const app = await mount({
      status: 'notFound',
      left: { environment: PRODUCTION, plant: HERE },
      other: OTHER,
      candidates: [],
    });
    await app.settle();
    expect(app.wrapper.text()).toContain('No plant in Shared sandbox has the external id DEMO-1');

    app.channels['comparison.compare'] = {
      status: 'noExternalId',
      left: { environment: PRODUCTION, plant: { ...HERE, externalIds: [] } },
    };
    await button(app.wrapper, 'Compare').trigger('submit');
    await app.settle();
    expect(app.wrapper.text()).toContain('This plant has no external id');
  });
});
