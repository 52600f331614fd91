import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/database.ts';
import { summarizePlants } from '../../server/features/fleet/plantSummaries.ts';
import { gatherPvHealthFacts } from '../../server/pvHealth/pvHealthInputs.ts';
import { healthRange } from '../../server/pvHealth/pvHealthRange.ts';
import { resolvePvHealthThresholds } from '../../server/pvHealth/pvHealthThresholds.ts';
import { TestServer } from '../support/testServer.ts';

/**
 * Plant summaries read a page of plants in a fixed number of queries, whatever its size. The
 * statements are counted on a handle of the server's database with a counting plugin: such a
 * handle is not the one with the direct `node:sqlite` path, so every statement goes through
 * Kysely, which hands each result to the plugin.
 */

class StatementCounter implements KyselyPlugin {
  count = 0;

  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    return node;
  }

  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    this.count += 1;
    return result;
  }
}

const NOW = Date.parse('2026-06-21T10:00:00Z');
const FLEET = 20;

let server: TestServer;

beforeAll(async () => {
  server = await TestServer.start({
    now: () => new Date(NOW),
    demoFleet: FLEET,
    simulation: { historyDays: 2, live: false },
  });
}, 60_000);

afterAll(async () => {
  await server?.close();
});

async function counted<T>(
  work: (db: Db) => Promise<T>,
): Promise<{ result: T; statements: number }> {
  const counter = new StatementCounter();
  const result = await work(server.server.context.db.withPlugin(counter));
  return { result, statements: counter.count };
}

describe('plant summaries', () => {
  it('summarize 2 plants and 20 in the same few statements', async () => {
    const plants = await server.server.context.db
      .selectFrom('plants')
      .selectAll()
      .orderBy('name')
      .execute();
    expect(plants.length).toBeGreaterThan(FLEET);
    const options = {
      nowMs: NOW,
      thresholds: resolvePvHealthThresholds(undefined),
      permissions: { production: true, consumption: true, health: true },
    };
    const summarize = (count: number) =>
      counted((db) => summarizePlants(db, plants.slice(0, count), options));

    const two = await summarize(2);
    const twenty = await summarize(20);
    expect(twenty.result).toHaveLength(20);
    expect(twenty.result.filter((summary) => summary.productionKwh! > 0).length).toBeGreaterThan(
      10,
    );
    expect(two.statements).toBe(twenty.statements);
    // Sensor freshness, energy sensors, irradiance sensors, producer devices, rollups.
    expect(twenty.statements).toBeLessThanOrEqual(5);
    // The summaries are those of the same plants summarized on their own.
    const alone = await summarizePlants(server.server.context.db, plants.slice(1, 2), options);
    expect(alone).toEqual(twenty.result.slice(1, 2));
  });

  it("gather one plant's PV health facts in the same statements whatever its history", async () => {
    const [plant] = await server.server.context.db
      .selectFrom('plants')
      .selectAll()
      .where('name', '=', 'Demo Home')
      .execute();
    const week = healthRange(plant!.timezone, undefined, undefined, new Date(NOW));
    const { statements, result } = await counted((db) => gatherPvHealthFacts(db, plant!, week));
    expect(result.days).toHaveLength(7);
    expect(statements).toBeLessThanOrEqual(4);
  });
});
