/**
 * What an environment's address may be, and which server a credential belongs to. Shared by the
 * contract (so the renderer's form says the same as the host) and the services.
 */

/** localhost, *.localhost, 127.0.0.0/8 and [::1]: the traffic never leaves the machine. */
export function isLoopbackUrl(url: string): boolean {
  let hostname: string;
  try {
    hostname = new URL(url).hostname;
  } catch {
    return false;
  }
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    hostname === '[::1]' ||
    /^127(?:\.\d{1,3}){3}$/.test(hostname)
  );
}

/**
 * Tokens and passwords travel in the clear over http: only to a server on this machine.
 * (Also true for anything that is not a URL: the URL check reports that.)
 */
export function isSecureEnough(url: string): boolean {
  try {
    return new URL(url).protocol === 'https:' || isLoopbackUrl(url);
  } catch {
    return true;
  }
}

/** The one the app itself starts: its port changes at every start, the server stays ours. */
export const LOCAL_SANDBOX_ORIGIN = 'plantdesk-local-sandbox';

/**
 * The server a credential is bound to: the origin (scheme, host, port) of the address it was
 * issued at; for the Local sandbox, the sandbox itself, wherever it listens now.
 */
export function credentialOrigin(environment: { kind: string; baseUrl: string }): string {
  if (environment.kind === 'local') return LOCAL_SANDBOX_ORIGIN;
  try {
    return new URL(environment.baseUrl).origin;
  } catch {
    return '';
  }
}

/** May a credential bound to `origin` be sent to `url`? */
export function mayReceiveCredential(origin: string, url: string): boolean {
  if (origin === '') return false;
  if (origin === LOCAL_SANDBOX_ORIGIN) return isLoopbackUrl(url);
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}
