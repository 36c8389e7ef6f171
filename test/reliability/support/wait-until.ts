/** Poll a condition until it holds, bounded by a generous timeout (never a fixed sleep). */
import { setTimeout as sleep } from 'node:timers/promises';

export async function waitUntil(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000, intervalMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(intervalMs);
  }
}
