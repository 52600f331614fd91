import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApiClient } from '../../../electron/services/api/apiClient.ts';
import { judgeAcceptance } from '../../../electron/services/acceptance/acceptanceChecks.ts';
import { readAcceptanceInput } from '../../../electron/services/acceptance/acceptanceSources.ts';
import { wordsOf, type StoredText } from '../../../electron/services/hostText.ts';
import { createTranslator } from '../../../i18n/translator.ts';
import { TestServer } from '../../support/testServer.ts';

/**
 * The re-check's readings from a real server: Demo Home's simulated first day after a
 * commissioning on the summer solstice, with the sensor-statuses extension and against a
 * server with only the specification's routes.
 */

const CLOCK = '2026-06-22T12:00:00+02:00';
const WINDOW = {
  startMs: Date.parse('2026-06-21T10:30:00+02:00'),
  endMs: Date.parse('2026-06-22T10:30:00+02:00'),
};

/** A kept text (key and figures) in English words, as the page reads it. */
const english = (text: StoredText) =>
  wordsOf(text, { t: createTranslator('en'), locale: 'en', now: WINDOW.endMs });

const servers: TestServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

async function readingsFrom(extensions: boolean) {
  const server = await TestServer.start({
    clock: CLOCK,
    extensions,
    simulation: { historyDays: 2, live: false },
  });
  servers.push(server);
  const token = await server.tokenFor('installer');
  const client = createApiClient({
    baseUrl: server.url,
    credentials: { token: async () => token, renewAfter401: async () => false },
  });
  return readAcceptanceInput(client, await server.demoPlantUuid(), WINDOW);
}

describe('the acceptance re-check on a simulated plant', () => {
  let withExtensions: Awaited<ReturnType<typeof readingsFrom>>;
  let specificationOnly: Awaited<ReturnType<typeof readingsFrom>>;
  beforeAll(async () => {
    [withExtensions, specificationOnly] = await Promise.all([
      readingsFrom(true),
      readingsFrom(false),
    ]);
  }, 60_000);

  test('with sensor statuses: every sensor covered, production plausible, nothing open', () => {
    expect(withExtensions.sensors?.length).toBeGreaterThan(2);
    expect(withExtensions.site?.pv.peakPowerKw).toBeGreaterThan(0);
    const result = judgeAcceptance({
      ...withExtensions,
      checkedAtMs: WINDOW.endMs,
      openAlerts: [],
    });
    const [coverage, production, alerts] = result.findings;
    expect(coverage!.status).toBe('pass');
    expect(
      coverage!.figures.find((f) => english(f.name) === 'production (plant), window')?.value,
    ).toBe(100);
    expect(['pass', 'warning']).toContain(production!.status);
    expect(
      production!.figures.find((f) => english(f.name) === 'production')?.value,
    ).toBeGreaterThan(1);
    expect(alerts!.status).toBe('pass');
  });

  test('with only the specification: plant totals, the same production', () => {
    expect(specificationOnly.sensors).toBeNull();
    const result = judgeAcceptance({
      ...specificationOnly,
      checkedAtMs: WINDOW.endMs,
      openAlerts: [],
    });
    expect(english(result.findings[0]!.finding)).toMatch(/plant totals only/);
    expect(specificationOnly.production).toEqual(withExtensions.production);
  });
});
