/**
 * An IANA time-zone name this runtime knows (`Europe/Rome`, `Asia/Kathmandu`, `UTC`). Fixed
 * offsets such as `+02:00` are rejected: a plant's local days must follow its zone's DST rules.
 */
const IANA_NAME = /^(?:[A-Za-z][A-Za-z0-9_+-]*)(?:\/[A-Za-z0-9_+-]+)*$/;

export function isIanaTimeZone(name: string): boolean {
  if (!IANA_NAME.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
