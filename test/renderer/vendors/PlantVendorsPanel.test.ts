// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import type { PlantVendor } from '../../../api/schemas/vendors.ts';
import PlantVendorsPanel from '../../../renderer/src/components/vendors/PlantVendorsPanel.vue';
import { i18n } from '../../../renderer/src/i18n.ts';
import { apiQueryKey } from '../../../renderer/src/queryClient.ts';
import { apiError, mountWithApp, page } from '../support/mountWithApp.ts';
import { button } from '../support/queries.ts';
import { testQueryClient } from '../support/queryClientForComponents.ts';

const PLANT = '11111111-1111-4111-8111-111111111111';

function vendor(n: number, overrides: Partial<PlantVendor> = {}): PlantVendor {
  return {
    vendorUuid: `00000000-0000-4000-8000-00000000000${n}`,
    code: `V${n}`,
    name: `Vendor ${n}`,
    kind: 'PLATFORM',
    configSchema: {
      fields: [
        { name: 'siteId', label: 'Site ID', type: 'string', required: true },
        { name: 'apiKey', label: 'API key', type: 'secret', required: true },
      ],
    },
    configured: false,
    settings: null,
    secretFieldsSet: [],
    configuredAt: null,
    ...overrides,
  };
}

const SOLAREDGE = vendor(1, {
  name: 'SolarEdge monitoring',
  configured: true,
  settings: { siteId: 'SE-1' },
  secretFieldsSet: ['apiKey'],
  configuredAt: '2026-03-01T10:00:00Z',
});
const SIMULATOR = vendor(2, {
  name: 'PlantDesk simulator',
  kind: 'SIMULATOR',
  configSchema: { fields: [] },
});

type ListInput = { params: { plantUuid: string }; query: Record<string, unknown> };

function routes() {
  const configured: PlantVendor[] = [SOLAREDGE];
  const available: PlantVendor[] = [SIMULATOR];
  return {
    listPlantVendors: (input: ListInput) =>
      page(input.query.mode === 'config' ? configured : available),
    configurePlantVendor: (input: { params: { vendorUuid: string } }) => {
      const index = available.findIndex((v) => v.vendorUuid === input.params.vendorUuid);
      const [moved] = available.splice(index, 1);
      const done = {
        ...moved!,
        configured: true,
        settings: {},
        configuredAt: '2026-03-02T00:00:00Z',
      };
      configured.push(done);
      return done;
    },
    unconfigurePlantVendor: (input: { params: { vendorUuid: string } }) => {
      const index = configured.findIndex((v) => v.vendorUuid === input.params.vendorUuid);
      const [moved] = configured.splice(index, 1);
      available.push({ ...moved!, configured: false, settings: null, secretFieldsSet: [] });
      return undefined;
    },
  };
}

