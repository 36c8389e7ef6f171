/**
 * What a reload cannot apply to an exchange with 1C. A flow's `enterpriseData` (its codes above
 * all) is the flow's identity in the exchange: its intake reads it at the start, its store row is
 * keyed by the codes, the folder's names are made of them. A reload (SIGHUP) hands out mappings and
 * certificates only, so a change here would otherwise look applied while the daemon kept the old
 * codes. Pure: the running flows and the flows of the config file read again, one line per flow.
 */
import type { EnterpriseDataConfig } from '../config/enterprisedata-schema.js';
import type { FlowConfig } from '../config/flow-schema.js';

const RESTART = 'systemctl restart procurement-connector';

type ExchangeFlow = Pick<FlowConfig, 'name' | 'enterpriseData'>;

/** One warning per flow whose `enterpriseData` differs in the config file read again at a reload; [] when none does. */
export function exchangeChangesAtReload(running: readonly ExchangeFlow[], reread: readonly ExchangeFlow[]): string[] {
  const warnings: string[] = [];
  for (const next of reread) {
    const now = running.find((flow) => flow.name === next.name);
    const before = now?.enterpriseData;
    const after = next.enterpriseData;
    if (now === undefined) {
      if (after) warnings.push(`flow ${next.name}: new in the config file, with enterpriseData; a reload starts no flow: it starts at restart (${RESTART})`);
      continue;
    }
    if (!before && after) {
      warnings.push(`flow ${next.name}: enterpriseData was added in the config file; a reload does not apply it: the exchange starts at restart (${RESTART})`);
    } else if (before && !after) {
      warnings.push(
        `flow ${next.name}: enterpriseData was removed from the config file; a reload does not apply it: the flow keeps its exchange with node ${before.node}, peer ${before.peer} until a restart (${RESTART})`,
      );
    } else if (before && after) {
      const changed = changedKeys(before, after);
      if (changed.length > 0) {
        warnings.push(
          `flow ${next.name}: ${changed.join(', ')} changed in the config file; a reload does not apply enterpriseData: the flow keeps node ${before.node}, peer ${before.peer} until a restart (${RESTART})`,
        );
      }
    }
  }
  return warnings;
}

/** The keys that differ, the codes with both values (never the password's). */
function changedKeys(before: EnterpriseDataConfig, after: EnterpriseDataConfig): string[] {
  const changed: string[] = [];
  if (before.node !== after.node) changed.push(`enterpriseData.node (${before.node} → ${after.node})`);
  if (before.peer !== after.peer) changed.push(`enterpriseData.peer (${before.peer} → ${after.peer})`);
  if (before.versions.join() !== after.versions.join()) changed.push('enterpriseData.versions');
  if (before.transliterateFileNames !== after.transliterateFileNames) changed.push('enterpriseData.transliterateFileNames');
  if (before.password !== after.password) changed.push('enterpriseData.password');
  return changed;
}
