import { config } from '@vue/test-utils';
import { VueQueryPlugin, type QueryClient } from '@tanstack/vue-query';
import { afterEach, beforeEach } from 'vitest';
import { createAppQueryClient } from '../../../renderer/src/queryClient.ts';

/**
 * Every component test mounts with the app's kind of QueryClient, as main.ts installs it, a
 * fresh one per test: no answer cached by one test is seen by the next.
 */
let client: QueryClient | null = null;
const entry: [typeof VueQueryPlugin, { queryClient: QueryClient }] = [
  VueQueryPlugin,
  { queryClient: createAppQueryClient() },
];
config.global.plugins.push(entry);

beforeEach(() => {
  client = createAppQueryClient();
  entry[1] = { queryClient: client };
});

afterEach(() => {
  client?.clear();
  client = null;
});

/** The QueryClient of the running test. */
export function testQueryClient(): QueryClient {
  if (!client) throw new Error('testQueryClient: only inside a test');
  return client;
}
