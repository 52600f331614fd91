// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import type { DOMWrapper } from '@vue/test-utils';
import type { Environment } from '../../../electron/ipc/contract.ts';
import EnvironmentsView from '../../../renderer/src/views/EnvironmentsView.vue';
import { i18n } from '../../../renderer/src/i18n.ts';
import { LOCAL_ENVIRONMENT, mountWithApp } from '../support/mountWithApp.ts';

const STAGING: Environment = {
  id: 'staging',
  name: 'Staging',
  kind: 'sandbox',
  baseUrl: 'https://staging.example.com',
  source: 'user',
};

type App = Awaited<ReturnType<typeof mountWithApp>>;

function button(app: App, name: string): DOMWrapper<Element> {
  const found = app.wrapper
    .findAll('button')
    .find(
      (candidate) =>
        candidate.attributes('aria-label') === name || candidate.text().trim() === name,
    );
  if (!found) throw new Error(`no button "${name}"`);
  return found;
}

function field(app: App, label: string) {
  const found = app.wrapper.findAll('label').find((candidate) => candidate.text() === label);
  if (!found) throw new Error(`no label "${label}"`);
  return app.wrapper.get(`[id="${found.attributes('for')}"]`);
}

/** The field's error: the element its aria-describedby names. */
function errorOf(app: App, label: string): string | undefined {
  const id = field(app, label).attributes('aria-describedby');
  const described = id ? app.wrapper.find(`[id="${id}"]`) : undefined;
  return described?.classes().includes('error') ? described.text() : undefined;
}

async function mountView(channels: Record<string, unknown> = {}) {
  return mountWithApp(EnvironmentsView, {
    route: '/environments',
    otherEnvironments: [STAGING],
    channels: {
      'environments.list': {
        environments: [LOCAL_ENVIRONMENT, STAGING],
        activeId: 'local',
      },
      ...channels,
    },
  });
}

