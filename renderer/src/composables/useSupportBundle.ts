import { ref } from 'vue';
import type { PlantDeskBridge, SupportBundlePreview } from '../../../electron/ipc/contract.ts';
import { useBridge } from '../bridge.ts';
import { downloadDataUrl } from '../charts/csv.ts';
import { translate } from '../i18n.ts';
import { errorMessage } from './useFormErrors.ts';

/**
 * A support bundle, made by the host (which gathers, redacts and zips it), listed here before it
 * is saved: the desktop app saves it through the host's save dialog, the browser downloads the
 * redacted zip. The page never holds a token, only the file list and, in the browser, the zip.
 */
export function useSupportBundle(bridge: PlantDeskBridge = useBridge()) {
  const preview = ref<SupportBundlePreview | null>(null);
  const preparing = ref(false);
  const saving = ref(false);
  const error = ref<string | null>(null);
  /** What saving did, in words (where it was saved, or that it was downloaded). */
  const outcome = ref<string | null>(null);
  /** Electron saves with a dialog, the browser downloads: the button says which. */
  const browser = ref(false);
  let latest = 0;

  async function prepare(plantUuid?: string): Promise<void> {
    const request = ++latest;
    preparing.value = true;
    preview.value = null;
    error.value = null;
    outcome.value = null;
    try {
      const [info, made] = await Promise.all([
        bridge.invoke('app.info'),
        bridge.invoke('supportBundle.prepare', plantUuid === undefined ? {} : { plantUuid }),
      ]);
      if (request !== latest) return;
      browser.value = info.host === 'web';
      preview.value = made;
    } catch (caught) {
      if (request === latest) error.value = errorMessage(caught, translate('support.notMade'));
    } finally {
      if (request === latest) preparing.value = false;
    }
  }

  async function save(): Promise<void> {
    const bundle = preview.value;
    if (!bundle || saving.value) return;
    saving.value = true;
    error.value = null;
    outcome.value = null;
    try {
      if (browser.value) {
        const { fileName, base64 } = await bridge.invoke('supportBundle.download', {
          bundleId: bundle.bundleId,
        });
        downloadDataUrl(fileName, `data:application/zip;base64,${base64}`);
        outcome.value = translate('support.downloaded', { file: fileName });
        return;
      }
      const result = await bridge.invoke('supportBundle.save', { bundleId: bundle.bundleId });
      outcome.value = result.saved
        ? translate('support.savedTo', { path: result.path ?? bundle.fileName })
        : translate('support.cancelled');
    } catch (caught) {
      error.value = errorMessage(caught, translate('support.notSaved'));
    } finally {
      saving.value = false;
    }
  }

  function reset(): void {
    latest++;
    preview.value = null;
    preparing.value = false;
    error.value = null;
    outcome.value = null;
  }

  return { preview, preparing, saving, error, outcome, browser, prepare, save, reset };
}
