import { reactive, ref, type Ref } from 'vue';
import { fieldForMessage, fieldForPath } from '../../../api/errorFields.ts';
import { PlantDeskError } from '../bridge.ts';
import { SOURCE_LOCALE } from '../../../i18n/locales.ts';
import { currentLocale, translate } from '../i18n.ts';
import { zodIssueText, type ZodLikeIssue } from '../../../i18n/zodIssueText.ts';

// Also the host's (electron/services/drafts), hence in api/; re-exported for the screens.
export { fieldForMessage, fieldForPath };

/**
 * The app's own explanation of a server's refusal it recognises (an ended session, a missing
 * permission, refused values), in the chosen language; null for any other failure. An
 * unreachable server needs none: the host words that failure itself, and the offline banner
 * says it too.
 */
export function explanationOf(caught: unknown): string | null {
  if (!(caught instanceof PlantDeskError)) return null;
  if (caught.kind === 'signedOut' || (caught.kind === 'api' && caught.status === 401)) {
    return translate('common.explain.sessionExpired');
  }
  if (caught.kind !== 'api') return null;
  if (caught.status === 403) return translate('common.explain.permission');
  if (caught.status === 400 || caught.status === 422) return translate('common.explain.validation');
  return null;
}

/**
 * What a failed call says to the user: the server's or host's message, else `fallback`. The
 * server writes in English and its words stay as written; in another language the app's own
 * explanation follows them, where it knows the case.
 */
export function errorMessage(caught: unknown, fallback?: string): string {
  if (caught instanceof PlantDeskError && caught.message) {
    const explanation = currentLocale() === SOURCE_LOCALE ? null : explanationOf(caught);
    return explanation
      ? translate('common.explained', { message: caught.message, explanation })
      : caught.message;
  }
  return fallback ?? translate('common.somethingWentWrong');
}

/**
 * What a failed read says where its data would be (a card, a panel): the failure's own message
 * (the server's, the host's or a thrown Error's), else `fallback`, the screen's own words.
 *
 *   failureMessage(query.error.value, translate('dashboard.loadFailed'))
 */
export function failureMessage(caught: unknown, fallback: string): string {
  return caught instanceof Error && caught.message ? caught.message : fallback;
}

/** The structural part of a ZodError this module reads (zod 4's `ZodError` fits). */
export interface ZodLikeError {
  issues: readonly ZodLikeIssue[];
}

/** A contract issue in the chosen language (the server's messages never come through here). */
export function zodIssueMessage(issue: ZodLikeIssue): string {
  return zodIssueText(issue, translate, currentLocale());
}

/** Failures whose message may name a field: validation (400), conflicts (409), 422, host refusals. */
function isFieldRefusal(caught: PlantDeskError): boolean {
  if (caught.kind === 'invalidArguments') return true;
  return caught.kind === 'api' && [400, 409, 422].includes(caught.status ?? 0);
}

/**
 * A form's error messages: one per field (`errors.name`) and one for the form (`formError`).
 * `fromZod` shows the contract schema's verdict before sending, in the user's language;
 * `fromServer` shows the server's
 * answer on the fields it lists (`errors`, our server's extension); from a server without that
 * list, on the field its message names when it names one (a 400's several "; "-separated details
 * each on their field); else above the form, as `fallback` when it has no message of its own.
 * Both replace what was shown.
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
      put(path ? fieldForPath(path, fields) : undefined, zodIssueMessage(issue));
    }
  }

  function fromServer(caught: unknown, fallback?: string): void {
    clear();
    if (!(caught instanceof PlantDeskError) || !isFieldRefusal(caught)) {
      formError.value = errorMessage(caught, fallback);
      return;
    }
    const parts =
      caught.kind === 'api' && caught.status === 400
        ? caught.message.split('; ').filter(Boolean)
        : [caught.message];
    if (caught.fieldErrors.length > 0) {
      for (const refusal of caught.fieldErrors) {
        put(fieldForPath(refusal.field, fields), refusal.message);
      }
      // What the list leaves out (a refusal of the whole body) still shows, above the form.
      const listed = new Set(caught.fieldErrors.map((refusal) => refusal.message));
      for (const part of parts) if (!listed.has(part)) put(undefined, part);
      return;
    }
    for (const part of parts) put(fieldForMessage(part, fields), part);
  }

  /** True when nothing is shown. */
  function isClear(): boolean {
    return formError.value === null && fields.every((field) => !errors[field]);
  }

  return { errors, formError, clear, fromZod, fromServer, isClear };
}
