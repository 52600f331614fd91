import { randomUUID } from 'node:crypto';
import { strToU8, zipSync } from 'fflate';
import type { Translate } from '../../../i18n/translator.ts';
import type {
  Alert,
  SupportBundleDownload,
  SupportBundleInput,
  SupportBundlePreview,
  SupportBundleSaveResult,
} from '../../ipc/contract.ts';
import type { ApiClient } from '../api/apiClient.ts';
import { HostError } from '../hostError.ts';
import {
  bundleFiles,
  manifestOf,
  missingParts,
  withManifest,
  type BundleFile,
  type BundleSources,
} from './bundleFiles.ts';
import { readPlantSources } from './bundleSources.ts';

/**
 * The support bundle: gathered from the server (the active environment's session), the alert
 * store and the log; redacted and zipped in the host; kept there until the user, having seen its
 * files, saves it (Electron: the save dialog) or downloads it (browser mode). The renderer gets
 * the list of files and, in browser mode, the redacted zip: never a token.
 */

export interface BundleEnvironment {
  id: string;
  name: string;
  kind: string;
  /** The server's origin (scheme, host and port), never a path or credentials. */
  origin: string;
}

export interface SupportBundleDeps {
  /** The active environment and its signed-in API client (null when signed out). */
  active(): { environment: BundleEnvironment; client: ApiClient | null };
  /** The environment's alerts in words (monitor.state(...).alerts). */
  alerts(environmentId: string): readonly Alert[];
  logLines(): readonly string[];
  app(): BundleSources['app'];
  /** Electron: the save dialog and the write; absent in browser mode (download instead). */
  save?(fileName: string, zip: Uint8Array): Promise<SupportBundleSaveResult>;
  now(): Date;
  t(): Translate;
  newId?(): string;
}

export interface SupportBundleService {
  prepare(input: SupportBundleInput): Promise<SupportBundlePreview>;
  save(bundleId: string): Promise<SupportBundleSaveResult>;
  download(bundleId: string): SupportBundleDownload;
}

/** Bundles kept at once: a user compares two at most; older ones are made again on request. */
const KEPT_BUNDLES = 3;

interface Prepared {
  fileName: string;
  zip: Uint8Array;
}

/** `plantdesk-support-demo-home-20260601-100000Z.zip`: the plant (or `app`) and the UTC time. */
export function bundleFileName(subject: string | null, at: Date): string {
  const slug =
    (subject ?? 'app')
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .toLowerCase()
      .slice(0, 40) || 'plant';
  const stamp = at
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '')
    .replace('T', '-');
  return `plantdesk-support-${slug}-${stamp}.zip`;
}

/** The zip of the files, at a fixed time of day so that the bundle depends on nothing else. */
export function zipBundle(files: readonly BundleFile[], at: Date): Uint8Array {
  return zipSync(Object.fromEntries(files.map((file) => [file.name, strToU8(file.text)])), {
    level: 6,
    mtime: at,
  });
}

export function createSupportBundleService(deps: SupportBundleDeps): SupportBundleService {
  const prepared = new Map<string, Prepared>();

  function kept(bundleId: string): Prepared {
    const bundle = prepared.get(bundleId);
    if (!bundle) throw new HostError('invalidArguments', deps.t()('host.bundle.gone'));
    return bundle;
  }

  return {
    async prepare({ plantUuid }) {
      const { environment, client } = deps.active();
      if (plantUuid !== undefined && client === null) {
        throw new HostError('signedOut', deps.t()('host.bundle.signIn'));
      }
      const at = deps.now();
      const plant =
        plantUuid !== undefined && client !== null
          ? await readPlantSources(client, plantUuid)
          : undefined;
      const alerts = deps
        .alerts(environment.id)
        .filter((alert) => plantUuid === undefined || alert.plantUuid === plantUuid);
      const sources: BundleSources = {
        createdAt: at.toISOString(),
        app: deps.app(),
        environment: { name: environment.name, kind: environment.kind, origin: environment.origin },
        ...(plant && { plant }),
        alerts,
        logLines: deps.logLines(),
      };
      const files = withManifest(sources, bundleFiles(sources));
      const zip = zipBundle(files, at);
      const bundleId = deps.newId?.() ?? randomUUID();
      const plantName = plant?.plant.name ?? null;
      const fileName = bundleFileName(plantName, at);
      prepared.set(bundleId, { fileName, zip });
      for (const id of prepared.keys()) {
        if (prepared.size <= KEPT_BUNDLES) break;
        prepared.delete(id);
      }
      return {
        bundleId,
        fileName,
        plantName,
        files: manifestOf(files),
        zipBytes: zip.length,
        missing: missingParts(plant),
      };
    },

    async save(bundleId) {
      const bundle = kept(bundleId);
      if (!deps.save) throw new HostError('invalidArguments', deps.t()('host.bundle.needsDesktop'));
      return deps.save(bundle.fileName, bundle.zip);
    },

    download(bundleId) {
      const bundle = kept(bundleId);
      return { fileName: bundle.fileName, base64: Buffer.from(bundle.zip).toString('base64') };
    },
  };
}
