// Signed webhooks, Stripe's way: `X-Squadron-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of
// "<t>.<raw body>">`, compared in constant time, within a tolerance of the receiver's clock. Senders
// (and `notification` deliveries) sign with `signPayload`.

import { createHmac, timingSafeEqual } from 'node:crypto';

/** How far a signature's time may be from now (seconds). */
export const SIGNATURE_TOLERANCE_S = 300;

export function signPayload(secret: string, raw: Buffer | string, unixSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.`).update(raw).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

export type SignatureCheck = { ok: true; v1: string } | { ok: false; why: string };

export function checkSignature(secret: string, raw: Buffer, header: string | undefined, nowMs: number): SignatureCheck {
  if (header === undefined) return { ok: false, why: 'missing X-Squadron-Signature' };
  const parts = new Map(header.split(',').map((p) => [p.slice(0, p.indexOf('=')).trim(), p.slice(p.indexOf('=') + 1).trim()] as const));
  const t = parts.get('t');
  const v1 = parts.get('v1');
  if (t === undefined || !/^\d{1,12}$/.test(t) || v1 === undefined || !/^[0-9a-f]{64}$/.test(v1)) return { ok: false, why: 'malformed X-Squadron-Signature (t=<unix seconds>,v1=<hex>)' };
  if (Math.abs(nowMs / 1000 - Number(t)) > SIGNATURE_TOLERANCE_S) return { ok: false, why: 'signature timestamp outside the 5-minute tolerance' };
  const expected = createHmac('sha256', secret).update(`${t}.`).update(raw).digest();
  return timingSafeEqual(expected, Buffer.from(v1, 'hex')) ? { ok: true, v1 } : { ok: false, why: 'signature does not match' };
}

/** Go's plain shared secret header (only for a trigger with `signature = "shared_secret"`). */
export function checkSharedSecret(secret: string, header: string | undefined): boolean {
  if (header === undefined) return false;
  const a = createHmac('sha256', 'cmp').update(secret).digest();
  const b = createHmac('sha256', 'cmp').update(header).digest();
  return timingSafeEqual(a, b);
}
