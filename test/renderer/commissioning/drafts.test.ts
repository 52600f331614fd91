// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import type { Draft, DraftSendResult } from '../../../electron/ipc/contract.ts';
import CommissioningDraftView from '../../../renderer/src/views/CommissioningDraftView.vue';
import CommissioningDrafts from '../../../renderer/src/components/commissioning/drafts/CommissioningDrafts.vue';
import { networkError, page, mountWithApp } from '../support/mountWithApp.ts';
import { button, control } from '../support/queries.ts';
import { draft, DRAFT_ID, GRID_REFUSED } from './draftFixtures.ts';
import { INVERTER_TYPE, PLANT, PLANT_UUID, POWER_METER, SIMULATOR } from './fixtures.ts';

/**
 * Commissioning without a connection: the wizard on a local draft (saved at each change, marked
 * as not sent, the server's steps waiting), the drafts list, sending with refusals and with an
 * interruption, and the report of a draft watermarked "Not verified".
 */

const VENDOR_UUID = '44444444-4444-4444-8444-444444444444';

/** The catalogs answer while connected; a network error makes them come from the kept copy. */
const catalogRoutes = {
  listSensorTypes: page([POWER_METER]),
  listDataTypesCollects: page([]),
  listDeviceTypes: page([INVERTER_TYPE]),
  listVendors: page([SIMULATOR]),
};
const offlineRoutes = {
  listSensorTypes: networkError(),
  listDataTypesCollects: networkError(),
  listDeviceTypes: networkError(),
  listVendors: networkError(),
  listPlants: networkError(),
};

describe('the wizard on a draft', () => {
  test('starts a draft without a connection, keeps each entry at once, and says it is not sent', async () => {
    // Read once while connected: the copy the draft's forms use offline.
    const online = await mountWithApp(CommissioningDraftView, {
      props: { draftId: 'new' },
      route: '/commission/draft/new',
      routes: catalogRoutes,
      channels: { 'drafts.list': [] },
    });
    online.wrapper.unmount();

    const saved: unknown[] = [];
    const app = await mountWithApp(CommissioningDraftView, {
      props: { draftId: 'new' },
      route: '/commission/draft/new',
      routes: offlineRoutes,
      channels: {
        'drafts.save': ([input]: [{ content: Draft['content'] }]) => {
          saved.push(input);
          return draft({ content: { ...input.content } });
        },
      },
    });
    const { wrapper } = app;
    expect(wrapper.text()).toContain('Draft — not yet sent to Local sandbox');
    await control(wrapper, 'Name').setValue('Barn roof');
    await control(wrapper, 'Latitude').setValue('45.07');
    await control(wrapper, 'Longitude').setValue('7.69');
    // The time zone select is PrimeVue's: its model is set as choosing an option would.
    const form = wrapper.findComponent({ name: 'DraftPlantForm' });
    const select = form.findComponent({ name: 'SelectField' });
    select.vm.$emit('update:modelValue', 'Europe/Rome');
    await app.settle();
    await wrapper.find('form[aria-label="New plant (draft)"]').trigger('submit');
    await app.settle();
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({
      content: { plant: { name: 'Barn roof', location: { timezone: 'Europe/Rome' } } },
    });
    expect(app.router.currentRoute.value.params).toMatchObject({
      draftId: DRAFT_ID,
      step: 'sensors',
    });
    // The kept catalogs fill the sensor form's types.
    expect(wrapper.text()).toContain('The catalogs shown are those read from Local sandbox');
  });

  test('the verification waits for the connection; a sensor added goes into the draft', async () => {
    const saves: Draft['content'][] = [];
    const app = await mountWithApp(CommissioningDraftView, {
      props: { draftId: DRAFT_ID, step: 'sensors' },
      route: `/commission/draft/${DRAFT_ID}/sensors`,
      routes: catalogRoutes,
      channels: {
        'drafts.get': draft(),
        'drafts.save': ([input]: [{ draftId: string; content: Draft['content'] }]) => {
          saves.push(input.content);
          return draft({ content: input.content });
        },
      },
    });
    await app.settle();
    const { wrapper } = app;
    expect(wrapper.text()).toContain('Waits for the connection');
    await button(wrapper, 'Remove sensor Grid from the draft').trigger('click');
    await app.settle();
    expect(saves.at(-1)!.sensors.map((sensor) => sensor.name)).toEqual(['PV output']);

    await app.router.push(`/commission/draft/${DRAFT_ID}/verification`);
    await wrapper.setProps({ step: 'verification' });
    await app.settle();
    expect(wrapper.text()).toContain('The verification waits for the connection');
  });
});

