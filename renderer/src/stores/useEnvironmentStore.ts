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

/** The configured environments, the active one, and the Local sandbox's state. */
export const useEnvironmentStore = defineStore('environments', () => {
  const bridge = useBridge();
  const environments = ref<Environment[]>([]);
  const activeId = ref('');
  const localSandbox = ref<LocalSandboxState>({ status: 'stopped', restarts: 0 });
  const loaded = ref(false);

  const active = computed(() => environments.value.find((env) => env.id === activeId.value));
  const activeIsLocal = computed(() => active.value?.kind === 'local');
  const isProduction = computed(() => active.value?.kind === 'production');

  function applyList(list: EnvironmentList): void {
    environments.value = list.environments;
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
