import { reactive, ref, type Ref } from 'vue';
import { fieldForMessage, fieldForPath } from '../../../api/errorFields.ts';
import { PlantDeskError } from '../bridge.ts';
import { translate } from '../i18n.ts';

// Also the host's (electron/services/drafts), hence in api/; re-exported for the screens.
export { fieldForMessage, fieldForPath };

/** What a failed call says to the user: the server's or host's message, else `fallback`. */
export function errorMessage(caught: unknown, fallback?: string): string {
  if (caught instanceof PlantDeskError && caught.message) return caught.message;
  return fallback ?? translate('common.somethingWentWrong');
}

/** The structural part of a ZodError this module reads (zod 4's `ZodError` fits). */
export interface ZodLikeError {
  issues: readonly { path: readonly PropertyKey[]; message: string }[];
}

/** Failures whose message may name a field: validation (400), conflicts (409), 422, host refusals. */
function isFieldRefusal(caught: PlantDeskError): boolean {
  if (caught.kind === 'invalidArguments') return true;
  return caught.kind === 'api' && [400, 409, 422].includes(caught.status ?? 0);
}

/**
 * A form's error messages: one per field (`errors.name`) and one for the form (`formError`).
 * `fromZod` shows the contract schema's verdict before sending; `fromServer` shows the server's
 * answer, on the field its message names when it names one (a 400's several "; "-separated
 * details each on their field), else above the form. Both replace what was shown.
 */
export function useFormErrors<F extends string>(fields: readonly F[]) {
  // Cast once: Vue's Reactive<> of a generic record cannot be indexed by F.
  const errors = reactive({}) as Record<F, string | undefined>;
  const formError: Ref<string | null> = ref(null);

  function clear(): void {
    for (const field of fields) errors[field] = undefined;
    formError.value = null;
  }

  function put(field: F | undefined, message: string): void {
    if (field === undefined) {
      formError.value = formError.value ? `${formError.value}; ${message}` : message;
    } else if (!errors[field]) {
      errors[field] = message;
    }
  }

  function fromZod(error: ZodLikeError): void {
    clear();
    for (const issue of error.issues) {
      const path = issue.path.map(String).join('.');
      put(path ? fieldForPath(path, fields) : undefined, issue.message);
    }
  }

  function fromServer(caught: unknown): void {
    clear();
    if (!(caught instanceof PlantDeskError)) {
      formError.value = errorMessage(caught);
      return;
    }
    if (!isFieldRefusal(caught)) {
      formError.value = errorMessage(caught);
      return;
    }
    const parts =
      caught.kind === 'api' && caught.status === 400
        ? caught.message.split('; ').filter(Boolean)
        : [caught.message];
    for (const part of parts) put(fieldForMessage(part, fields), part);
  }

  /** True when nothing is shown. */
  function isClear(): boolean {
    return formError.value === null && fields.every((field) => !errors[field]);
  }

  return { errors, formError, clear, fromZod, fromServer, isClear };
}
