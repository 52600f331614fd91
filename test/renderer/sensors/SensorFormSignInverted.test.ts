// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import SensorForm from '../../../renderer/src/components/sensors/SensorForm.vue';
import { apiError, mountWithApp } from '../support/mountWithApp.ts';
import {
  CATALOG_ROUTES,
  ENERGY,
  PLANT,
  POWER,
  POWER_METER,
  THERMOMETER,
  pageOf,
  sensor,
} from './fixtures.ts';
import { choose, fieldError, inputLabelled, labelFor } from './formHelpers.ts';

/**
 * The sensor form's "Sign inverted" setting (the `signInverted` extension): offered for power
 * and current sensors where the server has it, named and explained, sent only when it says
 * something, and the server's refusal shown on it. Against a server with only the
 * specification's routes it is never shown nor sent.
 */

type Input = { params: Record<string, string>; body: any };
const LABEL = 'Sign inverted (mounted backwards)';

/** A plant's sensor as a server with the extension answers it. */
const extended = sensor(1, { signInverted: false });
/** The same from a server with only the specification's routes: no such field. */
const plain = sensor(1);

function mountForm(
  options: { listed?: unknown; edited?: ReturnType<typeof sensor>; updateSensor?: unknown } = {},
) {
  return mountWithApp(SensorForm, {
    props: { plantUuid: PLANT, devices: [], ...(options.edited && { sensor: options.edited }) },
    routes: {
      ...CATALOG_ROUTES,
      listSensors: options.listed ?? pageOf([extended]),
      createSensor: (input: Input) => sensor(2, input.body),
      updateSensor: options.updateSensor ?? ((input: Input) => sensor(1, input.body)),
      getSensor: (input: Input) => sensor(2, { sensorUuid: input.params.sensorUuid }),
    },
  });
}

const hasToggle = (app: Awaited<ReturnType<typeof mountForm>>) =>
  app.wrapper.findAll('label').some((label) => label.text() === LABEL);

describe('Sign inverted in the sensor form', () => {
  test('offered for a power sensor, named and explained, and sent when ticked', async () => {
    const app = await mountForm();
    await app.settle();
    await choose(app.wrapper, 'Sensor type', POWER_METER.sensorTypeUuid);
    const toggle = inputLabelled(app.wrapper, LABEL);
    expect(toggle.element.checked).toBe(false);
    const help = app.wrapper.find(`[id="${toggle.attributes('aria-describedby')}"]`);
    expect(help.text()).toMatch(/negates every reading .* Power and current sensors only/);

    await toggle.setValue(true);
    await app.wrapper.find('form').trigger('submit');
    await app.settle();
    expect(app.callsTo('createSensor')[0]!.input!.body).toMatchObject({ signInverted: true });
    // One sensor of the plant was enough to learn that the server has the setting.
    expect(app.callsTo('listSensors')[0]!.input!.query).toEqual({ size: 1 });
  });

  test('not offered for an energy counter nor a thermometer', async () => {
    const app = await mountForm();
    await app.settle();
    await choose(app.wrapper, 'Sensor type', POWER_METER.sensorTypeUuid);
    expect(hasToggle(app)).toBe(true);
    // Energy alone: a cumulative counter, whose reversal the setting does not describe.
    await inputLabelled(app.wrapper, 'Power (W)').setValue(false);
    expect(hasToggle(app)).toBe(false);
    await inputLabelled(app.wrapper, 'Power (W)').setValue(true);
    await choose(app.wrapper, 'Sensor type', THERMOMETER.sensorTypeUuid);
    expect(hasToggle(app)).toBe(false);
  });

  test('a new sensor leaves it out unless ticked', async () => {
    const app = await mountForm();
    await app.settle();
    await choose(app.wrapper, 'Sensor type', POWER_METER.sensorTypeUuid);
    await app.wrapper.find('form').trigger('submit');
    await app.settle();
    expect(app.callsTo('createSensor')[0]!.input!.body).not.toHaveProperty('signInverted');
  });

  test('against a server without the extension: never shown, never sent', async () => {
    const app = await mountForm({ listed: pageOf([plain]) });
    await app.settle();
    await choose(app.wrapper, 'Sensor type', POWER_METER.sensorTypeUuid);
    expect(hasToggle(app)).toBe(false);
    await app.wrapper.find('form').trigger('submit');
    await app.settle();
    expect(app.callsTo('createSensor')[0]!.input!.body).not.toHaveProperty('signInverted');

    // Editing a sensor that has no such field asks nothing more and shows nothing.
    const edit = await mountForm({ edited: plain });
    await edit.settle();
    expect(hasToggle(edit)).toBe(false);
    expect(edit.callsTo('listSensors')).toHaveLength(0);
  });

  test('when the plant’s sensors cannot be read, it stays hidden', async () => {
    const app = await mountForm({ listed: apiError(404, 'Not Found') });
    await app.settle();
    await choose(app.wrapper, 'Sensor type', POWER_METER.sensorTypeUuid);
    expect(hasToggle(app)).toBe(false);
  });

  test('editing: shows the stored value, sends only a change', async () => {
    const inverted = sensor(1, { signInverted: true, name: 'Grid' });
    const app = await mountForm({ edited: inverted });
    await app.settle();
    expect(inputLabelled(app.wrapper, LABEL).element.checked).toBe(true);
    await inputLabelled(app.wrapper, 'Name').setValue('Grid meter');
    await app.wrapper.find('form').trigger('submit');
    await app.settle();
    expect(app.callsTo('updateSensor')[0]!.input!.body).not.toHaveProperty('signInverted');

    await inputLabelled(app.wrapper, LABEL).setValue(false);
    await app.wrapper.find('form').trigger('submit');
    await app.settle();
    expect(app.callsTo('updateSensor')[1]!.input!.body).toMatchObject({ signInverted: false });
  });

  test('the server’s refusal (422) lands on the setting', async () => {
    const message =
      "signInverted: applies to sensors whose readings are POWER or CURRENT (signed flows); this sensor's readings are ENERGY";
    const inverted = sensor(1, {
      signInverted: true,
      dataTypesCollectUuids: [POWER.dataTypesCollectUuid, ENERGY.dataTypesCollectUuid],
    });
    const app = await mountForm({ edited: inverted, updateSensor: apiError(422, message) });
    await app.settle();
    // Energy alone would make it refused; kept visible while on, so it can be cleared.
    await inputLabelled(app.wrapper, 'Power (W)').setValue(false);
    expect(labelFor(app.wrapper, LABEL).exists()).toBe(true);
    await app.wrapper.find('form').trigger('submit');
    await app.settle();
    expect(fieldError(app.wrapper, 'signInverted')).toBe(message);
    const toggle = inputLabelled(app.wrapper, LABEL);
    expect(toggle.attributes('aria-describedby')).toContain('-signInverted-error');
  });
});
