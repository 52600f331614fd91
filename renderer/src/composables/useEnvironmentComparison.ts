import { computed, ref, type Ref } from 'vue';
import type { ComparisonResult, SignInInput } from '../../../electron/ipc/contract.ts';
import { isSecretState, type FieldValue } from '../../../server/domain/comparison/index.ts';
import { useBridge } from '../bridge.ts';
import { translate } from '../i18n.ts';
import { errorMessage } from './useFormErrors.ts';

/**
 * The environment comparison screen's state: which other environment, the last result, and
 * signing in to the other environment without leaving the active one. The host does the work
 * (`comparison.compare`, `comparison.signIn`); nothing here holds a credential.
 */
export function useEnvironmentComparison(plantUuid: Ref<string>) {
  const bridge = useBridge();
  const otherEnvironmentId = ref<string | null>(null);
  const result = ref<ComparisonResult | null>(null);
  const comparing = ref(false);
  const signingIn = ref(false);
  const error = ref<string | null>(null);
  /** The failed sign-in as caught: its form shows it, on a field when it names one. */
  const signInError = ref<unknown>(null);

  async function compare(): Promise<void> {
    const other = otherEnvironmentId.value;
    if (!other || comparing.value) return;
    comparing.value = true;
    error.value = null;
    try {
      result.value = await bridge.invoke('comparison.compare', {
        plantUuid: plantUuid.value,
        otherEnvironmentId: other,
      });
    } catch (caught) {
      result.value = null;
      error.value = errorMessage(caught, translate('comparison.failed'));
    } finally {
      comparing.value = false;
    }
  }

  /** Signs in to the other environment, then compares at once. */
  async function signIn(input: SignInInput): Promise<void> {
    const other = otherEnvironmentId.value;
    if (!other || signingIn.value) return;
    signingIn.value = true;
    signInError.value = null;
    try {
      await bridge.invoke('comparison.signIn', other, input);
    } catch (caught) {
      signInError.value = caught;
      return;
    } finally {
      signingIn.value = false;
    }
    await compare();
  }

  function choose(environmentId: string | null): void {
    otherEnvironmentId.value = environmentId;
    result.value = null;
    error.value = null;
    signInError.value = null;
  }

  const compared = computed(() => (result.value?.status === 'compared' ? result.value : null));

  return {
    otherEnvironmentId,
    result,
    compared,
    comparing,
    signingIn,
    error,
    signInError,
    compare,
    signIn,
    choose,
  };
}

/** A field's name as shown: known fields in words, vendor settings and metadata keys as written. */
export function fieldLabel(field: string): string {
  if (field.startsWith('setting:')) return field.slice('setting:'.length);
  if (field.startsWith('metadata:')) {
    return translate('comparison.metadataField', { name: field.slice('metadata:'.length) });
  }
  if (field.startsWith('secret:')) {
    return translate('comparison.secretField', { name: field.slice('secret:'.length) });
  }
  return translate(`comparison.fields.${field}`);
}

/** A value as shown in a cell: secrets only as set or not, structures as compact JSON. */
export function valueText(value: FieldValue | undefined): string {
  if (value === undefined) return translate('comparison.value.absent');
  if (value === null || value === '') return translate('comparison.value.empty');
  if (isSecretState(value)) return translate(`comparison.value.secret.${value.secret}`);
  if (typeof value === 'boolean')
    return translate(value ? 'comparison.value.yes' : 'comparison.value.no');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
