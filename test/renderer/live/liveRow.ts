import { liveRowText } from '../../../renderer/src/components/live/liveText.ts';
import type { LiveSensor } from '../../../renderer/src/composables/liveReadings.ts';
import { NOW } from './fixtures.ts';

/** A live row's text at the fixtures' instant. */
export const liveRow = (sensor: LiveSensor) => liveRowText(sensor, NOW);
