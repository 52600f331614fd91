/**
 * `--trust-proxy` / `PLANTDESK_TRUST_PROXY`: which reverse proxies' `X-Forwarded-For` names the
 * client (Fastify's `trustProxy`). The login limits count per client address, so believing
 * anyone's header would let a client pick a fresh address per guess.
 *
 * `true`, a hop count, or addresses/CIDRs; absent or empty: trust nobody.
 */
export function parseTrustProxy(text: string | undefined): boolean | number | string {
  const value = text?.trim() ?? '';
  if (value === '' || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  if (!/^[0-9a-fA-F.:/,\s]+$/.test(value)) {
    throw new Error(`--trust-proxy must be true, a number of hops or addresses, not '${text}'`);
  }
  return value;
}
