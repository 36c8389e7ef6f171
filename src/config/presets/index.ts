/**
 * Presets: shipped base mappings that a mapping names (`preset: commerceml`, `preset: enterprisedata`) and adds to. The
 * mapping's own keys win: a field with a source of its own (`column`, `path`, `const`, `template`,
 * `counter`) replaces the preset's field, a field with options only (`default:`, `optional:`, `map:`)
 * adds them to the preset's field, and a format section (`xml:`) adds its keys to the preset's.
 */
import { COMMERCEML_PRESET } from './commerceml.js';
import { ENTERPRISEDATA_PRESET } from './enterprisedata.js';
import { FIELD_SOURCES } from '../mapping-schema.js';

export const PRESETS: Readonly<Record<string, Readonly<Record<string, unknown>>>> = { commerceml: COMMERCEML_PRESET, enterprisedata: ENTERPRISEDATA_PRESET };

const FIELD_SECTIONS = new Set(['request', 'confirmation', 'items', 'document']);
const OPTION_SECTIONS = new Set(['csv', 'json', 'xlsx', 'xml', 'skipRows', 'withdrawals']);

type Raw = Record<string, unknown>;
const isObject = (value: unknown): value is Raw => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The mapping with its preset's keys under its own; unchanged when it names none (or an unknown one, for zod to report). */
export function applyPreset(raw: Raw): Raw {
  const base = typeof raw.preset === 'string' && Object.hasOwn(PRESETS, raw.preset) ? PRESETS[raw.preset]! : undefined;
  if (base === undefined) return raw;
  const out: Raw = { ...base };
  for (const [key, value] of Object.entries(raw)) {
    const under = out[key];
    if (FIELD_SECTIONS.has(key) && isObject(under) && isObject(value)) out[key] = mergeFields(under, value);
    else if (OPTION_SECTIONS.has(key) && isObject(under) && isObject(value)) out[key] = { ...under, ...value };
    else out[key] = value;
  }
  return out;
}

function mergeFields(base: Raw, own: Raw): Raw {
  const out: Raw = { ...base };
  for (const [target, field] of Object.entries(own)) {
    const under = base[target];
    const ownSource = isObject(field) && FIELD_SOURCES.some((key) => key in field);
    out[target] = isObject(field) && isObject(under) && !ownSource ? { ...under, ...field } : field;
  }
  return out;
}
