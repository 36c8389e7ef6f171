/** The mapping stage's public surface. */
export { mapFile, formatOf, rowNumberingOf, type MapOptions, type InputFormat } from './map-file.js';
export { previewFile, type PreviewResult } from './preview-file.js';
export type { MapInput } from './map-file.js';
export { isValidInn } from './inn.js';
export { validateRequest, type RequestRules } from './validate-request.js';
export type { FieldIssue } from './field-issues.js';
export { validateConfirmation } from './validate-confirmation.js';
export { parseNumber } from './parse-number.js';
export { compileDateParser } from './parse-date.js';
export type { MappedItem, MappedSubmission } from './types.js';
export { loadMappingSpec } from '../config/load-mapping.js';
export type { MappingSpec } from '../config/mapping-schema.js';
export { suggestMapping, type SuggestOptions } from './suggest/suggest-mapping.js';
export { suggestMappingForFile } from './suggest/suggest-file.js';
export { previewSuggestion, formatSuggestionSummary, fieldsToLookAt, suggestExitCode, type SuggestionPreview } from './suggest/preview-suggestion.js';
export { SUMMARY_WORDS_EN, summaryEnglish, type SummaryKey, type SummarySay } from './suggest/summary-words.js';
export { CONFIDENCE_THRESHOLD, type MappingSuggestion, type FieldSuggestion } from './suggest/types.js';
