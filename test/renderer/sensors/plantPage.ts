import type { Component } from 'vue';
import { button as buttonNamed } from '../support/queries.ts';
import { mountWithApp, type RouteAnswers } from '../support/mountWithApp.ts';
import { CATALOG_ROUTES, PLANT } from './fixtures.ts';

/**
 * Mounts a page of the plant PLANT (`/plants/<PLANT>/<section>`) with the catalogs answered,
 * for a user with `permissions` (every permission when not given).
 */
export function mountPlantPage(
  page: Component,
  section: string,
  routes: Record<string, unknown>,
  permissions?: string[],
) {
  return mountWithApp(page, {
    props: { plantUuid: PLANT },
    route: `/plants/${PLANT}/${section}`,
    user: permissions ? { permissions: permissions as never } : undefined,
    routes: { ...CATALOG_ROUTES, ...routes } as RouteAnswers,
  });
}

/** A button of the mounted page by its accessible name ("Edit PV inverter"). */
export const pageButton = (
  app: Awaited<ReturnType<typeof mountPlantPage>>,
  name: string,
): ReturnType<typeof buttonNamed> => buttonNamed(app.wrapper, name);
