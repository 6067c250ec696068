/** The delivery schedule of spec 8: seven attempts in all, retried after these waits, then `failed`. */
const MINUTE = 60_000;
export const RETRY_DELAYS_MS = [1 * MINUTE, 5 * MINUTE, 30 * MINUTE, 120 * MINUTE, 360 * MINUTE, 720 * MINUTE] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** When the attempt after a failed one is due, or null when `attempts` (those made so far) is the last. */
export function nextAttemptAt(attempts: number, failedAt: Date): Date | null {
  if (attempts >= MAX_ATTEMPTS) return null;
  return new Date(failedAt.getTime() + RETRY_DELAYS_MS[attempts - 1]);
}
