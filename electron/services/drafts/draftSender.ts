import type { Translate } from '../../../i18n/translator.ts';
import type { Plant } from '../../../api/schemas/plants.ts';
import type { Device, Sensor } from '../../../api/schemas/relationships.ts';
import type {
  Draft,
  DraftProgress,
  DraftRefusal,
  DraftSendResult,
  DraftSensor,
} from '../../ipc/contract.ts';
import type { ApiClient } from '../api/apiClient.ts';
import { ApiError } from '../api/apiError.ts';
import { HostError } from '../hostError.ts';
import { ENGLISH } from '../hostText.ts';
import { deviceDifferences, plantDifferences, sensorDifferences } from './draftMatching.ts';
import { DRAFT_FIELDS, isRefusal, refusalsOf } from './draftRefusals.ts';

/**
 * Sends a draft: creates, in the wizard's order (plant, devices, sensors, vendor settings), what
 * the server does not hold yet, recording each server uuid in the draft as soon as it is known,
 * so that a send cut off halfway resumes where it stopped. Safe to repeat: before creating, it
 * looks for what an earlier attempt may have created without hearing the answer (the plant by
 * its external id, a device or sensor by its name within the plant) and adopts it when it is
 * what the draft describes. What the server refuses is recorded on its field and the rest goes
 * on; a lost connection or session stops the send with everything recorded so far.
 */

export interface DraftSendDeps {
  /**
   * The client of the draft's own environment, signed in as its account; asked before each
   * request, and throws (ApiError `signedOut`) once that session is gone, so that nothing of
   * the draft ever goes to another environment or account.
   */
  client(): ApiClient;
  /** Writes the draft (its progress) to its file. */
  record(draft: Draft): void;
  now(): Date;
  /** The user's language at the moment of the send (its refusals are kept as worded then). */
  t?: Translate;
  /** vendorUuid → secret field → value, for this send only. */
  secrets?: Record<string, Record<string, string>>;
}

const PAGE_SIZE = 200;

/** Another attempt would do better: the connection, the session or the server failed. */
class Interrupted extends Error {}

/** An API or host error stops the send (to be resumed); anything else is a bug and is thrown. */
function interrupted(error: unknown): never {
  if (error instanceof ApiError || error instanceof HostError) {
    throw new Interrupted(error.message, { cause: error });
  }
  throw error;
}

function emptyProgress(): DraftProgress {
  return { plantUuid: null, devices: {}, sensors: {}, vendors: {} };
}

export function draftStatus(draft: Pick<Draft, 'content' | 'sent'>): Draft['status'] {
  const { content, sent } = draft;
  if (sent.plantUuid === null) return 'notSent';
  const complete =
    content.devices.every((device) => sent.devices[device.key] !== undefined) &&
    content.sensors.every((sensor) => sent.sensors[sensor.key] !== undefined) &&
    content.vendors.every((vendor) => sent.vendors[vendor.vendorUuid] !== undefined);
  return complete ? 'sent' : 'partlySent';
}