describe('vendor settings in a draft', () => {
  const CLOUD = {
    vendorUuid: VENDOR_UUID,
    code: 'CLOUD',
    name: 'Cloud portal',
    kind: 'PLATFORM' as const,
    configSchema: {
      fields: [
        { name: 'host', label: 'Host', type: 'string' as const, required: true },
        { name: 'apiKey', label: 'API key', type: 'secret' as const, required: true },
        { name: 'pin', label: 'PIN', type: 'secret' as const, required: false },
      ],
    },
  };

  test('keeps the settings without any secret, and names the secrets to ask when sending', async () => {
    const saves: Draft['content'][] = [];
    const app = await mountWithApp(CommissioningDraftView, {
      props: { draftId: DRAFT_ID, step: 'vendors' },
      route: `/commission/draft/${DRAFT_ID}/vendors`,
      routes: { ...catalogRoutes, listVendors: page([SIMULATOR, CLOUD]) },
      channels: {
        'drafts.get': draft(),
        'drafts.save': ([input]: [{ content: Draft['content'] }]) => {
          saves.push(input.content);
          return draft({ content: input.content });
        },
      },
    });
    await app.settle();
    const { wrapper } = app;
    const select = wrapper.findComponent({ name: 'DraftVendorsStep' }).findComponent({
      name: 'SelectField',
    });
    select.vm.$emit('update:modelValue', VENDOR_UUID);
    await app.settle();
    await button(wrapper, 'Configure').trigger('click');
    const form = wrapper.find('form[aria-label="Settings of Cloud portal (draft)"]');
    expect(form.exists()).toBe(true);
    // No field takes a secret's value: the required one is asked at send time, always.
    expect(form.findAll('input[type="password"]')).toHaveLength(0);
    await control(wrapper, 'Host').setValue('portal.example.com');
    await form.trigger('submit');
    await app.settle();
    expect(saves.at(-1)!.vendors).toEqual([
      {
        vendorUuid: VENDOR_UUID,
        settings: { host: 'portal.example.com' },
        secretFields: ['apiKey'],
      },
    ]);
    // The send panel asks for it by its label.
    expect(wrapper.find('.draft-send').text()).toContain('API key for Cloud portal');
  });
});

describe('the drafts list', () => {
  test('shows each draft with its state, resumes, and deletes after confirmation', async () => {
    let drafts = [
      draft(),
      draft({
        draftId: '55555555-5555-4555-8555-555555555555',
        content: { ...draft().content, plant: { ...draft().content.plant, name: 'Shed' } },
        status: 'partlySent',
        refusals: [{ section: 'sensors', key: 'sensor-2', kind: 'refused', message: 'no' }],
      }),
    ];
    const app = await mountWithApp(CommissioningDrafts, {
      route: '/commission',
      channels: {
        'drafts.list': () => drafts,
        'drafts.delete': ([id]: [string]) => {
          drafts = drafts.filter((entry) => entry.draftId !== id);
        },
      },
    });
    await app.settle();
    const { wrapper } = app;
    const rows = wrapper.findAll('tbody tr').map((row) => row.text());
    expect(rows[0]).toContain('Barn roof');
    expect(rows[0]).toContain('Not sent');
    expect(rows[1]).toContain('Shed');
    expect(rows[1]).toContain('Refused');
    expect(wrapper.find('a[aria-label="Resume draft Barn roof"]').attributes('href')).toContain(
      `/commission/draft/${DRAFT_ID}/plant`,
    );

    await button(wrapper, 'Delete draft Shed').trigger('click');
    await app.settle();
    expect(app.calls.some((call) => call.channel === 'drafts.delete')).toBe(false);
    await wrapper.find('.confirm-delete').trigger('submit');
    await app.settle();
    expect(app.calls.find((call) => call.channel === 'drafts.delete')?.args).toEqual([
      '55555555-5555-4555-8555-555555555555',
    ]);
    expect(wrapper.findAll('tbody tr')).toHaveLength(1);
  });

  test('offers a draft when the server cannot be reached', async () => {
    const app = await mountWithApp(CommissioningDrafts, {
      route: '/commission',
      routes: { listPlants: networkError() },
      channels: { 'drafts.list': [] },
    });
    await app.settle();
    const { useConnectivityStore } =
      await import('../../../renderer/src/stores/useConnectivityStore.ts');
    useConnectivityStore().offline = true;
    await app.settle();
    expect(app.wrapper.text()).toContain('Local sandbox cannot be reached');
    expect(app.wrapper.find('a[href$="/commission/draft/new"]').text()).toBe('Start a draft');
  });
});

