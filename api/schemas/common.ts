import { z } from 'zod';

/**
 * Identifiers are UUID v4 when we mint them, but any well-formed 8-4-4-4-12 hex string is
 * accepted as input: an unknown but well-formed UUID is a 404, not a 400.
 */
export const Uuid = z
  .guid()
  .transform((id) => id.toLowerCase())
  .meta({ description: 'UUID (8-4-4-4-12 hex)', example: '0b6a3b0e-5f0e-4f43-9f67-2e8f3f6c1d7a' });

/** Record timestamps (`createdAt`, `updatedAt`) are UTC ISO 8601 with `Z`. */
export const UtcTimestamp = z.iso.datetime().meta({ description: 'UTC ISO 8601 date-time' });

/** What metadata may hold: deeper, larger or wider objects are refused with a 400. */
export const METADATA_LIMITS = { maxDepth: 10, maxBytes: 16 * 1024, maxKeys: 500 } as const;

/**
 * Why `value` exceeds the metadata limits, or null. Walks without recursion and stops at the
 * first excess, so a body nested thousands deep costs no more than one within the limits.
 */
export function metadataProblem(value: unknown): string | null {
  const { maxDepth, maxBytes, maxKeys } = METADATA_LIMITS;
  let keys = 0;
  const pending: { node: unknown; depth: number }[] = [{ node: value, depth: 1 }];
  while (pending.length > 0) {
    const { node, depth } = pending.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth > maxDepth) return `metadata is nested deeper than ${maxDepth} levels`;
    const children = Array.isArray(node) ? node : Object.values(node);
    if (!Array.isArray(node)) keys += children.length;
    if (keys > maxKeys) return `metadata has more than ${maxKeys} keys`;
    for (const child of children) pending.push({ node: child, depth: depth + 1 });
  }
  const bytes = new TextEncoder().encode(JSON.stringify(value)).length;
  return bytes > maxBytes
    ? `metadata is ${bytes} bytes as JSON; at most ${maxBytes} are allowed`
    : null;
}

/** Free JSON object for user metadata, within METADATA_LIMITS. */
export const Metadata = z
  .record(z.string(), z.unknown())
  .superRefine((value, context) => {
    const problem = metadataProblem(value);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  })
  .meta({
    id: 'Metadata',
    description: `Free JSON object: at most ${METADATA_LIMITS.maxDepth} levels deep, ${METADATA_LIMITS.maxKeys} keys and ${METADATA_LIMITS.maxBytes / 1024} KB as JSON`,
  });

/** Names are trimmed; an empty name is invalid. */
export const Name = z.string().trim().min(1).max(200);
export const Code = z.string().trim().min(1).max(64);
export const Description = z.string().max(2000);

/** Which request field a refusal is about: a dotted path into the body, or a parameter's name. */
export const FieldError = z
  .object({
    field: z.string().meta({ description: 'Dotted path of the field, e.g. `location.latitude`' }),
    message: z.string(),
  })
  .meta({ id: 'FieldError' });
export type FieldError = z.infer<typeof FieldError>;

export const ErrorBody = z
  .object({
    timestamp: z.iso.datetime({ offset: true }),
    status: z.int(),
    error: z.string(),
    message: z.string(),
    path: z.string(),
    errors: z.array(FieldError).optional().meta({
      description:
        'Extension: the fields a 400 or 422 is about, each with its own message (`message` joins them). Absent when the refusal names no field; servers with only the specification send none.',
    }),
  })
  .meta({ id: 'ErrorBody', description: 'Error body of every 4xx and 5xx answer' });
export type ErrorBody = z.infer<typeof ErrorBody>;

export const PageMetadata = z
  .object({
    number: z.int().min(0),
    size: z.int().min(1),
    totalElements: z.int().min(0),
    totalPages: z.int().min(0),
  })
  .meta({ id: 'PageMetadata' });
export type PageMetadata = z.infer<typeof PageMetadata>;

const pages = new WeakMap<z.ZodType, z.ZodType>();

/** Spring Data `PagedModel` envelope, named `PagedModel<Item>` in the OpenAPI document. */
export function pageOf<T extends z.ZodType>(item: T) {
  const cached = pages.get(item);
  if (cached) return cached as ReturnType<typeof makePage<T>>;
  const page = makePage(item);
  pages.set(item, page);
  return page;
}

function makePage<T extends z.ZodType>(item: T) {
  const itemId = z.globalRegistry.get(item)?.id;
  const page = z.object({ content: z.array(item), page: PageMetadata });
  return itemId ? page.meta({ id: `PagedModel${itemId}` }) : page;
}
export interface Page<T> {
  content: T[];
  page: PageMetadata;
}

export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 200;
