// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import { EnvironmentInput } from '../../../electron/ipc/contract.ts';
import { PlantDeskError } from '../../../renderer/src/bridge.ts';
import { i18n } from '../../../renderer/src/i18n.ts';
import { zodIssueText } from '../../../i18n/zodIssueText.ts';
import { createTranslator } from '../../../i18n/translator.ts';
import { z } from 'zod';
import {
  errorMessage,
  failureMessage,
  fieldForMessage,
  useFormErrors,
} from '../../../renderer/src/composables/useFormErrors.ts';

function api(status: number, message: string) {
  return new PlantDeskError({ kind: 'api', status, error: 'E', message, path: '/plants' });
}

const PLANT_FIELDS = ['name', 'externalIds', 'latitude', 'longitude', 'timezone'] as const;

describe('useFormErrors.fromServer', () => {
  test('the fields the server lists win over what its message seems to name', () => {
    const form = useFormErrors(PLANT_FIELDS);
    // Read as text, "name" would be the field; the list says the time zone.
    const refusal = 'The name of this zone is unknown';
    form.fromServer(
      new PlantDeskError({
        kind: 'api',
        status: 400,
        error: 'Bad Request',
        message: `${refusal}; Request body is incomplete`,
        path: '/plants',
        fieldErrors: [{ field: 'location.timezone', message: refusal }],
      }),
    );
    expect(form.errors.timezone).toBe(refusal);
    expect(form.errors.name).toBeUndefined();
    // A detail the list leaves out is about the whole form.
    expect(form.formError.value).toBe('Request body is incomplete');
  });

  test('a listed field the form does not have shows above the form', () => {
    const form = useFormErrors(PLANT_FIELDS);
    form.fromServer(
      new PlantDeskError({
        kind: 'api',
        status: 422,
        error: 'Unprocessable Entity',
        message: 'pv.tiltDeg is out of range',
        path: '/plants',
        fieldErrors: [{ field: 'pv.tiltDeg', message: 'pv.tiltDeg is out of range' }],
      }),
    );
    expect(form.formError.value).toBe('pv.tiltDeg is out of range');
  });

  test('a 400 puts each of its details on the field it names', () => {
    const form = useFormErrors(PLANT_FIELDS);
    form.fromServer(
      api(
        400,
        "Invalid body field 'location.latitude': Too big: expected number to be <=90; body field 'name' is required",
      ),
    );
    expect(form.errors.latitude).toBe(
      "Invalid body field 'location.latitude': Too big: expected number to be <=90",
    );
    expect(form.errors.name).toBe("body field 'name' is required");
    expect(form.errors.longitude).toBeUndefined();
    expect(form.formError.value).toBeNull();
  });

  test('a 409 lands on the field its words name (external id → externalIds)', () => {
    const form = useFormErrors(PLANT_FIELDS);
    const message = "External id 'INV-1' is already used by another plant of the organization";
    form.fromServer(api(409, message));
    expect(form.errors.externalIds).toBe(message);
    expect(form.formError.value).toBeNull();
  });

  test('a 409 naming a code lands on code', () => {
    const form = useFormErrors(['code', 'name'] as const);
    form.fromServer(api(409, "Sensor type code 'pv-meter' is already used"));
    expect(form.errors.code).toBe("Sensor type code 'pv-meter' is already used");
    expect(form.errors.name).toBeUndefined();
  });

  test('a 422 naming an identifier lands there, not on "name" in "does not name"', () => {
    const form = useFormErrors(['name', 'sensorTypeUuid'] as const);
    form.fromServer(api(422, 'sensorTypeUuid 123 does not name a sensor type'));
    expect(form.errors.sensorTypeUuid).toBe('sensorTypeUuid 123 does not name a sensor type');
    expect(form.errors.name).toBeUndefined();

    const nameOnly = useFormErrors(['name'] as const);
    nameOnly.fromServer(api(422, 'deviceTypeUuid 9 does not name a device type'));
    expect(nameOnly.errors.name).toBeUndefined();
    expect(nameOnly.formError.value).toBe('deviceTypeUuid 9 does not name a device type');
  });

  test('a 422 naming no field of the form goes above the form', () => {
    const form = useFormErrors(PLANT_FIELDS);
    form.fromServer(api(422, 'The plant has no PV settings'));
    expect(form.formError.value).toBe('The plant has no PV settings');
    expect(PLANT_FIELDS.every((field) => form.errors[field] === undefined)).toBe(true);
  });

  test("the host's refusals (invalidArguments) map too: a duplicate environment name", () => {
    const form = useFormErrors(['name', 'kind', 'baseUrl'] as const);
    const message = "An environment named 'Acme' already exists; choose another name";
    form.fromServer(new PlantDeskError({ kind: 'invalidArguments', message }));
    expect(form.errors.name).toBe(message);
  });

  test('403, network and unknown failures show their message above the form', () => {
    const form = useFormErrors(['name'] as const);
    form.fromServer(api(403, 'Permission PLANTS UPDATE required'));
    expect(form.formError.value).toBe('Permission PLANTS UPDATE required');
    expect(form.errors.name).toBeUndefined();

    form.fromServer(new PlantDeskError({ kind: 'network', message: 'Server unreachable' }));
    expect(form.formError.value).toBe('Server unreachable');

    form.fromServer(new Error('boom'));
    expect(form.formError.value).toBe('Something went wrong; try again.');
  });

  test('each answer replaces the previous messages; clear empties them', () => {
    const form = useFormErrors(['name', 'code'] as const);
    form.fromServer(api(409, "Device type code 'x' is already used"));
    form.fromServer(api(400, "body field 'name' is required"));
    expect(form.errors.code).toBeUndefined();
    expect(form.errors.name).toBe("body field 'name' is required");
    expect(form.isClear()).toBe(false);
    form.clear();
    expect(form.isClear()).toBe(true);
  });
});