describe('EnvironmentsView', () => {
  test('lists name, kind, address and source; the Local sandbox cannot be edited', async () => {
    const app = await mountView();
    const rows = app.wrapper.findAll('tbody tr');
    expect(rows).toHaveLength(2);
    expect(rows[0]!.text()).toContain('Local sandbox');
    expect(rows[0]!.text()).toContain('Built in');
    expect(rows[0]!.text()).toContain('Active');
    expect(rows[0]!.text()).toContain('cannot be edited or removed');
    expect(rows[0]!.findAll('button').map((b) => b.text())).toEqual(['Test connection']);
    expect(rows[1]!.text()).toContain('https://staging.example.com');
    expect(rows[1]!.text()).toContain('Added by you');
    expect(rows[1]!.findAll('button').map((b) => b.text())).toEqual([
      'Test connection',
      'Edit',
      'Remove',
    ]);
  });

  test("an administrator's locked entry offers no Edit or Remove, and says why", async () => {
    const locked: Environment = {
      id: 'company',
      name: 'Company',
      kind: 'production',
      baseUrl: 'https://api.company.example',
      source: 'admin',
      locked: true,
    };
    const app = await mountView({
      'environments.list': { environments: [LOCAL_ENVIRONMENT, locked], activeId: 'local' },
    });
    const row = app.wrapper.findAll('tbody tr')[1]!;
    expect(row.text()).toContain('Locked by your administrator: cannot be edited or removed');
    expect(row.findAll('button').map((b) => b.text())).toEqual(['Test connection']);
  });

  test('an address other than https is refused unless it is on this machine', async () => {
    const app = await mountView();
    await button(app, 'Add environment').trigger('click');
    await field(app, 'Name').setValue('Plain');
    await field(app, 'Address').setValue('http://api.example.com');
    await app.wrapper.get('[role="dialog"] form').trigger('submit');
    expect(errorOf(app, 'Address')).toBe(
      'Use an https address (http only for a server on this computer)',
    );
    expect(app.calls.filter((call) => call.channel === 'environments.add')).toHaveLength(0);
  });

  test("validates with the contract's schema before sending anything", async () => {
    const app = await mountView();
    await button(app, 'Add environment').trigger('click');
    await field(app, 'Address').setValue('ftp://files.example.com');
    await app.wrapper.get('[role="dialog"] form').trigger('submit');
    expect(errorOf(app, 'Name')).toBe('Required');
    expect(errorOf(app, 'Address')).toBe('Enter a web address starting with http:// or https://');
    expect(app.calls.filter((call) => call.channel === 'environments.add')).toHaveLength(0);
  });

  test("shows the host's refusal (duplicate name) on the Name field", async () => {
    const app = await mountView({
      'environments.add': {
        kind: 'invalidArguments',
        message: "An environment named 'Staging' already exists; choose another name",
      },
    });
    await button(app, 'Add environment').trigger('click');
    await field(app, 'Name').setValue('staging');
    await field(app, 'Address').setValue('https://other.example.com');
    await app.wrapper.get('[role="dialog"] form').trigger('submit');
    await app.settle();
    expect(app.calls.find((call) => call.channel === 'environments.add')?.args).toEqual([
      { name: 'staging', kind: 'sandbox', baseUrl: 'https://other.example.com' },
    ]);
    expect(errorOf(app, 'Name')).toBe(
      "An environment named 'Staging' already exists; choose another name",
    );
    expect(app.wrapper.find('[role="dialog"]').exists()).toBe(true);
  });

  test('adds a production environment and closes the editor', async () => {
    const created: Environment = {
      id: 'acme',
      name: 'Acme production',
      kind: 'production',
      baseUrl: 'https://api.acme.example',
      source: 'user',
    };
    const app = await mountView({ 'environments.add': created });
    await button(app, 'Add environment').trigger('click');
    await field(app, 'Name').setValue('Acme production');
    await app.wrapper.get('#environment-kind-production').setValue(true);
    await field(app, 'Address').setValue('https://api.acme.example');
    app.channels['environments.list'] = {
      environments: [LOCAL_ENVIRONMENT, STAGING, created],
      activeId: 'local',
    };
    await app.wrapper.get('[role="dialog"] form').trigger('submit');
    await app.settle();
    expect(app.calls.find((call) => call.channel === 'environments.add')?.args).toEqual([
      { name: 'Acme production', kind: 'production', baseUrl: 'https://api.acme.example' },
    ]);
    expect(app.wrapper.find('[role="dialog"]').exists()).toBe(false);
    expect(app.wrapper.findAll('tbody tr')).toHaveLength(3);
    expect(app.wrapper.findAll('tbody tr')[2]!.text()).toContain('Production');
  });

  test('edits an environment: the form starts from its values and sends the edit by id', async () => {
    const app = await mountView({ 'environments.update': { ...STAGING, name: 'Staging EU' } });
    await button(app, 'Edit Staging').trigger('click');
    expect((field(app, 'Name').element as HTMLInputElement).value).toBe('Staging');
    expect((field(app, 'Address').element as HTMLInputElement).value).toBe(STAGING.baseUrl);
    await field(app, 'Name').setValue('Staging EU');
    await app.wrapper.get('[role="dialog"] form').trigger('submit');
    await app.settle();
    expect(app.calls.find((call) => call.channel === 'environments.update')?.args).toEqual([
      'staging',
      { name: 'Staging EU', kind: 'sandbox', baseUrl: STAGING.baseUrl },
    ]);
  });

  test("test connection shows the host's message, in the editor and per row", async () => {
    const app = await mountView({
      'environments.testConnection': ([url]: [string]) => ({
        ok: url.includes('staging'),
        message: url.includes('staging')
          ? 'Reachable: Plant Energy API answered in 12 ms'
          : 'Not reachable: connection refused',
      }),
    });
    await button(app, 'Test connection to Staging').trigger('click');
    await app.settle();
    expect(app.wrapper.findAll('tbody tr')[1]!.get('[role="status"]').text()).toBe(
      'Reachable: Plant Energy API answered in 12 ms',
    );

    await button(app, 'Add environment').trigger('click');
    const dialog = () => app.wrapper.get('[role="dialog"]');
    await field(app, 'Address').setValue('not an address');
    await dialog()
      .findAll('button')
      .find((b) => b.text() === 'Test connection')!
      .trigger('click');
    expect(errorOf(app, 'Address')).toBe('Enter a web address starting with http:// or https://');
    await field(app, 'Address').setValue('https://down.example.com');
    await dialog()
      .findAll('button')
      .find((b) => b.text() === 'Test connection')!
      .trigger('click');
    await app.settle();
    expect(dialog().get('[role="status"]').text()).toBe('Not reachable: connection refused');
  });

  test('removes an environment after confirmation', async () => {
    const app = await mountView({ 'environments.remove': undefined });
    await button(app, 'Remove Staging').trigger('click');
    const dialog = app.wrapper.get('[role="dialog"]');
    expect(dialog.text()).toContain('Delete the environment Staging?');
    app.channels['environments.list'] = { environments: [LOCAL_ENVIRONMENT], activeId: 'local' };
    await dialog.get('form').trigger('submit');
    await app.settle();
    expect(app.calls.find((call) => call.channel === 'environments.remove')?.args).toEqual([
      'staging',
    ]);
    expect(app.wrapper.findAll('tbody tr')).toHaveLength(1);
  });

  test('in German: the list, its actions and the editor', async () => {
    i18n.global.locale.value = 'de';
    const app = await mountView();
    const rows = app.wrapper.findAll('tbody tr').map((row) => row.text());
    expect(rows[1]).toContain('Von Ihnen hinzugefügt');
    expect(rows[0]).toContain('Integriert: kann nicht bearbeitet oder entfernt werden');
    await button(app, 'Staging bearbeiten').trigger('click');
    await app.settle();
    expect(field(app, 'Adresse').element).toBeDefined();
    expect(app.wrapper.find('legend').text()).toBe('Art');
    expect(button(app, 'Speichern').exists()).toBe(true);
    expect(button(app, 'Verbindung testen: Staging').exists()).toBe(true);
  });
});

describe('the built-in Local sandbox’s name', () => {
  test('is said in the user’s language; a name someone wrote stays as written', async () => {
    i18n.global.locale.value = 'it';
    try {
      const mine: Environment = { ...STAGING, name: 'Local sandbox', id: 'mine', source: 'user' };
      const app = await mountView({
        'environments.list': { environments: [LOCAL_ENVIRONMENT, mine], activeId: 'local' },
      });
      const names = app.wrapper.findAll('tbody tr').map((row) => row.find('td, th').text());
      expect(names[0]).toMatch(/^Sandbox locale/);
      expect(names[1]).toMatch(/^Local sandbox/);
      i18n.global.locale.value = 'de';
      await app.settle();
      expect(app.wrapper.find('tbody tr').find('td, th').text()).toMatch(/^Lokale Sandbox/);
    } finally {
      i18n.global.locale.value = 'en';
    }
  });
});
