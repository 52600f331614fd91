// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import PlantForm from '../../../renderer/src/components/plants/PlantForm.vue';
import { zoneProposal } from '../../../renderer/src/composables/zoneProposal.ts';
import { mountWithApp } from '../support/mountWithApp.ts';
import { button, labelled, plant, PLANT_UUID } from './fixtures.ts';

/**
 * The plant form proposes the time zone of the typed coordinates (an offline lookup): a
 * suggestion the user accepts, never a silent change of the zone they chose.
 */

type Input = { body: any };

describe('zoneProposal', () => {
  test('the zone of complete coordinates, unless it is the chosen one', () => {
    expect(zoneProposal('45.07', '7.69', 'UTC', 'en')).toBe('Europe/Rome');
    expect(zoneProposal('45,07', '7,69', 'UTC', 'en')).toBe('Europe/Rome');
    expect(zoneProposal('45.07', '7.69', 'Europe/Rome', 'en')).toBeNull();
    expect(zoneProposal('27.7', '85.3', 'Europe/Rome', 'en')).toBe('Asia/Kathmandu');
    expect(zoneProposal('45.07', '', 'UTC', 'en')).toBeNull();
    expect(zoneProposal('north', '7.69', 'UTC', 'en')).toBeNull();
    expect(zoneProposal('95', '7.69', 'UTC', 'en')).toBeNull();
  });

  test('coordinates typed with a decimal comma in German', () => {
    expect(zoneProposal('46,4983', '11,3548', 'UTC', 'de')).toBe('Europe/Rome');
    expect(zoneProposal('46.4983', '11.3548', 'UTC', 'de')).toBe('Europe/Rome');
  });
});

describe('PlantForm: the time zone proposal', () => {
  const mount = () =>
    mountWithApp(PlantForm, {
      routes: { createPlant: (input: Input) => plant({ ...input.body, plantUuid: PLANT_UUID }) },
    });

  test('typed coordinates propose their zone; the chosen zone changes only when accepted', async () => {
    const app = await mount();
    const select = app.wrapper.findComponent({ name: 'Select' });
    select.vm.$emit('update:modelValue', 'Asia/Kathmandu');
    await app.settle();
    expect(app.wrapper.find('[data-zone-proposal]').exists()).toBe(false);

    await labelled(app.wrapper, 'Latitude').setValue('45.07');
    await labelled(app.wrapper, 'Longitude').setValue('7.69');
    const proposal = app.wrapper.find('[data-zone-proposal]');
    expect(proposal.text()).toContain('The coordinates are in the time zone Europe/Rome.');
    // Not applied behind the user's back.
    expect(select.props('modelValue')).toBe('Asia/Kathmandu');

    await button(app.wrapper, 'Use the time zone Europe/Rome').trigger('click');
    await app.settle();
    expect(select.props('modelValue')).toBe('Europe/Rome');
    expect(app.wrapper.find('[data-zone-proposal]').exists()).toBe(false);
  });

  test('a zone already matching the coordinates proposes nothing', async () => {
    const app = await mount();
    app.wrapper.findComponent({ name: 'Select' }).vm.$emit('update:modelValue', 'Europe/Rome');
    await labelled(app.wrapper, 'Latitude').setValue('45.07');
    await labelled(app.wrapper, 'Longitude').setValue('7.69');
    await app.settle();
    expect(app.wrapper.find('[data-zone-proposal]').exists()).toBe(false);
  });
});
