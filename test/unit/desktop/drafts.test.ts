import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { channels, DraftContent, type DraftContentInput } from '../../../electron/ipc/contract.ts';
import type { ApiClient } from '../../../electron/services/api/apiClient.ts';
import { ApiError } from '../../../electron/services/api/apiError.ts';
import {
  createDraftService,
  draftExternalId,
  type DraftService,
} from '../../../electron/services/drafts/draftService.ts';
import {
  createDraftStore,
  ownerOf,
  type DraftOwner,
} from '../../../electron/services/drafts/draftStore.ts';
import {
  draftFieldOf,
  DRAFT_FIELDS,
  refusalsOf,
} from '../../../electron/services/drafts/draftRefusals.ts';
import {
  deviceDifferences,
  plantDifferences,
} from '../../../electron/services/drafts/draftMatching.ts';
import type { Plant } from '../../../api/schemas/plants.ts';
import type { Device } from '../../../api/schemas/relationships.ts';
import { HostError } from '../../../electron/services/hostError.ts';

/** The drafts store and service over a real folder; sending is tested against the real server. */

const TYPE = '0b6a3b0e-5f0e-4f43-9f67-2e8f3f6c1d7a';
const MISSING = '7f0c2a52-9d1e-4f7a-8a59-3b8b6c1d2e4f';

const content = (name = 'Roof 2'): DraftContent =>
  DraftContent.parse({
    plant: { name, location: { latitude: 45.07, longitude: 7.69, timezone: 'Europe/Rome' } },
    devices: [{ key: 'inverter', name: 'Inverter', deviceTypeUuid: TYPE }],
    sensors: [{ key: 'pv', name: 'PV power', sensorTypeUuid: TYPE, deviceKey: 'inverter' }],
    vendors: [{ vendorUuid: TYPE, settings: { site: 'roof' }, secretFields: ['apiKey'] }],
  } satisfies DraftContentInput);

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'plantdesk-drafts-'));
});
afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

const ALICE_LOCAL = ownerOf('local', 'Alice@Example.test');
const BOB_LOCAL = ownerOf('local', 'bob@example.test');
const ALICE_PROD = ownerOf('production-1', 'alice@example.test');

/** A service whose owner is whatever `current.owner` says at the time of each call. */
function serviceFor(current: { owner: DraftOwner }, dir = dataDir): DraftService {
  return createDraftService({
    store: createDraftStore(dir),
    owner: () => current.owner,
    clientFor: () => {
      throw new HostError('signedOut', 'offline in this test');
    },
    now: () => new Date('2026-11-18T09:00:00Z'),
  });
}

function draftFiles(dir: string): string[] {
  const root = join(dir, 'drafts');
  return readdirSync(root).flatMap((owner) =>
    readdirSync(join(root, owner)).map((name) => join(root, owner, name)),
  );
}

