// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import ConfirmDeleteDialog from '../../../renderer/src/components/ConfirmDeleteDialog.vue';
import { mountWithApp } from '../support/mountWithApp.ts';

const PRODUCTION = { id: 'acme', name: 'Acme production', kind: 'production' as const };

async function open(props: Record<string, unknown>, environment = {}) {
  const app = await mountWithApp(ConfirmDeleteDialog, {
    props: { visible: true, ...props },
    environment,
  });
  const confirmButton = () =>
    app.wrapper.findAll('button').find((button) => button.text().startsWith('Delete'))!;
  return { ...app, confirmButton };
}

describe('ConfirmDeleteDialog', () => {
  test('outside production a plant needs no typing: confirm emits confirm and closes', async () => {
    const app = await open({ what: 'plant', name: 'Demo Home' });
    expect(app.wrapper.text()).toContain('Delete the plant Demo Home?');
    expect(app.wrapper.find('input').exists()).toBe(false);
    expect(app.confirmButton().text()).toBe('Delete plant');
    await app.wrapper.get('form').trigger('submit');
    expect(app.wrapper.emitted('confirm')).toHaveLength(1);
    expect(app.wrapper.emitted('update:visible')).toEqual([[false]]);
  });

  test('in production a plant needs its name typed; Enter confirms only then', async () => {
    const app = await open({ what: 'plant', name: 'Demo Home' }, PRODUCTION);
    expect(app.wrapper.text()).toContain('production environment Acme production');
    const input = app.wrapper.get('input');
    expect(app.wrapper.get(`label[for="${input.attributes('id')}"]`).text()).toBe(
      "Type the plant's name to confirm",
    );
    expect(app.confirmButton().attributes('disabled')).toBeDefined();

    await input.setValue('Demo');
    await app.wrapper.get('form').trigger('submit');
    expect(app.wrapper.emitted('confirm')).toBeUndefined();

    await input.setValue('Demo Home');
    expect(app.confirmButton().attributes('disabled')).toBeUndefined();
    await app.wrapper.get('form').trigger('submit');
    expect(app.wrapper.emitted('confirm')).toHaveLength(1);
  });

  test('in production other things are confirmed without typing', async () => {
    const app = await open({ what: 'sensor', name: 'Meter 1' }, PRODUCTION);
    expect(app.wrapper.find('input').exists()).toBe(false);
  });

  test('requireTypedName forces typing anywhere', async () => {
    const app = await open({ what: 'sensor type', name: 'pv-meter', requireTypedName: true });
    expect(app.confirmButton().attributes('disabled')).toBeDefined();
    await app.wrapper.get('input').setValue('pv-meter');
    expect(app.confirmButton().attributes('disabled')).toBeUndefined();
  });

  test('Cancel and Escape close without confirming', async () => {
    const app = await open({ what: 'plant', name: 'Demo Home' });
    const cancel = app.wrapper.findAll('button').find((button) => button.text() === 'Cancel')!;
    await cancel.trigger('click');
    expect(app.wrapper.emitted('update:visible')).toEqual([[false]]);

    // The dialog listens for Escape once its opening transition ran: a real transition here.
    const escaped = await mountWithApp(ConfirmDeleteDialog, {
      props: { visible: true, what: 'plant', name: 'Demo Home' },
      stubs: { transition: false },
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', code: 'Escape' }));
    await escaped.settle();
    expect(escaped.wrapper.emitted('update:visible')?.at(-1)).toEqual([false]);
    expect(escaped.wrapper.emitted('confirm')).toBeUndefined();
  });
});
