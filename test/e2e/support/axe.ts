import type { Page } from '@playwright/test';
// axe-core itself, a devDependency of its own (it replaced @axe-core/playwright, see below).
import axe from 'axe-core';

/**
 * axe-core run in the page itself (`axe.run`), injected once per document and frame rather than
 * on every run. @axe-core/playwright's AxeBuilder, used before, sends its half-megabyte source into every frame
 * on each analyze() and finishes each run in a blank page it opens for that: over the
 * accessibility spec's thirty screens in four variants, that was most of the spec's time.
 *
 * axe.run reaches the page's same-origin frames itself (each has axe injected here); a frame of
 * another origin, which only AxeBuilder's per-frame runs would audit, fails the audit instead of
 * going unaudited. Violations are listed in full, every node; `resultTypes` only keeps axe from
 * listing every node of the passes and the incomplete checks, which nothing here reads.
 */
export async function axeViolations(
  page: Page,
  tags: readonly string[],
): Promise<axe.AxeResults['violations']> {
  const origin = new URL(page.url()).origin;
  for (const frame of page.frames()) {
    const url = frame.url();
    if (/^https?:/.test(url) && new URL(url).origin !== origin) {
      throw new Error(`a frame of another origin (${url}) would go unaudited`);
    }
    const injected = await frame.evaluate(
      () => typeof (globalThis as { axe?: { run?: unknown } }).axe?.run === 'function',
    );
    if (!injected) await frame.evaluate(axe.source);
  }
  const results = (await page.evaluate(
    (values) => {
      const { axe: run, document } = globalThis as unknown as {
        axe: { run(context: unknown, options: object): Promise<unknown> };
        document: unknown;
      };
      return run.run(document, { runOnly: { type: 'tag', values }, resultTypes: ['violations'] });
    },
    [...tags],
  )) as axe.AxeResults;
  return results.violations;
}