describe('the draft store', () => {
  test('one 0600 file per draft, in 0700 folders', () => {
    const service = serviceFor({ owner: ALICE_LOCAL });
    service.save({ content: content('A') });
    service.save({ content: content('B') });
    const files = draftFiles(dataDir);
    expect(files).toHaveLength(2);
    for (const file of files) expect(statSync(file).mode & 0o777).toBe(0o600);
    const root = join(dataDir, 'drafts');
    expect(statSync(root).mode & 0o777).toBe(0o700);
    for (const owner of readdirSync(root)) {
      expect(statSync(join(root, owner)).mode & 0o777).toBe(0o700);
    }
    // No temporary file is left beside them.
    expect(files.every((file) => file.endsWith('.json'))).toBe(true);
  });

  test('a draft survives a restart: a new service over the same folder reads it', () => {
    const saved = serviceFor({ owner: ALICE_LOCAL }).save({ content: content() });
    const restarted = serviceFor({ owner: ALICE_LOCAL });
    expect(restarted.list()).toEqual([saved]);
    expect(restarted.get(saved.draftId)).toEqual(saved);
    expect(saved).toMatchObject({
      status: 'notSent',
      environmentId: 'local',
      account: 'alice@example.test',
    });
  });

  test('a plant without an external id gets one from the draft, which identifies it at sending', () => {
    const saved = serviceFor({ owner: ALICE_LOCAL }).save({ content: content() });
    expect(saved.content.plant.externalIds).toEqual([draftExternalId(saved.draftId)]);
  });

  test('drafts belong to an environment and an account: listed, read, saved and deleted only there', () => {
    const current = { owner: ALICE_LOCAL };
    const service = serviceFor(current);
    const alices = service.save({ content: content('Alice local') });
    current.owner = BOB_LOCAL;
    const bobs = service.save({ content: content('Bob local') });
    current.owner = ALICE_PROD;
    const alicesProd = service.save({ content: content('Alice production') });

    current.owner = ALICE_LOCAL;
    expect(service.list().map((draft) => draft.draftId)).toEqual([alices.draftId]);
    current.owner = BOB_LOCAL;
    expect(service.list().map((draft) => draft.draftId)).toEqual([bobs.draftId]);
    current.owner = ALICE_PROD;
    expect(service.list().map((draft) => draft.draftId)).toEqual([alicesProd.draftId]);

    // Bob, or Alice in another environment, can neither read, overwrite nor delete Alice's.
    for (const other of [BOB_LOCAL, ALICE_PROD]) {
      current.owner = other;
      expect(() => service.get(alices.draftId)).toThrow('There is no such draft here');
      expect(() => service.save({ draftId: alices.draftId, content: content('stolen') })).toThrow(
        'There is no such draft here',
      );
      expect(() => service.remove(alices.draftId)).toThrow('There is no such draft here');
    }
    current.owner = ALICE_LOCAL;
    expect(service.get(alices.draftId).content.plant.name).toBe('Alice local');
    // An account is the same whatever its case.
    current.owner = ownerOf('local', 'ALICE@example.test');
    expect(service.list()).toHaveLength(1);
  });

  test('nor sent under another environment or account', async () => {
    const current = { owner: ALICE_LOCAL };
    const asked: DraftOwner[] = [];
    const service = createDraftService({
      store: createDraftStore(dataDir),
      owner: () => current.owner,
      clientFor(owner) {
        asked.push(owner);
        throw new HostError('signedOut', 'not signed in as that account');
      },
    });
    const alices = service.save({ content: content() });
    current.owner = BOB_LOCAL;
    await expect(service.send(alices.draftId)).rejects.toThrow('There is no such draft here');
    expect(asked).toEqual([]);
    current.owner = ALICE_LOCAL;
    await expect(service.send(alices.draftId)).rejects.toThrow('not signed in as that account');
    expect(asked).toEqual([ALICE_LOCAL]);
  });

  test('a file copied into another owner’s folder is not read there', () => {
    const current = { owner: ALICE_LOCAL };
    const service = serviceFor(current);
    const alices = service.save({ content: content() });
    current.owner = BOB_LOCAL;
    service.save({ content: content('Bob') });
    const [aliceFile] = draftFiles(dataDir).filter((file) =>
      file.endsWith(`${alices.draftId}.json`),
    );
    const bobFolder = draftFiles(dataDir).find((file) => !file.includes(alices.draftId))!;
    const copy = join(bobFolder, '..', `${alices.draftId}.json`);
    writeFileSync(copy, readFileSync(aliceFile!), { mode: 0o600 });
    expect(service.list().map((draft) => draft.content.plant.name)).toEqual(['Bob']);
    expect(() => service.get(alices.draftId)).toThrow('There is no such draft here');
  });

  test('a damaged file is set aside as .corrupt and the others are still listed', () => {
    const service = serviceFor({ owner: ALICE_LOCAL });
    const kept = service.save({ content: content('Kept') });
    const damaged = service.save({ content: content('Damaged') });
    const file = draftFiles(dataDir).find((path) => path.endsWith(`${damaged.draftId}.json`))!;
    writeFileSync(file, '{"version": 1, "draft": {"draftId": tru');
    expect(service.list().map((draft) => draft.draftId)).toEqual([kept.draftId]);
    expect(existsSync(file)).toBe(false);
    expect(existsSync(`${file}.corrupt`)).toBe(true);
    expect(() => service.get(damaged.draftId)).toThrow('There is no such draft here');

    // Valid JSON of the wrong shape is damage too.
    const other = draftFiles(dataDir).find((path) => path.endsWith(`${kept.draftId}.json`))!;
    writeFileSync(other, JSON.stringify({ version: 1, draft: { draftId: kept.draftId } }));
    expect(service.list()).toEqual([]);
    expect(existsSync(`${other}.corrupt`)).toBe(true);
  });

  test('saving again keeps the id and what was sent, deleting removes the file', () => {
    const service = serviceFor({ owner: ALICE_LOCAL });
    const first = service.save({ content: content('First') });
    const second = service.save({ draftId: first.draftId, content: content('Second') });
    expect(second).toMatchObject({ draftId: first.draftId, createdAt: first.createdAt });
    expect(second.content.plant.name).toBe('Second');
    expect(service.list()).toHaveLength(1);
    service.remove(first.draftId);
    expect(service.list()).toEqual([]);
    expect(draftFiles(dataDir)).toEqual([]);
  });
});

