/**
 * What a flow asks of its mapping, checked where both are loaded (`check`, and the daemon's start
 * and reload): the kinds agree, and an exchange with 1C reads its XML messages. And what works but
 * should not last: the shipped EnterpriseData mapping's placeholder contact and address, left as
 * they are, would reach the real platform as every request's contact.
 */
import type { FlowConfig } from './flow-schema.js';
import type { MappingSpec } from './mapping-schema.js';
import { ENTERPRISEDATA_SITE_DEFAULTS } from './presets/enterprisedata-site-defaults.js';

/**
 * The placeholders `config/mappings/enterprisedata-orders.yaml` ships, every one marked SITE there:
 * each would reach the platform as the site's own purchasing contact or warehouse.
 */
const SHIPPED_PLACEHOLDERS = ENTERPRISEDATA_SITE_DEFAULTS.map(({ name, spec }) =>
  'const' in spec ? { field: name, key: 'const' as const, value: spec.const } : { field: name, key: 'default' as const, value: spec.default },
);

/** Why the mapping does not fit the flow, or undefined when it does. */
export function flowMappingProblem(flow: FlowConfig, spec: MappingSpec): string | undefined {
  if (spec.kind !== flow.kind) return `kind is ${flow.kind} but ${flow.mapping} is a ${spec.kind} mapping`;
  if (flow.enterpriseData && spec.format !== 'xml') {
    return `enterpriseData needs a mapping that reads 1C's XML messages (format: xml; the shipped one is enterprisedata-orders.yaml with preset: enterprisedata), but ${flow.mapping} reads ${spec.format ?? 'by file extension'}`;
  }
  return undefined;
}

/** Placeholders of the shipped mapping still in use, one line each. */
export function flowMappingWarnings(flow: FlowConfig, spec: MappingSpec): string[] {
  return SHIPPED_PLACEHOLDERS.flatMap(({ field, key, value }) =>
    spec.header[field]?.[key] === value
      ? [
          `flow ${flow.name}: ${flow.mapping} still has the shipped placeholder ${field} ${key}: "${value}"; put your own before requests go to the real platform`,
        ]
      : [],
  );
}