describe('useFormErrors.fromZod', () => {
  test("shows the contract schema's verdict on its fields, in the user's words", () => {
    const form = useFormErrors(['name', 'kind', 'baseUrl'] as const);
    const parsed = EnvironmentInput.safeParse({ name: ' ', kind: 'sandbox', baseUrl: 'ftp://x' });
    expect(parsed.success).toBe(false);
    form.fromZod(parsed.error!);
    expect(form.errors.name).toBe('Required');
    expect(form.errors.baseUrl).toBe('Enter a web address starting with http:// or https://');
    expect(form.errors.kind).toBeUndefined();
  });

  test('in German: codes, bounds and the contract’s own refinement', () => {
    i18n.global.locale.value = 'de';
    try {
      const form = useFormErrors(['name', 'kind', 'baseUrl'] as const);
      const parsed = EnvironmentInput.safeParse({
        name: 'x'.repeat(101),
        kind: 'staging',
        baseUrl: 'http://api.example.com',
      });
      form.fromZod(parsed.error!);
      expect(form.errors).toEqual({
        name: 'Höchstens 100 Zeichen',
        kind: 'Wählen Sie eine der Optionen',
        baseUrl: 'Verwenden Sie eine https-Adresse (http nur für einen Server auf diesem Computer)',
      });
    } finally {
      i18n.global.locale.value = 'en';
    }
  });

  test('nested paths reach the field they end with or lie under; others go above the form', () => {
    const form = useFormErrors(['latitude', 'externalIds'] as const);
    form.fromZod({
      issues: [
        { path: ['location', 'latitude'], message: 'too big' },
        { path: ['externalIds', 0], message: 'too long' },
        { path: ['pv'], message: 'pv is odd' },
        { path: [], message: 'whole form' },
      ],
    });
    expect(form.errors.latitude).toBe('too big');
    expect(form.errors.externalIds).toBe('too long');
    expect(form.formError.value).toBe('pv is odd; whole form');
  });
});

describe('helpers', () => {
  test('fieldForMessage prefers a quoted path, then the earliest field named', () => {
    expect(fieldForMessage("Invalid body field 'timezone': bad", PLANT_FIELDS)).toBe('timezone');
    expect(fieldForMessage('longitude and latitude disagree', PLANT_FIELDS)).toBe('longitude');
    expect(fieldForMessage('nothing here', PLANT_FIELDS)).toBeUndefined();
  });

  test("errorMessage answers the bridge error's message or the fallback", () => {
    expect(errorMessage(api(404, 'Plant not found'))).toBe('Plant not found');
    expect(errorMessage('x', 'fallback')).toBe('fallback');
  });

  test("failureMessage (a card's or panel's failed read) answers the failure's own words, else the screen's", () => {
    expect(failureMessage(api(404, 'Plant not found'), 'Could not load')).toBe('Plant not found');
    expect(failureMessage(new Error('The plant is not loaded'), 'Could not load')).toBe(
      'The plant is not loaded',
    );
    expect(failureMessage(new Error(''), 'Could not load')).toBe('Could not load');
    expect(failureMessage('x', 'Could not load')).toBe('Could not load');
  });

  test('in German the server’s words stay, followed by the app’s explanation where it knows the case', () => {
    i18n.global.locale.value = 'de';
    expect(errorMessage(api(403, 'Missing permission PLANTS_DELETE'))).toBe(
      'Missing permission PLANTS_DELETE — Ihrem Konto fehlt dafür die Berechtigung; wenden Sie sich an Ihren Administrator.',
    );
    expect(errorMessage(api(401, 'Token expired'))).toBe(
      'Token expired — Ihre Sitzung ist abgelaufen: Bitte melden Sie sich erneut an.',
    );
    expect(errorMessage(api(422, 'Bad value'))).toBe(
      'Bad value — Der Server hat einige der eingegebenen Werte abgelehnt.',
    );
    expect(errorMessage(api(404, 'Plant not found'))).toBe('Plant not found');
    expect(errorMessage('x')).toBe('Etwas ist schiefgegangen; bitte erneut versuchen.');
    i18n.global.locale.value = 'en';
    expect(errorMessage(api(403, 'Missing permission PLANTS_DELETE'))).toBe(
      'Missing permission PLANTS_DELETE',
    );
  });
});

describe('zodIssueText', () => {
  const issuesOf = (schema: z.ZodType, value: unknown) => schema.safeParse(value).error!.issues;

  test('numbers and lists by their bounds, written as the language writes numbers', () => {
    const it = createTranslator('it');
    const [small] = issuesOf(z.number().min(0.5), 0);
    expect(zodIssueText(small!, it, 'it')).toBe('Deve essere almeno 0,5');
    const [big] = issuesOf(z.number().lt(1500), 2000);
    expect(zodIssueText(big!, it, 'it')).toBe('Deve essere minore di 1500');
    const [many] = issuesOf(z.array(z.string()).max(1), ['a', 'b']);
    expect(zodIssueText(many!, it, 'it')).toBe('Al massimo 1 voce');
  });

  test('a missing value, a wrong type, and a refinement without words of its own', () => {
    const de = createTranslator('de');
    const [missing] = issuesOf(z.object({ a: z.number() }), {});
    expect(zodIssueText(missing!, de, 'de')).toBe('Pflichtfeld');
    const [text] = issuesOf(z.number(), 'x');
    expect(zodIssueText(text!, de, 'de')).toBe('Geben Sie eine Zahl ein');
    const [custom] = issuesOf(
      z.string().refine(() => false, { error: 'kept as written' }),
      'a',
    );
    expect(zodIssueText(custom!, de, 'de')).toBe('kept as written');
  });
});