export async function sendDraft(original: Draft, deps: DraftSendDeps): Promise<DraftSendResult> {
  const draft: Draft = structuredClone(original);
  const { content, sent } = draft;
  const refusals: DraftRefusal[] = [];
  const t = deps.t ?? ENGLISH;

  function record(): void {
    draft.status = draftStatus(draft);
    draft.refusals = refusals;
    draft.updatedAt = deps.now().toISOString();
    deps.record(structuredClone(draft));
  }

  /** Runs one request; a refusal comes back as a value, anything transient interrupts. */
  async function attempt<T>(request: (client: ApiClient) => Promise<T>): Promise<T | ApiError> {
    try {
      return await request(deps.client());
    } catch (error) {
      if (isRefusal(error)) return error;
      return interrupted(error);
    }
  }

  async function all<T>(
    page: (
      client: ApiClient,
      index: number,
    ) => Promise<{ content: T[]; page: { totalPages: number } }>,
  ): Promise<T[]> {
    const items: T[] = [];
    for (let index = 0; ; index += 1) {
      const answer = await attempt((client) => page(client, index));
      if (answer instanceof ApiError) interrupted(answer);
      items.push(...answer.content);
      if (index + 1 >= answer.page.totalPages) return items;
    }
  }

  // ── The plant ─────────────────────────────────────────────────────────────────────────────

  async function ensurePlant(): Promise<string | null> {
    if (sent.plantUuid !== null) {
      const plantUuid = sent.plantUuid;
      try {
        await deps.client().getPlant({ params: { plantUuid } });
        return plantUuid;
      } catch (error) {
        if (!(error instanceof ApiError && error.kind === 'api' && error.status === 404)) {
          interrupted(error);
        }
        // Deleted on the server since, with everything in it: start again from nothing.
        Object.assign(sent, emptyProgress());
        record();
      }
    }
    const created = await attempt((client) => client.createPlant({ body: content.plant }));
    if (!(created instanceof ApiError)) return adoptPlant(created);
    if (created.status === 409) {
      const existing = await plantWithExternalIds();
      if (existing) {
        const differences = plantDifferences(content.plant, existing);
        if (differences.length === 0) return adoptPlant(existing);
        refusals.push({
          section: 'plant',
          field: 'externalIds',
          kind: 'conflict',
          message: t('host.drafts.refusal.plantConflict', {
            plant: existing.name,
            fields: differences.join(', '),
          }),
          status: 409,
        });
        return null;
      }
    }
    refusals.push(...refusalsOf(created, { section: 'plant' }, DRAFT_FIELDS.plant));
    return null;
  }

  function adoptPlant(plant: Plant): string {
    sent.plantUuid = plant.plantUuid;
    record();
    return plant.plantUuid;
  }

  async function plantWithExternalIds(): Promise<Plant | undefined> {
    const ids = content.plant.externalIds ?? [];
    if (ids.length === 0) return undefined;
    const plants = await all((client, page) =>
      client.listPlants({ query: { externalIds: ids, page, size: PAGE_SIZE } }),
    );
    return plants.find((plant) => plant.externalIds.some((id) => ids.includes(id)));
  }

  // ── Devices and sensors ───────────────────────────────────────────────────────────────────

  /** Forgets what the server no longer holds (deleted meanwhile): it is created again. */
  function forgetGone(recorded: Record<string, string>, held: readonly string[]): void {
    for (const [key, uuid] of Object.entries(recorded)) {
      if (!held.includes(uuid)) delete recorded[key];
    }
  }

  async function ensureDevices(plantUuid: string): Promise<void> {
    const held = await all((client, page) =>
      client.listDevices({ params: { plantUuid }, query: { page, size: PAGE_SIZE } }),
    );
    forgetGone(
      sent.devices,
      held.map((device) => device.deviceUuid),
    );
    for (const device of content.devices) {
      if (sent.devices[device.key] !== undefined) continue;
      const where = { section: 'devices' as const, key: device.key };
      const namesake = held.find((candidate) => candidate.name === device.name);
      if (namesake) {
        const differences = deviceDifferences(device, namesake);
        if (differences.length === 0) {
          sent.devices[device.key] = namesake.deviceUuid;
          record();
        } else {
          refusals.push(nameConflict(where, 'host.drafts.refusal.deviceConflict', differences));
        }
        continue;
      }
      const { key: _key, ...body } = device;
      const created = await attempt((client) =>
        client.createDevice({ params: { plantUuid }, body }),
      );
      if (created instanceof ApiError) {
        refusals.push(...refusalsOf(created, where, DRAFT_FIELDS.devices));
        continue;
      }
      held.push(created as Device);
      sent.devices[device.key] = created.deviceUuid;
      record();
    }
  }

  async function ensureSensors(plantUuid: string): Promise<void> {
    const held = await all((client, page) =>
      client.listSensors({ params: { plantUuid }, query: { page, size: PAGE_SIZE } }),
    );
    forgetGone(
      sent.sensors,
      held.map((sensor) => sensor.sensorUuid),
    );
    for (const sensor of content.sensors) {
      if (sent.sensors[sensor.key] !== undefined) continue;
      const where = { section: 'sensors' as const, key: sensor.key };
      const deviceUuid = deviceOf(sensor);
      if (deviceUuid === undefined) {
        const device = content.devices.find((candidate) => candidate.key === sensor.deviceKey);
        refusals.push({
          ...where,
          field: 'deviceKey',
          kind: 'notSent',
          message: t('host.drafts.refusal.deviceNotSent', {
            device: device?.name ?? sensor.deviceKey ?? '',
          }),
        });
        continue;
      }
      const namesake = held.find((candidate) => candidate.name === sensor.name);
      if (namesake) {
        const differences = sensorDifferences(sensor, namesake, deviceUuid);
        if (differences.length === 0) {
          sent.sensors[sensor.key] = namesake.sensorUuid;
          record();
        } else {
          refusals.push(nameConflict(where, 'host.drafts.refusal.sensorConflict', differences));
        }
        continue;
      }
      const { key: _key, deviceKey: _deviceKey, ignoreConnectionsTest, ...fields } = sensor;
      const created = await attempt((client) =>
        client.createSensor({
          params: { plantUuid },
          query: ignoreConnectionsTest ? { ignoreConnectionsTest: true } : {},
          body: { ...fields, deviceUuid },
        }),
      );
      if (created instanceof ApiError) {
        refusals.push(...refusalsOf(created, where, DRAFT_FIELDS.sensors));
        continue;
      }
      held.push(created as Sensor);
      sent.sensors[sensor.key] = created.sensorUuid;
      record();
    }
  }

  /** The server uuid of a sensor's device: null for none, undefined while it is not created. */
  function deviceOf(sensor: DraftSensor): string | null | undefined {
    if (sensor.deviceKey == null) return null;
    return sent.devices[sensor.deviceKey];
  }

  function nameConflict(
    where: { section: 'devices' | 'sensors'; key: string },
    key: string,
    differences: readonly string[],
  ): DraftRefusal {
    return {
      ...where,
      field: 'name',
      kind: 'conflict',
      message: t(key, { fields: differences.join(', ') }),
      status: 409,
    };
  }

  // ── Vendor settings ───────────────────────────────────────────────────────────────────────

  async function ensureVendors(plantUuid: string): Promise<void> {
    for (const vendor of content.vendors) {
      if (sent.vendors[vendor.vendorUuid] !== undefined) continue;
      const where = { section: 'vendors' as const, key: vendor.vendorUuid };
      const given = deps.secrets?.[vendor.vendorUuid] ?? {};
      const missing = vendor.secretFields.filter((field) => !given[field]);
      if (missing.length > 0) {
        refusals.push(
          ...missing.map((field): DraftRefusal => ({
            ...where,
            field,
            kind: 'secretNeeded',
            message: t('host.drafts.refusal.secretNeeded', { field }),
          })),
        );
        continue;
      }
      const secrets = Object.fromEntries(
        vendor.secretFields.map((field) => [field, given[field]!]),
      );
      const configured = await attempt((client) =>
        client.configurePlantVendor({
          params: { plantUuid, vendorUuid: vendor.vendorUuid },
          body: { settings: { ...vendor.settings, ...secrets } },
        }),
      );
      if (configured instanceof ApiError) {
        const fields = [...Object.keys(vendor.settings), ...vendor.secretFields];
        refusals.push(...refusalsOf(configured, where, fields));
        continue;
      }
      sent.vendors[vendor.vendorUuid] = configured.configuredAt ?? deps.now().toISOString();
      record();
    }
  }

  // ── The send ──────────────────────────────────────────────────────────────────────────────

  try {
    const plantUuid = await ensurePlant();
    if (plantUuid !== null) {
      await ensureDevices(plantUuid);
      await ensureSensors(plantUuid);
      await ensureVendors(plantUuid);
    }
  } catch (error) {
    if (!(error instanceof Interrupted)) throw error;
    draft.lastSentAt = deps.now().toISOString();
    record();
    return {
      draft,
      outcome: 'interrupted',
      message: t('host.drafts.send.stopped', { reason: error.message }),
    };
  }
  draft.lastSentAt = deps.now().toISOString();
  record();
  if (refusals.length > 0) {
    return {
      draft,
      outcome: 'refused',
      message:
        sent.plantUuid === null
          ? t('host.drafts.send.plantRefused')
          : t('host.drafts.send.partsRefused', {}, refusals.length),
    };
  }
  return { draft, outcome: 'sent', message: t('host.drafts.send.sent') };
}
