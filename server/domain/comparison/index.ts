/**
 * Environment comparison (issue 17): one plant in two environments, matched and compared. Pure
 * functions; importable from the renderer, the main process and the server.
 */
export {
  compareFields,
  comparePlants,
  differencesOf,
  hasDifferences,
  isSecretState,
  secretState,
} from './environmentDiff.ts';
export { canonical, matchItems, type Match } from './matching.ts';
export * from './types.ts';
