// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import AppNav from '../../../renderer/src/components/AppNav.vue';
import AppBreadcrumbs from '../../../renderer/src/components/AppBreadcrumbs.vue';
import ConfirmDeleteDialog from '../../../renderer/src/components/ConfirmDeleteDialog.vue';
import MetadataEditor from '../../../renderer/src/components/MetadataEditor.vue';
import AccountMenu from '../../../renderer/src/components/AccountMenu.vue';
import { i18n } from '../../../renderer/src/i18n.ts';
import { mountWithApp } from '../support/mountWithApp.ts';

const PLANT_UUID = '11111111-1111-4111-8111-111111111111';
const PRODUCTION = { id: 'acme', name: 'Acme', kind: 'production' as const };

/** The shell's own words follow the chosen language: German here, as an installer in Bolzano reads it. */
describe('the shell in German', () => {
  test('the navigation and the breadcrumbs', async () => {
    i18n.global.locale.value = 'de';
    const nav = await mountWithApp(AppNav, { route: '/catalogs/sensor-types' });
    expect(nav.wrapper.get('nav').attributes('aria-label')).toBe('Hauptnavigation');
    expect(nav.wrapper.findAll('a').map((link) => link.text())).toEqual([
      'Flotte',
      'Alarme',
      'Anlagen',
      'Berichte',
      'Inbetriebnahme',
      'Kataloge',
      'Umgebungen',
      'Support',
    ]);

    const crumbs = await mountWithApp(AppBreadcrumbs, {
      route: `/plants/${PLANT_UUID}/devices`,
      routes: { getPlant: { name: 'Demo Home' } },
    });
    expect(crumbs.wrapper.findAll('li').map((crumb) => crumb.text())).toEqual([
      'Anlagen',
      'Demo Home',
      'Geräte',
    ]);
  });

  test('the account panel says what the user may do', async () => {
    i18n.global.locale.value = 'de';
    const app = await mountWithApp(AccountMenu);
    expect(app.wrapper.findAll('button').map((button) => button.text())).toContain('Abmelden');
    // The name is the button's own text, after a hidden "Konto:" (label in name).
    expect(app.wrapper.get('.account-button').text()).toMatch(/^Konto: /);
  });

  test('deleting asks in German, with the thing named as the caller says it', async () => {
    i18n.global.locale.value = 'de';
    const app = await mountWithApp(ConfirmDeleteDialog, {
      props: { visible: true, what: 'plant', thing: 'Anlage', name: 'Demo Home' },
      environment: PRODUCTION,
    });
    const text = app.wrapper.text();
    expect(text).toContain('Anlage Demo Home löschen? Das lässt sich nicht rückgängig machen.');
    expect(text).toContain('Dies ist die Produktivumgebung Acme: Echte Anlagen sind betroffen.');
    expect(text).toContain('Genau „Demo Home“ eingeben.');
    const buttons = app.wrapper.findAll('button').map((button) => button.text());
    expect(buttons).toEqual(expect.arrayContaining(['Abbrechen', 'Anlage löschen']));
  });

  test('the metadata editor names its controls and its problems in German', async () => {
    i18n.global.locale.value = 'de';
    const app = await mountWithApp(MetadataEditor, {
      props: { modelValue: { Stockwerke: 3 } },
    });
    expect(app.wrapper.find('legend').text()).toBe('Metadaten');
    const value = app.wrapper.get('input[aria-label="Wert von “Stockwerke” (Metadaten)"]');
    await value.setValue('drei');
    await app.settle();
    expect(app.wrapper.emitted('update:problem')!.at(-1)![0]).toBe(
      'Metadaten: „drei“ ist keine Zahl',
    );
  });
});
