// @vitest-environment happy-dom
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { SupportBundlePreview } from '../../../electron/ipc/contract.ts';
import App from '../../../renderer/src/App.vue';
import PlantView from '../../../renderer/src/views/PlantView.vue';
import SupportView from '../../../renderer/src/views/SupportView.vue';
import { captureDownloads } from '../charts/support.ts';
import { plant, PLANT_UUID } from '../plants/fixtures.ts';
import { mountWithApp, type ChannelAnswers } from '../support/mountWithApp.ts';
import { button } from '../support/queries.ts';

const BUNDLE: SupportBundlePreview = {
  bundleId: '33333333-3333-4333-8333-333333333333',
  fileName: 'plantdesk-support-demo-home-20260621-100000Z.zip',
  plantName: 'Demo Home',
  files: [
    { name: 'manifest.json', bytes: 812 },
    { name: 'plant/vendors.json', bytes: 2_048 },
    { name: 'plant/data-health.unavailable.txt', bytes: 74 },
    { name: 'logs/recent.log', bytes: 41_200 },
  ],
  zipBytes: 12_345,
  missing: ['dataHealth'],
};

/** The host the page runs in: the desktop app saves with a dialog, the browser downloads. */
function appInfo(host: 'electron' | 'web') {
  return {
    name: 'PlantDesk',
    version: '1.0.0',
    host,
    keychain: { available: true },
    now: Date.parse('2026-06-21T10:00:00Z'),
    language: { chosen: null, system: 'en' as const },
  };
}

/** The file list as a user reads it: each row's file and size. */
function rows(wrapper: { findAll(selector: string): { text(): string }[] }) {
  return wrapper.findAll('.bundle-files tbody tr').map((row) => row.text());
}

afterEach(() => vi.restoreAllMocks());

/** The plant's page in the desktop app, its support bundle dialog opened. */
async function openOnPlantPage(channels: ChannelAnswers) {
  const app = await mountWithApp(PlantView, {
    props: { plantUuid: PLANT_UUID },
    route: `/plants/${PLANT_UUID}`,
    routes: { getPlant: plant() },
    channels: { 'app.info': appInfo('electron'), ...channels },
  });
  await button(app.wrapper, 'Support bundle…').trigger('click');
  await app.settle();
  return app;
}

describe('support bundle on the plant page', () => {
  test('lists the files and sizes before saving, and saves only when asked', async () => {
    const save = vi.fn(() => ({ saved: true, path: '/home/ines/Documents/bundle.zip' }));
    const app = await openOnPlantPage({
      'supportBundle.prepare': BUNDLE,
      'supportBundle.save': save,
    });

    const prepared = app.calls.filter((call) => call.channel === 'supportBundle.prepare');
    expect(prepared.map((call) => call.args)).toEqual([[{ plantUuid: PLANT_UUID }]]);
    expect(app.wrapper.find('.bundle-files caption').text()).toBe(
      'plantdesk-support-demo-home-20260621-100000Z.zip (12.3 kB)',
    );
    expect(rows(app.wrapper)).toEqual([
      'manifest.json812 bytes',
      'plant/vendors.json2 kB',
      'plant/data-health.unavailable.txt74 bytes',
      'logs/recent.log41.2 kB',
    ]);
    // What the server did not give is said, not left to be guessed from a file name.
    expect(app.wrapper.find('.missing').text()).toContain('Data health');
    // Listed, not saved: the user has not chosen yet.
    expect(save).not.toHaveBeenCalled();

    await button(app.wrapper, 'Save…').trigger('click');
    await app.settle();
    expect(save).toHaveBeenCalledWith([{ bundleId: BUNDLE.bundleId }]);
    expect(app.wrapper.find('[role="status"]').text()).toContain(
      'Support bundle saved to /home/ines/Documents/bundle.zip',
    );
  });

  test('says why a bundle could not be made, and tries again', async () => {
    const app = await openOnPlantPage({
      'supportBundle.prepare': { kind: 'network', message: 'The server is not reachable' },
    });
    expect(app.wrapper.find('[role="alert"]').text()).toContain('The server is not reachable');
    expect(button(app.wrapper, 'Save…').attributes('disabled')).toBeDefined();

    app.channels['supportBundle.prepare'] = BUNDLE;
    await button(app.wrapper, 'Try again').trigger('click');
    await app.settle();
    expect(rows(app.wrapper)).toHaveLength(BUNDLE.files.length);
  });
});

describe('support screen', () => {
  test('in the browser, makes the app-wide bundle and downloads it', async () => {
    const downloads = captureDownloads();
    const app = await mountWithApp(SupportView, {
      route: '/support',
      user: null,
      channels: {
        'app.info': appInfo('web'),
        'supportBundle.prepare': { ...BUNDLE, plantName: null },
        'supportBundle.download': { fileName: BUNDLE.fileName, base64: 'UEsFBgA=' },
      },
    });
    expect(app.wrapper.find('h1').text()).toBe('Help and support');
    await button(app.wrapper, 'Support bundle…').trigger('click');
    await app.settle();
    const prepared = app.calls.find((call) => call.channel === 'supportBundle.prepare');
    expect(prepared?.args).toEqual([{}]);
    expect(rows(app.wrapper)).toHaveLength(BUNDLE.files.length);
    expect(downloads).toEqual([]);

    await button(app.wrapper, 'Download').trigger('click');
    await app.settle();
    expect(downloads.map((download) => [download.name, download.url])).toEqual([
      [BUNDLE.fileName, 'data:application/zip;base64,UEsFBgA='],
    ]);
    expect(app.wrapper.find('[role="status"]').text()).toContain(`${BUNDLE.fileName} downloaded`);
  });
});

describe("the desktop Help menu's Create Support Bundle…", () => {
  test('opens the support screen from wherever the user is', async () => {
    const app = await mountWithApp(App, { route: '/plants' });
    app.emit('supportBundle.open', {});
    await app.settle();
    expect(app.router.currentRoute.value.name).toBe('support');
  });
});
