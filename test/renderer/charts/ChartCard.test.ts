// @vitest-environment happy-dom
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { mount } from '@vue/test-utils';
import PrimeVue from 'primevue/config';
import ChartCard from '../../../renderer/src/components/charts/ChartCard.vue';

/** 23:59:30 in Kathmandu (+05:45): "as of" a time only, on the day it is there. */
const NOW = Date.parse('2026-12-31T18:14:30Z');

// The card says "as of" a time of today, or a date and time of another day: today is pinned.
beforeAll(() => vi.useFakeTimers({ now: NOW + 20_000, toFake: ['Date'] }));
afterAll(() => vi.useRealTimers());

function card(props: Record<string, unknown>) {
  return mount(ChartCard, {
    props: { title: 'Last 7 days', ...props },
    slots: { default: '<p class="content">The chart</p>', actions: '<button>Week</button>' },
    global: { plugins: [PrimeVue] },
  });
}

describe('ChartCard', () => {
  test('ready: title, subtitle, "Data as of" in the zone, content and actions', () => {
    const wrapper = card({
      subtitle: 'Production and consumption',
      updatedAt: NOW,
      zone: 'Asia/Kathmandu',
    });
    const root = wrapper.get('section');
    expect(root.attributes('data-state')).toBe('ready');
    expect(root.attributes('aria-busy')).toBe('false');
    expect(wrapper.get('h2').text()).toBe('Last 7 days');
    expect(root.attributes('aria-labelledby')).toBe(wrapper.get('h2').attributes('id'));
    expect(wrapper.text()).toContain('Production and consumption');
    expect(wrapper.text()).toContain('Data as of 23:59:30 (Asia/Kathmandu)');
    expect(wrapper.find('.content').exists()).toBe(true);
    expect(wrapper.get('button').text()).toBe('Week');
  });

  test('first load: a skeleton instead of the content; a refresh keeps the content', async () => {
    const wrapper = card({ loading: true });
    expect(wrapper.get('section').attributes('data-state')).toBe('loading');
    expect(wrapper.get('section').attributes('aria-busy')).toBe('true');
    expect(wrapper.find('.content').exists()).toBe(false);
    expect(wrapper.get('[role="status"]').text()).toContain('Loading Last 7 days');
    expect(wrapper.text()).not.toContain('Data as of');
    await wrapper.setProps({ loading: true, updatedAt: NOW, zone: 'UTC' });
    expect(wrapper.get('section').attributes('data-state')).toBe('loading');
    expect(wrapper.find('.content').exists()).toBe(true);
  });

  test('error: its own message and a Retry button that emits retry', async () => {
    const wrapper = card({ error: 'The server is not reachable', updatedAt: NOW, zone: 'UTC' });
    expect(wrapper.get('section').attributes('data-state')).toBe('error');
    expect(wrapper.get('[role="alert"]').text()).toContain('The server is not reachable');
    expect(wrapper.find('.content').exists()).toBe(false);
    const retry = wrapper.findAll('button').find((button) => button.text() === 'Retry')!;
    await retry.trigger('click');
    expect(wrapper.emitted('retry')).toHaveLength(1);
    await wrapper.setProps({ error: null });
    expect(wrapper.get('section').attributes('data-state')).toBe('ready');
  });

  test('an update on another day shows the date too', () => {
    const wrapper = card({ updatedAt: Date.UTC(2026, 2, 28, 22, 0, 0), zone: 'Europe/Rome' });
    expect(wrapper.text()).toContain('Data as of 2026-03-28 23:00:00 (Europe/Rome)');
  });
});
