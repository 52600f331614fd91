import { DateTime } from 'luxon';
import type { Alert } from '../../ipc/contract.ts';
import { wordsOf, type Wording } from '../hostText.ts';
import type { StoredAlert } from './alertLifecycle.ts';

/** An alert as the page reads it: its stored messages put into words in the reader's language. */
export function alertInWords(alert: StoredAlert, wording: Wording): Alert {
  return {
    ...alert,
    message: wordsOf(alert.message, wording),
    history: alert.history.map(({ message, ...event }) =>
      message === undefined ? event : { ...event, message: wordsOf(message, wording) },
    ),
  };
}

/** The plant-local minute of an instant, as the analytics links take it: yyyy-MM-ddTHH:mm. */
export function localMinute(instantMs: number, zone: string): string {
  return DateTime.fromMillis(instantMs, { zone }).toFormat("yyyy-MM-dd'T'HH:mm");
}
