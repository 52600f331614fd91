import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import { useBridge } from '../bridge.ts';
import type {
  ConnectionTestResult,
  Environment,
  EnvironmentInput,
  EnvironmentList,
  LocalSandboxState,
} from '../../../electron/ipc/contract.ts';
import { useSessionStore } from './useSessionStore.ts';
import { translate } from '../i18n.ts';

/** The host's id and stored name of the built-in Local sandbox (electron/services/environments.ts). */
const LOCAL_ENVIRONMENT_ID = 'local';
const LOCAL_ENVIRONMENT_NAME = 'Local sandbox';

/**
 * An environment as the screens show it: the built-in Local sandbox, still under the name the
 * app gave it, is named in the user's language; every other name is the user's or the
 * administrator's, shown as written.
 */
export function shownEnvironment(environment: Environment): Environment {
  const builtIn =
    environment.id === LOCAL_ENVIRONMENT_ID &&
    environment.source === 'builtin' &&
    environment.name === LOCAL_ENVIRONMENT_NAME;
  return builtIn ? { ...environment, name: translate('environments.builtInName') } : environment;
}

/** The configured environments, the active one, and the Local sandbox's state. */
export const useEnvironmentStore = defineStore('environments', () => {
  const bridge = useBridge();
  const listed = ref<Environment[]>([]);
  // A computed: the built-in's name follows the language at once.
  const environments = computed(() => listed.value.map(shownEnvironment));
  const activeId = ref('');
  const localSandbox = ref<LocalSandboxState>({ status: 'stopped', restarts: 0 });
  const loaded = ref(false);

  const active = computed(() => environments.value.find((env) => env.id === activeId.value));
  const activeIsLocal = computed(() => active.value?.kind === 'local');
  const isProduction = computed(() => active.value?.kind === 'production');

  function applyList(list: EnvironmentList): void {
    listed.value = list.environments;
    activeId.value = list.activeId;
  }

  bridge.on('environments.changed', applyList);
  bridge.on('localSandbox.changed', (state) => {
    localSandbox.value = state;
  });

  async function load(): Promise<void> {
    const [list, sandbox] = await Promise.all([
      bridge.invoke('environments.list'),
      bridge.invoke('localSandbox.state'),
    ]);
    applyList(list);
    localSandbox.value = sandbox;
    loaded.value = true;
  }

  /** Switching the environment switches the session too: the host answers the new one. */
  async function select(id: string): Promise<void> {
    const session = await bridge.invoke('environments.select', id);
    activeId.value = id;
    useSessionStore().apply(session);
  }

  /** The host announces the new list too (`environments.changed`); this keeps it without waiting. */
  async function refreshList(): Promise<void> {
    applyList(await bridge.invoke('environments.list'));
  }

  async function add(input: EnvironmentInput): Promise<Environment> {
    const created = await bridge.invoke('environments.add', input);
    await refreshList();
    return created;
  }

  async function update(id: string, input: EnvironmentInput): Promise<Environment> {
    const updated = await bridge.invoke('environments.update', id, input);
    await refreshList();
    return updated;
  }

  /** Removing the active environment makes the host select the Local sandbox. */
  async function remove(id: string): Promise<void> {
    const wasActive = id === activeId.value;
    await bridge.invoke('environments.remove', id);
    await refreshList();
    if (wasActive) await useSessionStore().load();
  }

  function testConnection(baseUrl: string): Promise<ConnectionTestResult> {
    return bridge.invoke('environments.testConnection', baseUrl);
  }

  /** Start, stop or restart the Local sandbox; the answer is its state once settled. */
  async function controlLocalSandbox(action: 'start' | 'stop' | 'restart'): Promise<void> {
    localSandbox.value = await bridge.invoke(`localSandbox.${action}`);
  }

  return {
    environments,
    activeId,
    active,
    activeIsLocal,
    isProduction,
    localSandbox,
    loaded,
    load,
    select,
    add,
    update,
    remove,
    testConnection,
    controlLocalSandbox,
  };
});
