/**
 * An exchange's codes that 1C could not hold (`flows[].enterpriseData`). With the folder transport
 * and «Другая программа», 1C's wizard addresses the exchange by infobase prefixes of at most two
 * characters (its attributes are String(2)): `node` is the prefix the administrator types for the
 * other program («Префикс» under «Общие параметры»), `peer` is 1C's own infobase prefix, which its
 * messages carry in `From`, beside its exchange UUID in `NewFrom` (36 characters, accepted as
 * `peer` too). A longer code is accepted by the schema (another 1C setup may give longer ones) but
 * can never match what 1C writes here: said by `check` and at start, never refused.
 */
import { isExchangeUuid } from './enterprisedata-schema.js';
import type { FlowConfig } from './flow-schema.js';

/** The longest infobase prefix 1C's wizard keeps (its attributes are String(2)). */
export const MAX_PREFIX_LENGTH = 2;

/** One line per code 1C could not hold, naming its key; [] when every code fits. */
export function exchangeCodeWarnings(flows: readonly Pick<FlowConfig, 'enterpriseData'>[]): string[] {
  const warnings: string[] = [];
  flows.forEach((flow, index) => {
    const exchange = flow.enterpriseData;
    if (!exchange) return;
    const key = `flows[${index}].enterpriseData`;
    const nodeLength = [...exchange.node].length;
    if (nodeLength > MAX_PREFIX_LENGTH) {
      warnings.push(
        `${key}.node "${exchange.node}" is ${nodeLength} characters long, and 1C keeps this program's code as the prefix typed for it in its synchronization wizard («Префикс» under «Общие параметры»), at most ${MAX_PREFIX_LENGTH} characters: 1C will not write to this code; use the prefix typed there`,
      );
    }
    const peerLength = [...exchange.peer].length;
    if (peerLength > MAX_PREFIX_LENGTH && !isExchangeUuid(exchange.peer)) {
      warnings.push(
        `${key}.peer "${exchange.peer}" is neither 1C's infobase prefix (at most ${MAX_PREFIX_LENGTH} characters: Администрирование → Общие настройки → «Префикс этой информационной базы»; its messages carry it in From) nor its exchange UUID (36 characters, NewFrom in its messages): 1C will not write as this code; use its prefix`,
      );
    }
  });
  return warnings;
}
