// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import type { VueWrapper } from '@vue/test-utils';
import { flushPromises } from '@vue/test-utils';
import type { PlantVendor } from '../../../api/schemas/vendors.ts';
import VendorConfigDialog from '../../../renderer/src/components/vendors/VendorConfigDialog.vue';
import {
  configureBody,
  fieldOfMessage,
  initialValues,
  missingRequired,
  settingsSummary,
} from '../../../renderer/src/components/vendors/vendorConfig.ts';
import { createTranslator } from '../../../i18n/translator.ts';

const t = createTranslator('en');
import { apiError, mountWithApp } from '../support/mountWithApp.ts';
import { control } from '../support/queries.ts';

const PLANT = '11111111-1111-4111-8111-111111111111';

/** A platform vendor with one field of every type. */
function platform(overrides: Partial<PlantVendor> = {}): PlantVendor {
  return {
    vendorUuid: '22222222-2222-4222-8222-222222222222',
    code: 'SOLAREDGE',
    name: 'SolarEdge monitoring',
    kind: 'PLATFORM',
    configSchema: {
      fields: [
        { name: 'siteId', label: 'Site ID', type: 'string', required: true },
        { name: 'apiKey', label: 'API key', type: 'secret', required: true },
        { name: 'energySiteId', label: 'Energy site ID', type: 'number', required: false },
        { name: 'authEnabled', label: 'Authentication enabled', type: 'boolean', required: false },
        { name: 'password', label: 'Device password', type: 'secret', required: false },
      ],
    },
    configured: false,
    settings: null,
    secretFieldsSet: [],
    configuredAt: null,
    ...overrides,
  };
}

const CONFIGURED = platform({
  configured: true,
  settings: { siteId: 'SE-1', energySiteId: 42, authEnabled: true },
  secretFieldsSet: ['apiKey', 'password'],
  configuredAt: '2026-03-01T10:00:00Z',
});

type Body = { settings: Record<string, unknown> };

async function mountDialog(vendor: PlantVendor, routes: Record<string, unknown> = {}) {
  return mountWithApp(VendorConfigDialog, {
    props: { visible: true, plantUuid: PLANT, vendor },
    routes: {
      configurePlantVendor: (input: { body: Body }) =>
        platform({ configured: true, settings: input.body.settings as never }),
      ...routes,
    },
  });
}

async function submit(wrapper: VueWrapper): Promise<void> {
  await wrapper.find('form').trigger('submit');
  await flushPromises();
}

