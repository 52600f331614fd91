import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import { useBridge } from '../bridge.ts';
import type { Environment, LocalSandboxState } from '../../../electron/ipc/contract.ts';
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

  bridge.on('environments.changed', (list) => {
    environments.value = list.environments;
    activeId.value = list.activeId;
  });
  bridge.on('localSandbox.changed', (state) => {
    localSandbox.value = state;
  });

  async function load(): Promise<void> {
    const [list, sandbox] = await Promise.all([
      bridge.invoke('environments.list'),
      bridge.invoke('localSandbox.state'),
    ]);
    environments.value = list.environments;
    activeId.value = list.activeId;
    localSandbox.value = sandbox;
    loaded.value = true;
  }

  /** Switching the environment switches the session too: the host answers the new one. */
  async function select(id: string): Promise<void> {
    const session = await bridge.invoke('environments.select', id);
    activeId.value = id;
    useSessionStore().apply(session);
  }

  async function restartLocalSandbox(): Promise<void> {
    localSandbox.value = await bridge.invoke('localSandbox.restart');
  }

  return {
    environments,
    activeId,
    active,
    activeIsLocal,
    localSandbox,
    loaded,
    load,
    select,
    restartLocalSandbox,
  };
});
