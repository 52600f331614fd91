// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import { TimeZoneName } from '../../../api/schemas/plants.ts';
import PlantForm from '../../../renderer/src/components/plants/PlantForm.vue';
import MetadataEditor, {
  checkMetadataRows,
  newMetadataRow,
  rowsFromRecord,
} from '../../../renderer/src/components/MetadataEditor.vue';
import {
  submissionOf,
  valuesFromPlant,
} from '../../../renderer/src/components/plants/plantFormModel.ts';
import {
  browserTimeZone,
  runtimeTimeZones,
} from '../../../renderer/src/composables/useTimeZones.ts';
import { createTranslator } from '../../../i18n/translator.ts';
import { apiError, mountWithApp } from '../support/mountWithApp.ts';
import { button, errorOf, labelled, plant, PLANT_UUID } from './fixtures.ts';

type Input = { params?: Record<string, string>; body: any };

function routes(extra: Record<string, unknown> = {}) {
  return {
    createPlant: (input: Input) => plant({ ...input.body, plantUuid: PLANT_UUID }),
    updatePlant: (input: Input) => plant({ ...input.body }),
    ...extra,
  };
}

async function fillNew(wrapper: any, values: Record<string, string> = {}) {
  const all = { Name: 'Casa Rossi', Latitude: '45.07', Longitude: '7.69', ...values };
  for (const [label, value] of Object.entries(all)) await labelled(wrapper, label).setValue(value);
}

function bodyOf(
  app: Awaited<ReturnType<typeof mountWithApp>>,
  route: 'createPlant' | 'updatePlant',
): any {
  return app.callsTo(route)[0]!.input!.body;
}

async function submit(app: Awaited<ReturnType<typeof mountWithApp>>) {
  await app.wrapper.find('form').trigger('submit');
  await app.settle();
}

