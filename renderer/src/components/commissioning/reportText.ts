/**
 * "21 June 2026 at 12:00" in the plant's zone, as the commissioning report dates things; the
 * user's own zone when the plant's is unknown to this browser.
 */
export function formatInstantIn(at: Date | string, timeZone: string): string {
  const options: Intl.DateTimeFormatOptions = { dateStyle: 'long', timeStyle: 'short' };
  try {
    return new Intl.DateTimeFormat(undefined, { ...options, timeZone }).format(new Date(at));
  } catch {
    return new Intl.DateTimeFormat(undefined, options).format(new Date(at));
  }
}