describe('sending a draft', () => {
  const withVendor = () =>
    draft({
      content: {
        ...draft().content,
        vendors: [{ vendorUuid: VENDOR_UUID, settings: { host: 'x' }, secretFields: ['apiKey'] }],
      },
    });

  test('asks the vendor secrets again, and shows each refusal on its sensor while the rest is kept', async () => {
    const refused: DraftSendResult = {
      outcome: 'refused',
      message: '1 refusal',
      draft: {
        ...withVendor(),
        status: 'partlySent',
        sent: {
          plantUuid: PLANT_UUID,
          devices: { 'device-1': '66666666-6666-4666-8666-666666666666' },
          sensors: { 'sensor-1': '77777777-7777-4777-8777-777777777777' },
          vendors: { [VENDOR_UUID]: '2026-11-20T10:10:00Z' },
        },
        refusals: [GRID_REFUSED],
      },
    };
    const app = await mountWithApp(CommissioningDraftView, {
      props: { draftId: DRAFT_ID, step: 'sensors' },
      route: `/commission/draft/${DRAFT_ID}/sensors`,
      routes: catalogRoutes,
      channels: { 'drafts.get': withVendor(), 'drafts.send': refused },
    });
    await app.settle();
    const { wrapper } = app;
    await control(wrapper, `apiKey for Vendor ${VENDOR_UUID}`).setValue('s3cret');
    expect(button(wrapper, 'Send the draft').attributes('type')).toBe('submit');
    await wrapper.find('.draft-send form').trigger('submit');
    await app.settle();
    const send = app.calls.find((call) => call.channel === 'drafts.send');
    expect(send?.args).toEqual([DRAFT_ID, { secrets: { [VENDOR_UUID]: { apiKey: 's3cret' } } }]);
    expect(wrapper.text()).toContain('Partly sent');
    const onSensor = wrapper.find('[aria-label="Refused for sensor Grid"]');
    expect(onSensor.text()).toContain('connection');
    expect(onSensor.text()).toContain('No answer from sim://barn/grid');
    expect(wrapper.find('[aria-label="Refused for sensor PV output"]').exists()).toBe(false);
    // The sensor's form shows it on the connection field.
    await button(wrapper, 'Edit sensor Grid').trigger('click');
    expect(wrapper.find('form[aria-label="Edit sensor Grid (draft)"]').text()).toContain(
      'No answer from sim://barn/grid',
    );
  });

  test('an interrupted send says so, and the next send completes and opens the plant at the verification', async () => {
    let sends = 0;
    const sentDraft = draft({
      status: 'sent',
      sent: { plantUuid: PLANT_UUID, devices: {}, sensors: {}, vendors: {} },
    });
    const app = await mountWithApp(CommissioningDraftView, {
      props: { draftId: DRAFT_ID, step: 'plant' },
      route: `/commission/draft/${DRAFT_ID}/plant`,
      routes: { ...catalogRoutes, getPlant: PLANT },
      channels: {
        'drafts.get': draft(),
        'drafts.send': () =>
          ++sends === 1
            ? {
                outcome: 'interrupted',
                message: 'The server stopped answering after the plant',
                draft: draft({ status: 'partlySent', sent: { ...sentDraft.sent } }),
              }
            : { outcome: 'sent', message: 'All sent', draft: sentDraft },
      },
    });
    await app.settle();
    const { wrapper } = app;
    await wrapper.find('.draft-send form').trigger('submit');
    await app.settle();
    expect(wrapper.find('.draft-send [role="alert"]').text()).toContain('Interrupted');
    expect(wrapper.text()).toContain('Partly sent');
    expect(button(wrapper, 'Send again').exists()).toBe(true);
    await wrapper.find('.draft-send form').trigger('submit');
    await app.settle();
    expect(sends).toBe(2);
    expect(wrapper.text()).toContain('Sent: the server holds the whole draft.');
    await button(wrapper, 'Continue with the verification').trigger('click');
    await app.settle();
    expect(app.router.currentRoute.value.params).toMatchObject({
      plantUuid: PLANT_UUID,
      step: 'verification',
    });
  });
});