describe('PlantForm: creating', () => {
  test('creates a plant with the contract body and emits saved with the answer', async () => {
    const app = await mountWithApp(PlantForm, { routes: routes() });
    await fillNew(app.wrapper, { Latitude: '45,07' });
    await labelled(app.wrapper, 'External id').setValue('POD-IT-001');
    await labelled(app.wrapper, 'External id').trigger('keydown', { key: 'Enter' });
    // A second id still typed when saving is taken too.
    await labelled(app.wrapper, 'External id').setValue('CONTRACT-7 ');
    await submit(app);

    const [call] = app.callsTo('createPlant');
    expect(call!.input!.body).toEqual({
      name: 'Casa Rossi',
      externalIds: ['POD-IT-001', 'CONTRACT-7'],
      location: { latitude: 45.07, longitude: 7.69, timezone: browserTimeZone(), altitudeM: null },
      pv: null,
      metadata: {},
    });
    const saved = app.wrapper.emitted('saved');
    expect(saved).toHaveLength(1);
    expect((saved![0]![0] as any).plantUuid).toBe(PLANT_UUID);
  });

  test('requires a name and keeps latitude and longitude in range, without calling', async () => {
    const app = await mountWithApp(PlantForm, { routes: routes() });
    await fillNew(app.wrapper, { Name: '   ', Latitude: '91', Longitude: '-180.5' });
    await submit(app);
    expect(errorOf(app.wrapper, 'Name')).toBe('Enter a name');
    expect(errorOf(app.wrapper, 'Latitude')).toBe('Latitude must be between -90 and 90 degrees');
    expect(errorOf(app.wrapper, 'Longitude')).toBe(
      'Longitude must be between -180 and 180 degrees',
    );
    expect(app.callsTo('createPlant')).toHaveLength(0);

    await fillNew(app.wrapper, { Latitude: '-90', Longitude: 'east' });
    await submit(app);
    expect(errorOf(app.wrapper, 'Latitude')).toBe('');
    expect(errorOf(app.wrapper, 'Longitude')).toBe('“east” is not a number');
    expect(app.callsTo('createPlant')).toHaveLength(0);

    await fillNew(app.wrapper, { Latitude: '', Longitude: '180' });
    await submit(app);
    expect(errorOf(app.wrapper, 'Latitude')).toBe('Enter the latitude, e.g. 46.4983');
    expect(app.callsTo('createPlant')).toHaveLength(0);
  });

  test('PV settings: defaults, units, ranges', async () => {
    const app = await mountWithApp(PlantForm, { routes: routes() });
    await fillNew(app.wrapper);
    await labelled(app.wrapper, 'The plant has photovoltaic panels').setValue(true);
    expect(labelled(app.wrapper, 'Peak power (kWp)').exists()).toBe(true);
    expect(labelled(app.wrapper, 'Tilt (°)').element.value).toBe('30');
    expect(labelled(app.wrapper, 'Azimuth (°)').element.value).toBe('180');
    expect(labelled(app.wrapper, 'System losses (%)').element.value).toBe('14');

    await labelled(app.wrapper, 'Peak power').setValue('0');
    await labelled(app.wrapper, 'Tilt').setValue('95');
    await submit(app);
    expect(errorOf(app.wrapper, 'Peak power')).toContain('more than 0');
    expect(errorOf(app.wrapper, 'Tilt')).toBe('Tilt must be between 0 and 90 degrees');
    expect(app.callsTo('createPlant')).toHaveLength(0);

    await labelled(app.wrapper, 'Peak power').setValue('6.2');
    await labelled(app.wrapper, 'Tilt').setValue('35');
    await submit(app);
    expect(bodyOf(app, 'createPlant').pv).toEqual({
      peakPowerKw: 6.2,
      tiltDeg: 35,
      azimuthDeg: 180,
      lossesPercent: 14,
    });
  });

  test('time zone: defaults to the computer’s zone, offers only zones the contract accepts', async () => {
    const app = await mountWithApp(PlantForm, { routes: routes() });
    const zones = runtimeTimeZones();
    expect(zones.length).toBeGreaterThan(300);
    expect(zones).toContain('Europe/Rome');
    expect(zones).toContain('UTC');
    // Current names, not ICU's old ones.
    expect(zones).toContain('Asia/Kathmandu');
    expect(zones).toContain('Europe/Kyiv');
    expect(zones).not.toContain('Asia/Calcutta');
    expect(zones.filter((zone) => !TimeZoneName.safeParse(zone).success)).toEqual([]);

    const select = app.wrapper.findComponent({ name: 'Select' });
    expect(select.props('modelValue')).toBe(browserTimeZone());
    expect(select.props('filter')).toBe(true);
    select.vm.$emit('update:modelValue', 'Asia/Kathmandu');
    await fillNew(app.wrapper);
    await submit(app);
    expect(bodyOf(app, 'createPlant').location.timezone).toBe('Asia/Kathmandu');
  });

  test('a time zone the contract refuses lands on the Time zone field', () => {
    const values = valuesFromPlant(undefined, '+02:00', 'en');
    Object.assign(values, { name: 'X', latitude: '1', longitude: '2' });
    const result = submissionOf(values, createTranslator('en'), 'en');
    expect(result.kind).toBe('invalid');
    expect(result.kind === 'invalid' && result.problems['location.timezone']).toBe(
      'Choose an IANA time zone from the list, such as Europe/Rome',
    );
  });

  test('the model words its problems in the language it is given (Italian)', () => {
    const values = valuesFromPlant(undefined, '+02:00', 'en');
    Object.assign(values, {
      name: 'X',
      latitude: '',
      longitude: 'est',
      hasPv: true,
      tiltDeg: '95',
    });
    const result = submissionOf(values, createTranslator('it'), 'it');
    expect(result.kind === 'invalid' && result.problems).toMatchObject({
      'location.latitude': 'Inserisci la latitudine, ad es. 46,4983',
      'location.longitude': '«est» non è un numero',
      'pv.peakPowerKw': 'Inserisci la potenza di picco del generatore FV in kWp',
      'pv.tiltDeg': "L'inclinazione deve essere compresa tra 0 e 90 gradi",
    });
  });

  test('German decimals become numbers; grouped or ambiguous input is refused, not guessed', () => {
    const values = valuesFromPlant(undefined, 'Europe/Rome', 'de');
    Object.assign(values, { name: 'X', latitude: '46,4983', longitude: '11.3548' });
    const saved = submissionOf(values, createTranslator('de'), 'de');
    expect(saved.kind === 'create' && saved.body.location).toMatchObject({
      latitude: 46.4983,
      longitude: 11.3548,
    });
    Object.assign(values, { latitude: '1.234,5', longitude: '11.354' });
    const refused = submissionOf(values, createTranslator('de'), 'de');
    expect(refused.kind === 'invalid' && refused.problems).toMatchObject({
      'location.latitude':
        '„1.234,5“ bitte ohne Tausendertrennzeichen schreiben, Dezimalstellen nach „,“',
      'location.longitude':
        '„11.354“ ist mehrdeutig: Dezimalstellen nach „,“ schreiben, ohne Tausendertrennzeichen',
    });
  });

  test('a stored plant shows its numbers as the language writes them, and saves unchanged', () => {
    const stored = plant({ location: { ...plant().location, latitude: 46.498 } });
    const values = valuesFromPlant(stored, 'UTC', 'it');
    expect(values.latitude).toBe('46,498');
    expect(submissionOf(values, createTranslator('it'), 'it', stored).kind).toBe('unchanged');
  });

  test('the server’s 409 lands on the external ids, a 400 and a 422 on their fields', async () => {
    const app = await mountWithApp(PlantForm, {
      routes: routes({
        createPlant: apiError(
          409,
          "External id 'POD-1' is already used by another plant of the organization",
        ),
      }),
    });
    await fillNew(app.wrapper);
    await labelled(app.wrapper, 'External id').setValue('POD-1');
    await submit(app);
    expect(errorOf(app.wrapper, 'External id')).toBe(
      "External id 'POD-1' is already used by another plant of the organization",
    );
    expect(app.wrapper.emitted('saved')).toBeUndefined();

    app.routes.createPlant = apiError(
      400,
      "Invalid body field 'location.latitude': Too big: expected number to be <=90",
    );
    await submit(app);
    expect(errorOf(app.wrapper, 'Latitude')).toBe(
      "Invalid body field 'location.latitude': Too big: expected number to be <=90",
    );
    expect(errorOf(app.wrapper, 'External id')).toBe('');

    app.routes.createPlant = apiError(
      400,
      "Invalid body field 'location.timezone': timezone must be an IANA time-zone name such as Europe/Rome",
    );
    await submit(app);
    expect(errorOf(app.wrapper, 'Time zone')).toContain('timezone must be an IANA time-zone name');

    await labelled(app.wrapper, 'The plant has photovoltaic panels').setValue(true);
    await labelled(app.wrapper, 'Peak power').setValue('900');
    app.routes.createPlant = apiError(422, 'pv.peakPowerKw exceeds what the grid connection takes');
    await submit(app);
    expect(errorOf(app.wrapper, 'Peak power')).toBe(
      'pv.peakPowerKw exceeds what the grid connection takes',
    );

    app.routes.createPlant = apiError(403, 'Permission PLANTS CREATE required');
    await submit(app);
    expect(app.wrapper.find('[role="alert"].form-error').text()).toContain(
      'Permission PLANTS CREATE required',
    );
  });

  test('Save is disabled while saving, and saves once', async () => {
    let release!: () => void;
    const app = await mountWithApp(PlantForm, {
      routes: routes({
        createPlant: (input: Input) =>
          new Promise((resolve) => {
            release = () => resolve(plant({ ...input.body }));
          }),
      }),
    });
    await fillNew(app.wrapper);
    await app.wrapper.find('form').trigger('submit');
    await app.wrapper.find('form').trigger('submit');
    await app.settle();
    expect(button(app.wrapper, 'Create plant').attributes('disabled')).toBeDefined();
    expect(app.callsTo('createPlant')).toHaveLength(1);
    release();
    await app.settle();
    expect(button(app.wrapper, 'Create plant').attributes('disabled')).toBeUndefined();
    expect(app.wrapper.emitted('saved')).toHaveLength(1);
  });

  test('Cancel emits cancel', async () => {
    const app = await mountWithApp(PlantForm, { routes: routes() });
    await button(app.wrapper, 'Cancel').trigger('click');
    expect(app.wrapper.emitted('cancel')).toHaveLength(1);
  });
});

