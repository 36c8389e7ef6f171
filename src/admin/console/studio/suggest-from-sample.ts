/**
 * The Suggest button: `mapping suggest` on the chosen sample, what the suggestion makes of that
 * sample (its summary), and the preview of the suggested YAML. Without a sample, or with one the
 * suggester cannot read, the answer is the failure to show beside the editor's own text. The
 * summary is worded in the console's language (`summary.*` of its catalogues); what the suggester
 * found and why (its reasons, warnings, notes) is quoted as it says it.
 */
import type { FlowConfig } from '../../../config/flow-schema.js';
import { isConnectorError } from '../../../errors.js';
import type { Translate } from '../i18n.js';
import { formatSuggestionSummary, previewSuggestion, suggestMappingForFile, type MappingSuggestion } from '../../../mapping/index.js';
import { previewMapping, type PreviewData } from './preview.js';
import { withSampleFile } from './sample-file.js';
import type { Sample } from './samples.js';

type Failure = NonNullable<PreviewData['sampleError']>;

export type SuggestAnswer =
  { ok: true; sample: Sample; suggestion: MappingSuggestion; summary: string; preview: PreviewData } | { ok: false; failure: Failure | null };

/** `sampleError`: why the asked sample could not be had; `t`: the page's language (the failure when no sample was asked, the summary). */
export async function suggestFromSample(
  flow: FlowConfig,
  sample: Sample | null,
  sampleError: Failure | null,
  t: Translate,
  now: () => Date,
): Promise<SuggestAnswer> {
  const needsSample = t('mapping.suggestNeedsSample');
  const failure = sampleError ?? (sample ? null : { code: 'FILE_UNREADABLE', message: needsSample });
  if (!sample || failure) return { ok: false, failure };
  let suggestion: MappingSuggestion;
  try {
    suggestion = await withSampleFile(sample, (input) => suggestMappingForFile(input, { kind: flow.kind, now: now() }));
  } catch (caught) {
    if (!isConnectorError(caught)) throw caught;
    return { ok: false, failure: { code: caught.code, message: caught.message } };
  }
  const tried = await withSampleFile(sample, (input) => previewSuggestion(suggestion, input, { now: now() }));
  const summary = formatSuggestionSummary(
    suggestion,
    tried,
    t('summary.inEditor'),
    (key, params) => t(key, params),
    (problem) => (problem.text ? (t.text(problem.text) ?? problem.message) : problem.message),
  );
  const preview = await previewMapping(suggestion.yaml, flow, sample, null, now());
  return { ok: true, sample, suggestion, summary, preview };
}