/** Controls a screen reader could not name: without text, aria-label(ledby), or a label. */
function unnamedControls(root: Element): string[] {
  const named = (element: Element) => {
    if (element.getAttribute('aria-label')?.trim()) return true;
    const labelledBy = element.getAttribute('aria-labelledby');
    if (
      labelledBy &&
      labelledBy
        .split(/\s+/)
        .some(
          (id) =>
            root.ownerDocument.getElementById(id)?.textContent?.trim() ||
            root.querySelector(`[id="${id}"]`)?.textContent?.trim(),
        )
    )
      return true;
    if (element.id && root.querySelector(`label[for="${element.id}"]`)?.textContent?.trim())
      return true;
    if (element.closest('label')?.textContent?.trim()) return true;
    return element.tagName === 'BUTTON' || element.tagName === 'A'
      ? Boolean(element.textContent?.trim())
      : false;
  };
  return [
    ...root.querySelectorAll(
      'button, a[href], input:not([type="hidden"]):not([aria-hidden="true"]), select, textarea, [role="combobox"]',
    ),
  ]
    .filter((element) => !element.closest('[aria-hidden="true"]') && !named(element))
    .map((element) => element.outerHTML.slice(0, 120));
}

describe('accessible names', () => {
  test.each(['plant', 'sensors', 'devices', 'vendors', 'verification', 'report'])(
    'every control of the draft wizard has one (%s step)',
    async (step) => {
      const app = await mountWithApp(CommissioningDraftView, {
        props: { draftId: DRAFT_ID, step },
        route: `/commission/draft/${DRAFT_ID}/${step}`,
        routes: catalogRoutes,
        channels: {
          'drafts.get': draft({
            content: {
              ...draft().content,
              vendors: [{ vendorUuid: VENDOR_UUID, settings: {}, secretFields: ['apiKey'] }],
            },
          }),
        },
      });
      await app.settle();
      const add = app.wrapper
        .findAll('button')
        .find((candidate) => ['Add sensor', 'Add device'].includes(candidate.text()));
      if (add) await add.trigger('click');
      expect(unnamedControls(app.wrapper.element)).toEqual([]);
    },
  );

  test('every control of the drafts list has one', async () => {
    const app = await mountWithApp(CommissioningDrafts, {
      route: '/commission',
      routes: catalogRoutes,
      channels: { 'drafts.list': [draft()] },
    });
    await app.settle();
    await button(app.wrapper, 'Send draft Barn roof').trigger('click');
    await app.settle();
    expect(unnamedControls(app.wrapper.element)).toEqual([]);
  });
});

describe('the report of a draft', () => {
  test('is watermarked Not verified, and says no check has run', async () => {
    const app = await mountWithApp(CommissioningDraftView, {
      props: { draftId: DRAFT_ID, step: 'report' },
      route: `/commission/draft/${DRAFT_ID}/report`,
      routes: catalogRoutes,
      channels: { 'drafts.get': draft() },
    });
    await app.settle();
    const report = app.wrapper.find('.commissioning-report');
    expect(report.classes()).toContain('not-verified');
    expect(report.find('.watermark').text()).toBe('Not verified');
    expect(report.find('h3').text()).toContain('(draft, not verified)');
    expect(report.text()).toContain('NOT VERIFIED');
    expect(report.text()).toContain('PV output');
    expect(report.text()).toContain('PV inverter');
  });
});