describe('PlantForm: metadata', () => {
  test('key/value rows become typed metadata; duplicate keys are refused', async () => {
    const app = await mountWithApp(PlantForm, { routes: routes() });
    await fillNew(app.wrapper);
    const add = button(app.wrapper, 'Add entry (metadata)');
    await add.trigger('click');
    await add.trigger('click');
    const keys = app.wrapper.findAll('input[aria-label^="Key of metadata entry"]');
    expect(keys).toHaveLength(2);
    await keys[0]!.setValue('roof');
    await keys[1]!.setValue('roof');
    const values = app.wrapper.findAll('input[aria-label^="Value of metadata"]');
    await values[0]!.setValue('south');
    await values[1]!.setValue('north');
    await submit(app);
    expect(app.wrapper.text()).toContain('The key “roof” is already used: keys must be unique');
    expect(app.callsTo('createPlant')).toHaveLength(0);

    // Renaming the second key, and making it a number.
    await keys[1]!.setValue('panels');
    await values[1]!.setValue('24');
    const typeSelect = app.wrapper.findAllComponents({ name: 'Select' }).at(-1)!;
    typeSelect.vm.$emit('update:modelValue', 'number');
    await app.settle();
    await submit(app);
    expect(bodyOf(app, 'createPlant').metadata).toEqual({
      roof: 'south',
      panels: 24,
    });
  });

  test('the editor shows existing values with their types and removes rows', async () => {
    const app = await mountWithApp(MetadataEditor, {
      props: { modelValue: { address: 'Via Roma 1', floors: 3, heated: true, tags: ['a'] } },
    });
    const values = app.wrapper.findAll<HTMLInputElement>('input[aria-label^="Value of metadata"]');
    expect(values.map((input) => input.element.value)).toEqual(['Via Roma 1', '3', '["a"]']);
    await button(app.wrapper, 'Remove metadata “floors”').trigger('click');
    await app.settle();
    const emitted = app.wrapper.emitted('update:modelValue')!;
    expect(emitted.at(-1)![0]).toEqual({ address: 'Via Roma 1', heated: true, tags: ['a'] });

    const json = app.wrapper.findAll('input[aria-label^="Value of metadata"]').at(-1)!;
    await json.setValue('[a');
    await app.settle();
    expect(app.wrapper.emitted('update:problem')!.at(-1)![0]).toBe(
      'Metadata: Not valid JSON (text needs "quotes")',
    );
  });
});