describe('PlantVendorsPanel', () => {
  test('lists configured vendors (mode=config) with secrets masked, and available ones', async () => {
    const app = await mountWithApp(PlantVendorsPanel, {
      props: { plantUuid: PLANT },
      routes: routes(),
    });
    const modes = app.callsTo('listPlantVendors').map((call) => call.input!.query!.mode);
    expect(modes.sort()).toEqual(['config', 'not_config']);
    expect(app.callsTo('listPlantVendors')[0]!.input!.params).toEqual({ plantUuid: PLANT });

    const tables = app.wrapper.findAll('table');
    expect(tables).toHaveLength(2);
    const configured = app.wrapper.find('table[aria-label="Configured vendors"]');
    expect(configured.text()).toContain('SolarEdge monitoring');
    expect(configured.text()).toContain('Site ID:SE-1');
    expect(configured.text()).toContain('API key:•••••• (stored)');
    expect(app.wrapper.find('table[aria-label="Available vendors"]').text()).toContain(
      'PlantDesk simulator',
    );
    expect(app.wrapper.findAll('[role="tab"]').map((tab) => tab.text())).toEqual([
      'Configured (1)',
      'Available (1)',
    ]);
  });

  test('configures an available vendor, reloads both tabs and tells the parent', async () => {
    const app = await mountWithApp(PlantVendorsPanel, {
      props: { plantUuid: PLANT },
      routes: routes(),
    });
    await button(app.wrapper, 'Configure PlantDesk simulator').trigger('click');
    await app.settle();
    expect(app.wrapper.text()).toContain('This vendor needs no settings');
    await app.wrapper.find('form').trigger('submit');
    await app.settle();

    expect(app.callsTo('configurePlantVendor')[0]!.input).toMatchObject({
      params: { plantUuid: PLANT, vendorUuid: SIMULATOR.vendorUuid },
      body: { settings: {} },
    });
    expect(app.wrapper.emitted('changed')).toHaveLength(1);
    expect(app.wrapper.find('table[aria-label="Configured vendors"]').text()).toContain(
      'PlantDesk simulator',
    );
    expect(app.wrapper.find('table[aria-label="Available vendors"]').text()).toContain(
      'Every vendor is already configured',
    );
  });

  test('removes a configuration after confirmation; a refusal is shown', async () => {
    const app = await mountWithApp(PlantVendorsPanel, {
      props: { plantUuid: PLANT },
      routes: routes(),
    });
    await button(app.wrapper, 'Remove SolarEdge monitoring').trigger('click');
    await app.settle();
    expect(app.wrapper.text()).toContain('Delete the vendor configuration SolarEdge monitoring?');
    await app.wrapper.findAll('form').at(-1)!.trigger('submit');
    await app.settle();
    expect(app.callsTo('unconfigurePlantVendor')[0]!.input!.params).toEqual({
      plantUuid: PLANT,
      vendorUuid: SOLAREDGE.vendorUuid,
    });
    expect(app.wrapper.find('table[aria-label="Configured vendors"]').text()).toContain(
      'No vendor is configured for this plant yet',
    );

    app.routes.unconfigurePlantVendor = apiError(403, 'Permission PLANTS UPDATE required');
    app.routes.listPlantVendors = (input: ListInput) =>
      page(input.query.mode === 'config' ? [SOLAREDGE] : []);
    // Another screen configured it again: the panel's lists are read again.
    await testQueryClient().invalidateQueries({ queryKey: apiQueryKey('listPlantVendors') });
    await app.settle();
    await button(app.wrapper, 'Remove SolarEdge monitoring').trigger('click');
    await app.settle();
    await app.wrapper.findAll('form').at(-1)!.trigger('submit');
    await app.settle();
    expect(app.wrapper.find('[role="alert"]').text()).toContain(
      'Permission PLANTS UPDATE required',
    );
  });

  test('without PLANTS UPDATE every configure, edit and remove action is disabled', async () => {
    const app = await mountWithApp(PlantVendorsPanel, {
      props: { plantUuid: PLANT },
      routes: routes(),
      user: { permissions: ['PLANTS READ'] },
    });
    for (const name of [
      'Configure PlantDesk simulator',
      'Edit SolarEdge monitoring',
      'Remove SolarEdge monitoring',
    ]) {
      expect(button(app.wrapper, name).attributes('disabled')).toBeDefined();
    }
    expect(app.wrapper.text()).toContain('Requires the permission PLANTS UPDATE');
  });

  test('a list that fails says why and offers a retry', async () => {
    const app = await mountWithApp(PlantVendorsPanel, {
      props: { plantUuid: PLANT },
      routes: { listPlantVendors: apiError(404, 'Plant not found') },
    });
    expect(app.wrapper.text()).toContain('Plant not found');
    expect(app.wrapper.findAll('button').some((b) => b.text() === 'Retry')).toBe(true);
  });
});

describe('PlantVendorsPanel in German', () => {
  test('tabs, kinds, masked secrets, a configured date and the missing-setting message', async () => {
    i18n.global.locale.value = 'de';
    const app = await mountWithApp(PlantVendorsPanel, {
      props: { plantUuid: PLANT },
      routes: routes(),
    });
    expect(app.wrapper.findAll('[role="tab"]').map((tab) => tab.text())).toEqual([
      'Eingerichtet (1)',
      'Verfügbar (1)',
    ]);
    const configured = app.wrapper.find('table[aria-label="Eingerichtete Anbieter"]');
    expect(configured.text()).toContain('Plattform');
    expect(configured.text()).toContain('API key:•••••• (gespeichert)');
    expect(configured.find('time').text()).toMatch(/^0?1\.03\.2026/);

    await button(app.wrapper, 'SolarEdge monitoring bearbeiten').trigger('click');
    await app.settle();
    const siteId = app.wrapper.find<HTMLInputElement>('input[id$="-siteId"]');
    await siteId.setValue('');
    await app.wrapper.find('form').trigger('submit');
    await app.settle();
    expect(app.wrapper.find('.field-error').text()).toBe('„Site ID“ ist erforderlich');
  });
});
