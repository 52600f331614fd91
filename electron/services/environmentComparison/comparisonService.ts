import type { Plant } from '../../../api/schemas/plants.ts';
import { comparePlants } from '../../../server/domain/comparison/index.ts';
import { credentialOrigin } from '../../ipc/addresses.ts';
import type {
  ComparedEnvironment,
  ComparedPlant,
  ComparisonInput,
  ComparisonResult,
  Environment,
  SessionState,
  SignInInput,
} from '../../ipc/contract.ts';
import type { ApiClient } from '../api/apiClient.ts';
import { ApiError } from '../api/apiError.ts';
import { HostError } from '../hostError.ts';
import { silentLogger, type Logger } from '../logger.ts';
import { readPlantSnapshot } from './comparisonSnapshot.ts';

export interface ComparisonDeps {
  /** The environment the user works in (the left side). */
  active(): Environment;
  environment(id: string): Environment;
  /** The session of an environment, restoring a remembered one, without switching to it. */
  sessionOf(environment: Environment): Promise<SessionState>;
  signInTo(environment: Environment, input: SignInInput): Promise<SessionState>;
  /**
   * The API client of a signed-in environment: its credentials are that environment's and go
   * to its server only (the session binds them to the origin that issued them).
   */
  clientFor(environmentId: string): ApiClient | null;
  /** The user's words for the host's own refusals. */
  say(key: string): string;
  log?: Logger;
}

export interface EnvironmentComparison {
  compare(input: ComparisonInput): Promise<ComparisonResult>;
  signIn(environmentId: string, input: SignInInput): Promise<SessionState>;
}

function describeEnvironment(environment: Environment): ComparedEnvironment {
  return {
    id: environment.id,
    name: environment.name,
    kind: environment.kind,
    origin: credentialOrigin(environment),
  };
}

function describePlant(plant: Plant): ComparedPlant {
  return { plantUuid: plant.plantUuid, name: plant.name, externalIds: [...plant.externalIds] };
}

/** The session ended between asking and reading (expired, revoked): sign in again. */
function isSignedOut(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    (error.kind === 'signedOut' || (error.kind === 'api' && error.status === 401))
  );
}

/**
 * The environment comparison: the plant of the active environment, found in another one by its
 * external ids, both read with their own environment's session and compared (the pure
 * `comparePlants`). The other environment is never made the active one: its session is restored
 * from the keychain when remembered, or made by `signIn`, for this purpose.
 */
export function createEnvironmentComparison(deps: ComparisonDeps): EnvironmentComparison {
  const log = deps.log ?? silentLogger;

  function clientOf(environment: Environment): ApiClient {
    const client = deps.clientFor(environment.id);
    if (!client) throw new HostError('signedOut', deps.say('comparison.host.signInFirst'));
    return client;
  }

  return {
    async compare({ plantUuid, otherEnvironmentId }) {
      const active = deps.active();
      if (otherEnvironmentId === active.id) {
        throw new HostError('invalidArguments', deps.say('comparison.host.sameEnvironment'));
      }
      const other = deps.environment(otherEnvironmentId);
      const leftClient = clientOf(active);
      const leftPlant = await leftClient.getPlant({ params: { plantUuid } });
      const left = { environment: describeEnvironment(active), plant: describePlant(leftPlant) };
      if (leftPlant.externalIds.length === 0) return { status: 'noExternalId', left };

      const session = await deps.sessionOf(other);
      const signInNeeded = (): ComparisonResult => ({
        status: 'signInNeeded',
        left,
        other: describeEnvironment(other),
        ...(session.rememberedEmail !== undefined && { rememberedEmail: session.rememberedEmail }),
      });
      const rightClient = session.status === 'signedIn' ? deps.clientFor(other.id) : null;
      if (!rightClient) return signInNeeded();

      try {
        const found = await rightClient.listPlants({
          query: { externalIds: leftPlant.externalIds, size: 20 },
        });
        const wanted = new Set(leftPlant.externalIds);
        // A server may match more loosely than we do: only a shared external id counts.
        const candidates = found.content.filter((plant) =>
          plant.externalIds.some((id) => wanted.has(id)),
        );
        if (candidates.length !== 1) {
          return {
            status: candidates.length === 0 ? 'notFound' : 'ambiguous',
            left,
            other: describeEnvironment(other),
            candidates: candidates.map(describePlant),
          };
        }
        const rightPlant = candidates[0]!;
        const [leftSnapshot, rightSnapshot] = await Promise.all([
          readPlantSnapshot(leftClient, leftPlant),
          readPlantSnapshot(rightClient, rightPlant),
        ]);
        log.info('environment comparison', {
          left: active.id,
          right: other.id,
        });
        return {
          status: 'compared',
          left,
          right: { environment: describeEnvironment(other), plant: describePlant(rightPlant) },
          matchedExternalIds: rightPlant.externalIds.filter((id) => wanted.has(id)).sort(),
          diff: comparePlants(leftSnapshot, rightSnapshot),
        };
      } catch (error) {
        if (isSignedOut(error) && deps.clientFor(other.id) === null) return signInNeeded();
        throw error;
      }
    },

    signIn(environmentId, input) {
      return deps.signInTo(deps.environment(environmentId), input);
    },
  };
}