describe('PlantForm: editing', () => {
  test('shows the plant and sends a PUT with only what changed', async () => {
    const app = await mountWithApp(PlantForm, { props: { plant: plant() }, routes: routes() });
    expect(labelled(app.wrapper, 'Name').element.value).toBe('Demo Home');
    expect(labelled(app.wrapper, 'Latitude').element.value).toBe('46.4983');
    expect(app.wrapper.text()).toContain('DEMO-HOME-001');
    expect(button(app.wrapper, 'Save').exists()).toBe(true);

    await labelled(app.wrapper, 'Name').setValue('Demo Home (renovated)');
    await labelled(app.wrapper, 'Altitude').setValue('270');
    await submit(app);
    const [call] = app.callsTo('updatePlant');
    expect(call!.input!.params).toEqual({ plantUuid: PLANT_UUID });
    expect(call!.input!.body).toEqual({
      name: 'Demo Home (renovated)',
      location: { latitude: 46.4983, longitude: 11.3548, timezone: 'Europe/Rome', altitudeM: 270 },
    });
    expect(app.wrapper.emitted('saved')).toHaveLength(1);
  });

  test('removing PV and an external id sends pv: null and the remaining ids', async () => {
    const app = await mountWithApp(PlantForm, {
      props: { plant: plant({ externalIds: ['A', 'B'] }) },
      routes: routes(),
    });
    await labelled(app.wrapper, 'The plant has photovoltaic panels').setValue(false);
    await button(app.wrapper, 'Remove external id A').trigger('click');
    await submit(app);
    expect(app.callsTo('updatePlant')[0]!.input!.body).toEqual({ externalIds: ['B'], pv: null });
  });

  test('nothing changed: no call, saved with the plant as it is', async () => {
    const app = await mountWithApp(PlantForm, { props: { plant: plant() }, routes: routes() });
    await submit(app);
    expect(app.callsTo('updatePlant')).toHaveLength(0);
    expect(app.wrapper.emitted('saved')![0]![0]).toEqual(plant());
  });

  test('an external id already in the list is refused on the field', async () => {
    const app = await mountWithApp(PlantForm, { props: { plant: plant() }, routes: routes() });
    await labelled(app.wrapper, 'External id').setValue('DEMO-HOME-001');
    await button(app.wrapper, 'Add external id').trigger('click');
    expect(errorOf(app.wrapper, 'External id')).toBe('“DEMO-HOME-001” is already in the list');
  });
});

describe('MetadataEditor: numbers in the user’s language', () => {
  test('a German decimal comma is kept as a number; grouping is refused', () => {
    const t = createTranslator('de');
    expect(rowsFromRecord({ yield: 1234.5 }, 'de')[0]!.value).toBe('1234,5');
    const read = checkMetadataRows([newMetadataRow('yield', 'number', '46,5')], t, 'de');
    expect(read.record).toEqual({ yield: 46.5 });
    const row = newMetadataRow('yield', 'number', '1.234,5');
    expect(checkMetadataRows([row], t, 'de').problems.get(row.id)?.value).toBe(
      '„1.234,5“ bitte ohne Tausendertrennzeichen schreiben, Dezimalstellen nach „,“',
    );
  });
});
