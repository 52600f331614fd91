// @vitest-environment happy-dom
import { afterEach, describe, expect, test } from 'vitest';
import type { AcceptanceRecheck as Recheck } from '../../../electron/ipc/contract.ts';
import AcceptanceRecheck from '../../../renderer/src/components/commissioning/AcceptanceRecheck.vue';
import CommissioningReport from '../../../renderer/src/components/commissioning/CommissioningReport.vue';
import CommissioningVerification from '../../../renderer/src/components/commissioning/CommissioningVerification.vue';
import type { Verification } from '../../../renderer/src/composables/commissioningChecks.ts';
import { i18n } from '../../../renderer/src/i18n.ts';
import { mountWithApp } from '../support/mountWithApp.ts';
import { commissionedRoof, PLANT, PLANT_UUID } from './fixtures.ts';

/**
 * The report is handed to the customer in the installer's language: its headings, result,
 * tables, notes and signature block in German (one line in Italian), the dates in the plant's
 * zone as German writes them, a plural chosen by count, and decimal commas in the acceptance
 * re-check's numbers.
 */

const GENERATED_AT = new Date('2026-11-20T11:00:00Z');
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

afterEach(() => {
  i18n.global.locale.value = 'en';
});

function verification(passed: boolean[]): Verification {
  return {
    passed: passed.every(Boolean),
    checkedAt: '2026-11-20T10:00:00Z',
    checks: passed.map((ok, index) => ({
      id: `check${index}`,
      title: `Check ${index}`,
      passed: ok,
      reason: '',
      details: [],
    })),
  } as unknown as Verification;
}

async function mountReport(props: Record<string, unknown>) {
  const roof = commissionedRoof();
  const app = await mountWithApp(CommissioningReport, {
    props: {
      plant: PLANT,
      devices: roof.devices,
      sensors: [roof.pv, { ...roof.grid, signInverted: true }],
      installer: { name: 'Ines Installer', email: 'installer@plantdesk.test' },
      environmentName: 'Lokale Sandbox',
      generatedAt: GENERATED_AT,
      ...props,
    },
    channels: { 'acceptance.get': null },
  });
  await app.settle();
  return app.wrapper;
}