describe('VendorConfigDialog', () => {
  test('generates one control per schema field, by type, labelled from the schema', async () => {
    const { wrapper } = await mountDialog(platform());
    expect(wrapper.text()).toContain('Configure SolarEdge monitoring');
    expect(control(wrapper, 'Site ID').attributes('type')).toBe('text');
    expect(control(wrapper, 'API key').attributes('type')).toBe('password');
    expect(control(wrapper, 'Energy site ID').attributes('inputmode')).toBe('numeric');
    expect(control(wrapper, 'Authentication enabled').attributes('type')).toBe('checkbox');
    expect(control(wrapper, 'Authentication enabled').attributes('role')).toBe('switch');
    // A secret box has no "show password" toggle.
    expect(wrapper.find('.p-password-toggle-mask-icon').exists()).toBe(false);
    expect(
      wrapper.findAll('[data-pc-section="maskicon"], [data-pc-section="unmaskicon"]'),
    ).toHaveLength(0);
    // Required fields are marked; optional ones are not.
    const siteLabel = wrapper.findAll('label').find((label) => label.text().startsWith('Site ID'));
    expect(siteLabel!.text()).toBe('Site ID');
    expect(control(wrapper, 'Site ID').attributes('required')).toBeDefined();
  });

  test('required fields left empty are named and nothing is sent', async () => {
    const app = await mountDialog(platform());
    await submit(app.wrapper);
    expect(app.wrapper.text()).toContain('Site ID is required');
    expect(app.wrapper.text()).toContain('API key is required');
    expect(app.wrapper.text()).not.toContain('Energy site ID is required');
    expect(app.callsTo('configurePlantVendor')).toHaveLength(0);
  });

  test('sends the typed settings, typed by field, and announces the saved vendor', async () => {
    const app = await mountDialog(platform());
    await control(app.wrapper, 'Site ID').setValue('  SE-77 ');
    await control(app.wrapper, 'API key').setValue('s3cret-key');
    const number = control(app.wrapper, 'Energy site ID');
    await number.setValue('123');
    await number.trigger('blur');
    await control(app.wrapper, 'Authentication enabled').trigger('change');
    await submit(app.wrapper);

    const calls = app.callsTo('configurePlantVendor');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.input!.params).toEqual({
      plantUuid: PLANT,
      vendorUuid: platform().vendorUuid,
    });
    expect(calls[0]!.input!.body).toEqual({
      settings: { siteId: 'SE-77', apiKey: 's3cret-key', energySiteId: 123, authEnabled: true },
    });
    expect(app.wrapper.emitted('saved')).toHaveLength(1);
    expect(app.wrapper.emitted('update:visible')).toEqual([[false]]);
  });

  test('a stored secret is never prefilled, says so, and is left out of the body when empty', async () => {
    const app = await mountDialog(CONFIGURED);
    expect(app.wrapper.text()).toContain('Edit SolarEdge monitoring');
    expect(control(app.wrapper, 'Site ID').element.value).toBe('SE-1');
    expect(control(app.wrapper, 'Energy site ID').element.value).toBe('42');
    const secret = control(app.wrapper, 'API key');
    expect(secret.element.value).toBe('');
    expect(secret.attributes('placeholder')).toBe('Stored — leave empty to keep');
    expect(app.wrapper.text()).toContain('Stored — leave empty to keep');

    // The required secret is stored: saving without retyping it is fine.
    await submit(app.wrapper);
    const body = app.callsTo('configurePlantVendor')[0]!.input!.body as Body;
    expect(body.settings).toEqual({ siteId: 'SE-1', energySiteId: 42, authEnabled: true });
    expect(body.settings).not.toHaveProperty('apiKey');
    expect(body.settings).not.toHaveProperty('password');
  });

  test('a new secret value replaces the stored one; an optional one can be removed', async () => {
    const app = await mountDialog(CONFIGURED);
    await control(app.wrapper, 'API key').setValue('rotated');
    await control(app.wrapper, 'Remove the stored Device password').setValue(true);
    await submit(app.wrapper);
    const body = app.callsTo('configurePlantVendor')[0]!.input!.body as Body;
    expect(body.settings.apiKey).toBe('rotated');
    expect(body.settings.password).toBeNull();
  });

  test("the server's refusal lands on the field it names, else above the form", async () => {
    const app = await mountDialog(CONFIGURED, {
      configurePlantVendor: apiError(
        422,
        "Setting 'siteId' of vendor SOLAREDGE must be a non-empty string",
      ),
    });
    await submit(app.wrapper);
    const siteError = app.wrapper.find(
      `[id="${control(app.wrapper, 'Site ID').attributes('id')}-error"]`,
    );
    expect(siteError.text()).toBe(
      "Setting 'siteId' of vendor SOLAREDGE must be a non-empty string",
    );
    expect(app.wrapper.emitted('saved')).toBeUndefined();

    app.routes.configurePlantVendor = apiError(403, 'Permission PLANTS UPDATE required');
    await submit(app.wrapper);
    expect(app.wrapper.find('[role="alert"].p-message').text()).toContain(
      'Permission PLANTS UPDATE required',
    );
  });

  test('a vendor without settings (the simulator) is configured with an empty body', async () => {
    const simulator = platform({
      code: 'SIMULATOR',
      name: 'PlantDesk simulator',
      kind: 'SIMULATOR',
      configSchema: { fields: [] },
    });
    const app = await mountDialog(simulator);
    expect(app.wrapper.text()).toContain('This vendor needs no settings');
    await submit(app.wrapper);
    expect(app.callsTo('configurePlantVendor')[0]!.input!.body).toEqual({ settings: {} });
  });

  test('without PLANTS UPDATE the save button is disabled and names the permission', async () => {
    const app = await mountWithApp(VendorConfigDialog, {
      props: { visible: true, plantUuid: PLANT, vendor: platform() },
      user: { permissions: ['PLANTS READ'] },
    });
    const save = app.wrapper.find('button[type="submit"]');
    expect(save.attributes('disabled')).toBeDefined();
    expect(app.wrapper.text()).toContain('Requires the permission PLANTS UPDATE');
  });
});

describe('vendorConfig (the form as data)', () => {
  test('initial values never hold a secret', () => {
    expect(initialValues(CONFIGURED)).toEqual({
      siteId: 'SE-1',
      apiKey: '',
      energySiteId: 42,
      authEnabled: true,
      password: '',
    });
  });

  test('required secrets count as given once stored, unless being removed', () => {
    const values = initialValues(CONFIGURED);
    expect(missingRequired(CONFIGURED, values, t)).toEqual({});
    expect(missingRequired(CONFIGURED, values, t, ['apiKey'])).toEqual({
      apiKey: 'API key is required',
    });
    expect(missingRequired(platform(), initialValues(platform()), t)).toEqual({
      siteId: 'Site ID is required',
      apiKey: 'API key is required',
    });
  });

  test('the body leaves out empty optional fields and empty secrets', () => {
    const values = { ...initialValues(platform()), siteId: 'X', energySiteId: null };
    expect(configureBody(platform(), values)).toEqual({
      settings: { siteId: 'X', authEnabled: false },
    });
  });

  test('the table summary masks secrets and shows only whether they are stored', () => {
    const summary = settingsSummary(CONFIGURED, t);
    expect(summary).toEqual([
      { label: 'Site ID', value: 'SE-1', secret: false },
      { label: 'API key', value: '•••••• (stored)', secret: true },
      { label: 'Energy site ID', value: '42', secret: false },
      { label: 'Authentication enabled', value: 'Yes', secret: false },
      { label: 'Device password', value: '•••••• (stored)', secret: true },
    ]);
  });

  test('a message names its field by the quoted setting name', () => {
    const fields = platform().configSchema.fields;
    expect(fieldOfMessage(fields, "Setting 'apiKey' of vendor X is required")).toBe('apiKey');
    expect(fieldOfMessage(fields, "Unknown setting 'nope' for vendor X")).toBeNull();
  });
});