describe('sending', () => {
  test('one send at a time per draft, and no edit or deletion meanwhile; a lost connection interrupts', async () => {
    let fail: (error: unknown) => void = () => {};
    const client = {
      createPlant: () =>
        new Promise((_, reject) => {
          fail = reject;
        }),
    } as unknown as ApiClient;
    const service = createDraftService({
      store: createDraftStore(dataDir),
      owner: () => ALICE_LOCAL,
      clientFor: () => client,
    });
    const draft = service.save({ content: content() });
    const sending = service.send(draft.draftId);
    await expect(service.send(draft.draftId)).rejects.toThrow('This draft is being sent');
    expect(() => service.save({ draftId: draft.draftId, content: content('B') })).toThrow(
      'This draft is being sent',
    );
    expect(() => service.remove(draft.draftId)).toThrow('This draft is being sent');
    fail(new ApiError('network', 'Could not reach http://127.0.0.1:1: connection refused'));
    const result = await sending;
    expect(result).toMatchObject({ outcome: 'interrupted', draft: { status: 'notSent' } });
    expect(result.message).toMatch(/connection refused.*send again/);
    // Free again.
    expect(service.save({ draftId: draft.draftId, content: content('B') }).content.plant.name).toBe(
      'B',
    );
  });
});

describe('the draft contract', () => {
  test('the channels check their arguments', () => {
    const save = channels['drafts.save'].args;
    expect(save.safeParse([{ content: content() }]).success).toBe(true);
    expect(save.safeParse([{ content: content(), extra: 1 }]).success).toBe(false);
    expect(channels['drafts.get'].args.safeParse(['../../etc/passwd']).success).toBe(false);
    const send = channels['drafts.send'].args;
    expect(send.safeParse([TYPE]).success).toBe(true);
    expect(send.safeParse([TYPE, { secrets: { [TYPE]: { apiKey: 'x' } } }]).success).toBe(true);
    expect(send.safeParse([TYPE, { secrets: { [TYPE]: { apiKey: 42 } } }]).success).toBe(false);
  });

  test('secrets are never part of a draft', () => {
    const result = DraftContent.safeParse({
      ...content(),
      vendors: [{ vendorUuid: TYPE, settings: { apiKey: 'hunter2' }, secretFields: ['apiKey'] }],
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toMatch(/secret/);
  });

  test('names identify devices and sensors, and sensors link devices of the draft', () => {
    const twice = DraftContent.safeParse({
      ...content(),
      devices: [
        { key: 'a', name: 'Inverter', deviceTypeUuid: TYPE },
        { key: 'b', name: 'Inverter', deviceTypeUuid: TYPE },
      ],
      sensors: [],
    });
    expect(twice.error?.issues[0]?.message).toBe("Two devices are named 'Inverter'");
    const dangling = DraftContent.safeParse({
      ...content(),
      sensors: [{ key: 's', name: 'S', sensorTypeUuid: TYPE, deviceKey: 'nowhere' }],
    });
    expect(dangling.error?.issues[0]?.path).toEqual(['sensors', 0, 'deviceKey']);
  });
});

describe('refusals on their field', () => {
  test.each([
    ["Invalid body field 'location.latitude': Too big", 'plant', 'location.latitude'],
    ['timezone must be an IANA time-zone name such as Europe/Rome', 'plant', 'location.timezone'],
    [
      "External id 'R-2' is already used by another plant of the organization",
      'plant',
      'externalIds',
    ],
    [
      "serialNumber 'SN-1' is already used by another device of this plant",
      'devices',
      'serialNumber',
    ],
    [
      'dataTypesCollectUuids: 1 is not allowed by sensor type X (allowed: POWER)',
      'sensors',
      'dataTypesCollectUuids',
    ],
    ['deviceUuid 1 is not a device of this plant', 'sensors', 'deviceKey'],
    ["Connection test of 'sim://x' failed: no", 'sensors', 'connection'],
  ] as const)('%s → %s.%s', (message, section, field) => {
    expect(draftFieldOf(message, DRAFT_FIELDS[section])).toBe(field);
  });

  test('the fields a server lists are used as they are, its names mapped to the draft’s', () => {
    const error = new ApiError('api', 'deviceUuid 1 is not a device of this plant; other', {
      status: 422,
      fieldErrors: [
        { field: 'deviceUuid', message: 'deviceUuid 1 is not a device of this plant' },
        { field: 'connection.address', message: 'the name of the address is wrong' },
      ],
    });
    expect(
      refusalsOf(error, { section: 'sensors', key: 's1' }, DRAFT_FIELDS.sensors).map((refusal) => [
        refusal.field,
        refusal.message,
      ]),
    ).toEqual([
      ['deviceKey', 'deviceUuid 1 is not a device of this plant'],
      ['connection.address', 'the name of the address is wrong'],
    ]);
  });
});

describe('is what the server holds the draft’s?', () => {
  const draftPlant = DraftContent.parse({
    plant: {
      name: 'Roof 2',
      externalIds: ['R-2'],
      location: { latitude: 45.07, longitude: 7.69, timezone: 'Europe/Rome' },
      pv: { peakPowerKw: 6.2 },
    },
  }).plant;
  const serverPlant: Plant = {
    plantUuid: TYPE,
    name: 'Roof 2 ',
    externalIds: ['OLD-1', 'R-2'],
    location: { latitude: 45.07 + 1e-12, longitude: 7.69, timezone: 'Europe/Rome', altitudeM: 240 },
    pv: { peakPowerKw: 6.2, tiltDeg: 30, azimuthDeg: 180, lossesPercent: 14 },
    metadata: {},
    createdAt: '2026-11-18T09:00:00Z',
    updatedAt: '2026-11-18T09:00:00Z',
  };

  test('the same plant: what the draft leaves out, rounding and extra external ids do not count', () => {
    expect(plantDifferences(draftPlant, serverPlant)).toEqual([]);
  });

  test('another plant: each differing field is named', () => {
    expect(
      plantDifferences(draftPlant, {
        ...serverPlant,
        name: 'Barn',
        location: { ...serverPlant.location, timezone: 'Europe/Vienna' },
        pv: null,
      }),
    ).toEqual(['name', 'location.timezone', 'pv']);
    expect(plantDifferences({ ...draftPlant, externalIds: ['R-2', 'R-3'] }, serverPlant)).toEqual([
      'externalIds',
    ]);
  });

  test('a device of the same name: its type, and what the draft says of it', () => {
    const device = DraftContent.parse(content()).devices[0]!;
    const held = {
      deviceUuid: TYPE,
      plantUuid: TYPE,
      name: 'Inverter',
      deviceTypeUuid: TYPE,
      vendorUuid: null,
      model: 'X-6',
      serialNumber: 'SN-1',
      ratedPowerW: 6000,
      loadSignatureUuid: null,
      metadata: {},
      createdAt: '2026-11-18T09:00:00Z',
      updatedAt: '2026-11-18T09:00:00Z',
    } satisfies Device;
    expect(deviceDifferences(device, held)).toEqual([]);
    expect(deviceDifferences({ ...device, serialNumber: 'SN-2' }, held)).toEqual(['serialNumber']);
    expect(deviceDifferences({ ...device, deviceTypeUuid: MISSING }, held)).toEqual([
      'deviceTypeUuid',
    ]);
  });
});
