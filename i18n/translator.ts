import {
  compile,
  createCoreContext,
  fallbackWithLocaleChain,
  registerLocaleFallbacker,
  registerMessageCompiler,
  registerMessageResolver,
  resolveValue,
  translate,
  type CoreContext,
  type LocaleMessage,
} from '@intlify/core-base';
import type { AppLocale } from './locales.ts';
import { MESSAGES } from './messages/index.ts';

/**
 * The main process's translator (menus, dialogs, notifications, alert texts): the renderer's
 * messages and vue-i18n's message syntax, through vue-i18n's own core, without Vue. Messages are
 * compiled to an AST (JIT), never to code, as the renderer's CSP requires there too.
 */
registerMessageCompiler(compile);
registerMessageResolver(resolveValue);
registerLocaleFallbacker(fallbackWithLocaleChain);

export interface Translate {
  (key: string, named?: Readonly<Record<string, unknown>>, plural?: number): string;
  /** The language it speaks, for the figures said with its words (absent: English). */
  readonly locale?: AppLocale;
}

/** The language a translator speaks: figures in its messages are formatted in it. */
export function localeOf(t: Translate): AppLocale {
  return t.locale ?? 'en';
}

export function createTranslator(locale: AppLocale): Translate {
  const context = createCoreContext({
    locale: locale as string,
    fallbackLocale: 'en',
    messages: MESSAGES as unknown as Record<string, LocaleMessage>,
    missingWarn: false,
    fallbackWarn: false,
    // core-base's overloads want a context without message types; ours are checked elsewhere.
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  }) as CoreContext<string, {}, {}, {}>;
  const say = (key: string, named: Readonly<Record<string, unknown>> = {}, plural?: number) =>
    String(
      plural === undefined
        ? translate(context, key, { ...named })
        : translate(context, key, { n: plural, count: plural, ...named }, plural),
    );
  return Object.assign(say, { locale });
}
