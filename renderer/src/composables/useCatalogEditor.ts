import { computed, reactive, readonly, ref, shallowRef, watch, type UnwrapRef } from 'vue';
import { useToast } from 'primevue/usetoast';
import { useI18n } from 'vue-i18n';
import type { z } from 'zod';
import { errorMessage } from './useFormErrors.ts';
import { useFormErrors } from './useFormErrors.ts';

/**
 * Create, edit and delete for one editable catalog (sensor types, device types, load
 * signatures): the form dialog's state, client-side validation with the contract's own zod
 * schemas, the server's message on the field it names, and the delete confirmation. The view
 * owns the table and the form's controls; components/catalogs/CatalogPage.vue shows the rest.
 */

/** The catalogs, as their words are keyed (`catalogs.kinds.<kind>.*`). */
export type CatalogKind = 'sensorType' | 'deviceType' | 'loadSignature' | 'dataType';
/** The catalogs a user edits (the data types are the server's own). */
export type EditableCatalogKind = Exclude<CatalogKind, 'dataType'>;
export interface CatalogEditorOptions<Row, Form extends object, Body> {
  /** Which catalog: its titles and notes are `catalogs.kinds.<kind>.*`. */
  kind: EditableCatalogKind;
  /** The form's fields, as named by the contract (errors land on them). */
  fields: readonly (keyof Form & string)[];
  /** The shown name of a row (the delete confirmation asks about it). */
  nameOf(row: Row): string;
  emptyForm(): Form;
  formOf(row: Row): Form;
  /** The request body for a create or an update, from the form. */
  bodyOf(form: Form, editing: Row | null): Body;
  /** The contract's schema the body must pass (create DTO or update DTO). */
  schemaFor(editing: Row | null): z.ZodType;
  /** Checks before the schema, with friendlier words ("Code is required"). */
  precheck?(form: Form, editing: Row | null): Partial<Record<keyof Form & string, string>>;
  /** The calls: through `useMutationCall`, so that the catalog's table reads again by itself. */
  create(body: Body): Promise<Row>;
  update(row: Row, body: Body): Promise<Row>;
  remove(row: Row): Promise<void>;
}

export function useCatalogEditor<Row, Form extends object, Body>(
  options: CatalogEditorOptions<Row, Form, Body>,
) {
  const toast = useToast();
  const { t } = useI18n();
  const words = (message: string, named: Record<string, unknown> = {}) =>
    t(`catalogs.kinds.${options.kind}.${message}`, named);
  const form = reactive(options.emptyForm()) as UnwrapRef<Form> & Form;
  const editing = shallowRef<Row | null>(null);
  const dialogVisible = ref(false);
  const saving = ref(false);
  const formErrors = useFormErrors(options.fields);
  const deleting = shallowRef<Row | null>(null);
  /** A failed delete (for one, 409: still referenced) shows here, above the table. */
  const pageError = ref<string | null>(null);
  /** A new entry for every organization (the platform's operators only; the server checks). */
  const shared = ref(false);

  // A field's message goes once the user changes that field.
  watch(
    () => options.fields.map((field) => JSON.stringify((form as Form)[field])),
    (next, previous) => {
      const errors = formErrors.errors as Record<keyof Form & string, string | undefined>;
      options.fields.forEach((field, index) => {
        if (next[index] !== previous[index]) errors[field] = undefined;
      });
    },
  );

  const dialogTitle = computed(() =>
    editing.value ? words('edit', { name: options.nameOf(editing.value) }) : words('new'),
  );

  function fill(next: Form): void {
    Object.assign(form, next);
  }

  function openCreate(): void {
    editing.value = null;
    shared.value = false;
    fill(options.emptyForm());
    formErrors.clear();
    pageError.value = null;
    dialogVisible.value = true;
  }

  function openEdit(row: Row): void {
    editing.value = row;
    fill(options.formOf(row));
    formErrors.clear();
    pageError.value = null;
    dialogVisible.value = true;
  }

  function closeDialog(): void {
    dialogVisible.value = false;
  }

  async function save(): Promise<void> {
    formErrors.clear();
    const current = editing.value;
    const pre = options.precheck?.(form as Form, current) ?? {};
    const preEntries = (Object.entries(pre) as [keyof Form & string, string | undefined][]).filter(
      ([, message]) => message,
    );
    if (preEntries.length > 0) {
      const errors = formErrors.errors as Record<keyof Form & string, string | undefined>;
      for (const [field, message] of preEntries) errors[field] = message;
      return;
    }
    const body = options.bodyOf(form as Form, current);
    const parsed = options.schemaFor(current).safeParse(body);
    if (!parsed.success) {
      formErrors.fromZod(parsed.error);
      return;
    }
    saving.value = true;
    try {
      const saved = current
        ? await options.update(current, body)
        : await options.create(shared.value ? { ...body, shared: true } : body);
      dialogVisible.value = false;
      toast.add({
        severity: 'success',
        summary: current ? t('catalogs.page.savedSummary') : t('catalogs.page.createdSummary'),
        detail: words(current ? 'saved' : 'created', { name: options.nameOf(saved) }),
        life: 4000,
      });
    } catch (caught) {
      formErrors.fromServer(caught);
    } finally {
      saving.value = false;
    }
  }

  const deleteVisible = computed({
    get: () => deleting.value !== null,
    set: (visible: boolean) => {
      if (!visible) deleting.value = null;
    },
  });

  function askDelete(row: Row): void {
    pageError.value = null;
    deleting.value = row;
  }

  function cancelDelete(): void {
    deleting.value = null;
  }

  function dismissPageError(): void {
    pageError.value = null;
  }

  async function confirmDelete(): Promise<void> {
    const row = deleting.value;
    if (!row) return;
    deleting.value = null;
    try {
      await options.remove(row);
      toast.add({
        severity: 'success',
        summary: t('catalogs.page.deletedSummary'),
        detail: words('deleted', { name: options.nameOf(row) }),
        life: 4000,
      });
    } catch (caught) {
      pageError.value = errorMessage(caught, words('deleteFailed', { name: options.nameOf(row) }));
    }
  }

  return {
    kind: options.kind,
    nameOf: options.nameOf,
    form,
    shared: readonly(shared),
    chooseShared: (value: boolean) => (shared.value = value),
    editing,
    dialogVisible,
    dialogTitle,
    saving,
    errors: formErrors.errors,
    formError: formErrors.formError,
    openCreate,
    openEdit,
    closeDialog,
    save,
    deleting,
    deleteVisible,
    askDelete,
    cancelDelete,
    confirmDelete,
    pageError,
    dismissPageError,
  };
}

/** An editor as a page shows it, whatever its form (CatalogPage's `editor`). */
export type CatalogEditor<Row> = ReturnType<typeof useCatalogEditor<Row, object, unknown>>;
