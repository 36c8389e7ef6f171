/**
 * `waitUntil`: poll a condition until it holds, bounded by a generous timeout (never a fixed sleep).
 * The one of every test folder. Resolves with the condition's value, so a test can wait for a thing
 * and use it: `const row = await waitUntil(() => getFile(db, id), 'the row')`.
 */
import { setTimeout as sleep } from 'node:timers/promises';

export interface WaitOptions {
  /** Give up (and fail with `what`) after this long. Default 10 s. */
  timeoutMs?: number;
  /** Look again this often. Default 20 ms. */
  intervalMs?: number;
}

export async function waitUntil<T>(condition: () => T | Promise<T>, what: string, options: WaitOptions | number = {}): Promise<NonNullable<T>> {
  const { timeoutMs = 10_000, intervalMs = 20 } = typeof options === 'number' ? { timeoutMs: options } : options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value !== undefined && value !== null && value !== false) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(intervalMs);
  }
}
