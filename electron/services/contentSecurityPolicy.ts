/**
 * The renderer's Content-Security-Policy: the header of the Electron window's app:// responses
 * and of the web host's pages, and (a test checks they are equal) the meta tag of
 * renderer/index.html. Nothing is loaded from elsewhere: the API is reached through the bridge.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  // Vue and PrimeVue's theme set inline styles and inject <style> elements at run time.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'none'",
].join('; ');
