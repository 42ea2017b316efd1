/**
 * The idempotency key of one request form: generated when the form opens and sent unchanged on
 * every retry of that form (docs/api.md, POST /api/requests).
 */
export interface CryptoLike {
  randomUUID?: () => string;
  getRandomValues?: <T extends ArrayBufferView | null>(array: T) => T;
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A version-4 UUID: crypto.randomUUID where available (secure contexts), else built by hand. */
export function newOperationId(
  cryptoImpl: CryptoLike | undefined = globalThis.crypto as CryptoLike | undefined,
  random: () => number = Math.random,
): string {
  if (cryptoImpl && typeof cryptoImpl.randomUUID === 'function') {
    try {
      return cryptoImpl.randomUUID();
    } catch {
      // randomUUID exists but refuses (e.g. not a secure context): fall through
    }
  }
  const bytes = new Uint8Array(16);
  let filled = false;
  if (cryptoImpl && typeof cryptoImpl.getRandomValues === 'function') {
    try {
      cryptoImpl.getRandomValues(bytes);
      filled = true;
    } catch {
      filled = false;
    }
  }
  if (!filled) {
    for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(random() * 256) & 0xff;
  }
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40; // version 4
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80; // RFC 4122 variant
  const h = hex(bytes);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