describe('the commissioning report in German', () => {
  test('headings, result with its plural, dates in the plant zone, the signature block', async () => {
    i18n.global.locale.value = 'de';
    const wrapper = await mountReport({
      verification: verification([true, true]),
      notes: {
        updatedAt: '2026-11-20T10:00:00Z',
        steps: { sensors: { text: 'Wandler auf L1', photos: [] } },
      },
    });
    expect(wrapper.find('h3').text()).toBe('Inbetriebnahmeprotokoll: Roof in Turin');
    const facts = wrapper.find('.facts');
    expect(facts.findAll('dt').map((term) => term.text())).toEqual([
      'Datum und Uhrzeit',
      'Installateur',
      'Umgebung',
      'Ergebnis',
    ]);
    // 11:00 UTC is noon in Rome, in German words and order.
    expect(facts.find('time').text()).toBe('20. November 2026 um 12:00');
    expect(facts.find('.result').text()).toBe(
      'BESTANDEN: Alle 2 Prüfungen sind bestanden (geprüft am 20. November 2026 um 11:00)',
    );
    const headings = wrapper.findAll('h4').map((heading) => heading.text());
    expect(headings).toEqual(
      expect.arrayContaining([
        'Anlage',
        'Geräte (2)',
        'Sensoren (2)',
        'Prüfung',
        'Verkabelung und Plausibilität',
        'Als invertiert erfasste Sensoren',
        'Live-Werte zum Zeitpunkt der Prüfung',
        'Notizen und Fotos des Installateurs',
        'Unterschrift',
      ]),
    );
    expect(wrapper.find('[data-report-inverted] li').text()).toMatch(
      /^Grid connection: als invertiert erfasst: Der Server kehrt/,
    );
    expect(wrapper.find('[data-report-notes-step="sensors"] h5').text()).toBe('Sensoren');
    const signature = wrapper.find('[data-report-signature]');
    expect(signature.findAll('dt').map((term) => term.text())).toEqual([
      'Installateur',
      'Unterschrift',
      'Datum',
    ]);
    expect(signature.findAll('dd')[2]!.text()).toBe('20. November 2026');
  });

  test('one check: the singular; failures counted; a draft watermarked in German', async () => {
    i18n.global.locale.value = 'de';
    const one = await mountReport({ verification: verification([true]) });
    expect(one.find('.result').text()).toMatch(/^BESTANDEN: Die Prüfung ist bestanden \(/);
    const failed = await mountReport({ verification: verification([true, false, false]) });
    expect(failed.find('.result').text()).toMatch(
      /^NICHT BESTANDEN: 2 von 3 Prüfungen nicht bestanden \(/,
    );
    const draft = await mountReport({
      verification: null,
      notVerified: true,
      notes: {
        updatedAt: '2026-11-20T10:00:00Z',
        steps: {
          devices: {
            text: '',
            photos: [{ photoId: 'p', dataUrl: PNG, caption: '', addedAt: '2026-11-20T10:00:00Z' }],
          },
        },
      },
    });
    expect(draft.find('.watermark').text()).toBe('Nicht geprüft');
    expect(draft.find('h3').text()).toBe(
      'Inbetriebnahmeprotokoll: Roof in Turin (Entwurf, nicht geprüft)',
    );
    expect(draft.find('[data-report-direction]').text()).toContain('Nicht durchgeführt.');
    expect(draft.find('[data-report-notes] img').attributes('alt')).toBe(
      'Foto 1 des Schritts Geräte',
    );
  });

  test('the verification step says when it checked on the plant clock, naming the zone', async () => {
    i18n.global.locale.value = 'de';
    const snapshot = { devices: [], sensors: [], verification: verification([true]) };
    const app = await mountWithApp(CommissioningVerification, {
      props: { snapshot, verifying: false, error: null, zone: 'Asia/Kathmandu' },
    });
    // 10:00 UTC is 15:45 in Kathmandu, whatever zone this computer is in.
    expect(app.wrapper.get('.checked-at').text()).toBe('Geprüft um 15:45:00 (Asia/Kathmandu).');
  });

  test('in Italian too', async () => {
    i18n.global.locale.value = 'it';
    const wrapper = await mountReport({ verification: verification([true, false]) });
    expect(wrapper.find('h3').text()).toBe('Verbale di messa in servizio: Roof in Turin');
    expect(wrapper.find('.result').text()).toMatch(
      /^NON SUPERATO: 1 verifica su 2 non superata \(verificato il 20 novembre 2026/,
    );
  });
});

const DONE: Recheck = {
  plantUuid: PLANT_UUID,
  plantName: 'Roof in Turin',
  commissionedAt: '2026-06-21T08:00:00.000Z',
  dueAt: '2026-06-22T08:00:00.000Z',
  status: 'done',
  lastError: null,
  result: {
    checkedAt: '2026-06-22T08:00:05.000Z',
    windowStart: '2026-06-21T08:00:00.000Z',
    windowEnd: '2026-06-22T08:00:00.000Z',
    status: 'warning',
    findings: [
      {
        id: 'dataCoverage',
        title: 'Datenabdeckung über 24 Stunden',
        status: 'warning',
        figures: [{ name: 'Netz, letzte 24 h', value: 88.5, unit: '%' }],
        finding: 'Lücken in den Daten.',
        action: 'Netzwerkverbindung des Gateways prüfen.',
      },
    ],
  },
};

describe('the acceptance re-check in German', () => {
  test('pending and done: German words, German dates, decimal commas', async () => {
    i18n.global.locale.value = 'de';
    const pending = await mountWithApp(AcceptanceRecheck, {
      props: { plantUuid: PLANT_UUID, timezone: 'Europe/Rome' },
      channels: { 'acceptance.get': { ...DONE, status: 'pending', result: null } },
    });
    await pending.settle();
    expect(pending.wrapper.find('h4').text()).toBe('Abnahme-Nachprüfung (24 h)');
    expect(pending.wrapper.find('[data-status="pending"]').text()).toMatch(
      /^AUSSTEHEND: fällig am 22. Juni 2026 um 10:00 \(24 Stunden nach der Inbetriebnahme am 21. Juni 2026 um 10:00\)/,
    );

    const done = await mountWithApp(AcceptanceRecheck, {
      props: { plantUuid: PLANT_UUID, timezone: 'Europe/Rome' },
      channels: { 'acceptance.get': DONE },
    });
    await done.settle();
    expect(done.wrapper.find('.overall').text()).toMatch(/^WARNUNG: die 24 Stunden ab 21. Juni/);
    const table = done.wrapper.find('table[aria-label="Ergebnisse der Abnahme"]');
    expect(table.findAll('thead th').map((cell) => cell.text())).toEqual([
      'Prüfung',
      'Ergebnis',
      'Zahlen',
      'Befund',
    ]);
    const row = table.find('tbody tr');
    expect(row.text()).toContain('Netz, letzte 24 h: 88,5 %');
    expect(row.text()).toContain('Was zu tun ist: Netzwerkverbindung');
  });
});
