// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import { defineComponent, h, reactive, ref, toRaw } from 'vue';
import { useBridge } from '../../renderer/src/bridge.ts';
import { takeRefusals } from './support/acrossTheBridge.ts';
import { mountWithApp } from './support/mountWithApp.ts';

const Empty = defineComponent({ render: () => h('div') });
const environment = { name: 'Acme sandbox', kind: 'sandbox', baseUrl: 'https://sandbox.acme.test' };

describe("component tests' host copies arguments as Electron's bridge does", () => {
  test('a reactive argument fails, as it would in Electron, and is not delivered', async () => {
    const { calls } = await mountWithApp(Empty, { channels: { 'environments.add': {} } });
    const bridge = useBridge();
    await expect(
      bridge.invoke('environments.add', reactive({ ...environment }) as never),
    ).rejects.toThrow('An object could not be cloned.');
    await expect(
      bridge.invoke('environments.add', ref({ ...environment }).value as never),
    ).rejects.toThrow('An object could not be cloned.');
    expect(calls).toEqual([]);
    expect(takeRefusals()).toHaveLength(2);
  });

  test('a plain copy or toRaw crosses, and the host receives a copy', async () => {
    const { calls } = await mountWithApp(Empty, { channels: { 'environments.add': {} } });
    const bridge = useBridge();
    const form = reactive({ ...environment });
    await bridge.invoke('environments.add', { ...form } as never);
    await bridge.invoke('environments.add', toRaw(form) as never);
    expect(calls.map((call) => call.args)).toEqual([[environment], [environment]]);
    expect(calls[1]!.args[0]).not.toBe(toRaw(form));
  });
});
