import { formatNumber } from './format.ts';
import type { AppLocale } from './locales.ts';
import type { Translate } from './translator.ts';

/** The part of a zod 4 issue the wording reads: its code and the bounds or format it names. */
export interface ZodLikeIssue {
  path: readonly PropertyKey[];
  message: string;
  code?: string;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  inclusive?: boolean;
  format?: string;
  expected?: string;
  input?: unknown;
  params?: Record<string, unknown>;
}

/** Zod keeps the input out of its issues unless asked; its own wording says what it received. */
function isMissing(issue: ZodLikeIssue): boolean {
  if ('input' in issue) return issue.input === undefined || issue.input === null;
  return /received (undefined|null)$/.test(issue.message);
}

/**
 * A contract schema's verdict in the user's language: the schemas speak English (the host logs
 * and refuses with them), the forms show what the issue code means. A refinement names its own
 * message with `params.messageKey`; an issue the forms cannot meet keeps the schema's words.
 */
export function zodIssueText(issue: ZodLikeIssue, t: Translate, locale: AppLocale): string {
  const bound = (value: number | bigint | undefined) => formatNumber(locale, Number(value ?? 0));
  const key = issue.params?.messageKey;
  switch (issue.code) {
    case 'custom':
      return typeof key === 'string' ? t(key) : issue.message;
    case 'too_small': {
      const minimum = Number(issue.minimum ?? 0);
      const named = { minimum: bound(issue.minimum) };
      if (issue.origin === 'string') {
        return minimum <= 1
          ? t('common.validation.required')
          : t('common.validation.tooShort', named, minimum);
      }
      if (issue.origin === 'array' || issue.origin === 'set') {
        return t('common.validation.tooFew', named, minimum);
      }
      return issue.inclusive === false
        ? t('common.validation.above', named)
        : t('common.validation.atLeast', named);
    }
    case 'too_big': {
      const maximum = Number(issue.maximum ?? 0);
      const named = { maximum: bound(issue.maximum) };
      if (issue.origin === 'string') return t('common.validation.tooLong', named, maximum);
      if (issue.origin === 'array' || issue.origin === 'set') {
        return t('common.validation.tooMany', named, maximum);
      }
      return issue.inclusive === false
        ? t('common.validation.below', named)
        : t('common.validation.atMost', named);
    }
    case 'invalid_format':
      return issue.format === 'url' ? t('common.validation.url') : t('common.validation.format');
    case 'invalid_type':
      if (isMissing(issue)) return t('common.validation.required');
      return issue.expected === 'number' || issue.expected === 'int'
        ? t('common.validation.number')
        : t('common.validation.invalid');
    case 'invalid_value':
      return t('common.validation.choose');
    default:
      return issue.message;
  }
}
