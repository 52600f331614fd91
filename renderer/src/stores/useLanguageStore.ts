import { defineStore } from 'pinia';
import { computed, ref, watch } from 'vue';
import { usePrimeVue, type PrimeVueLocaleOptions } from 'primevue/config';
import { de as primeDe } from 'primelocale/js/de.js';
import { it as primeIt } from 'primelocale/js/it.js';
import { type AppLocale, pickLocale } from '../../../i18n/locales.ts';
import type { AppInfo, LanguageState } from '../../../electron/ipc/contract.ts';
import { useBridge } from '../bridge.ts';
import { i18n } from '../i18n.ts';

/** PrimeVue's own words (date pickers, paginator, aria labels), from PrimeLocale. */
const PRIME_LOCALES: Partial<Record<AppLocale, object>> = { de: primeDe, it: primeIt };

/**
 * The app's language: the user's choice, kept by the host (`app.setLanguage`), else the
 * system's. In the desktop app the system is the OS as the host reads it; in browser mode it is
 * the browser's languages. A change applies at once: vue-i18n's locale, PrimeVue's texts and
 * the page's `lang` (screen readers pronounce by it), without a reload.
 */
export const useLanguageStore = defineStore('language', () => {
  const bridge = useBridge();
  const prime = usePrimeVue();
  const englishPrime = { ...prime.config.locale };
  const chosen = ref<AppLocale | null>(null);
  const system = ref<AppLocale>(pickLocale(navigator.languages));
  const host = ref<AppInfo['host']>('electron');
  const locale = computed<AppLocale>(() => chosen.value ?? system.value);

  function adopt(state: LanguageState): void {
    chosen.value = state.chosen;
    system.value = host.value === 'web' ? pickLocale(navigator.languages) : state.system;
  }

  /** From `app.info` at start: which host, and what it keeps. */
  function start(info: Pick<AppInfo, 'host' | 'language'>): void {
    host.value = info.host;
    adopt(info.language);
  }

  /** null: follow the system again. */
  async function choose(next: AppLocale | null): Promise<void> {
    adopt(await bridge.invoke('app.setLanguage', next));
  }

  watch(
    locale,
    (value) => {
      i18n.global.locale.value = value;
      document.documentElement.lang = value;
      prime.config.locale = {
        ...englishPrime,
        ...(PRIME_LOCALES[value] ?? {}),
      } as PrimeVueLocaleOptions;
    },
    { immediate: true },
  );

  return { chosen, system, locale, start, choose };
});
