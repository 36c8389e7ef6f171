/**
 * `/mapping`: a flow's mapping in an editor beside its preview on a sample. One form serves every
 * button (Preview, Suggest, Save: `formaction`), so the page works without JavaScript; with it,
 * `mapping.js` swaps in a fresh `#preview` (rendered by `PreviewSection`, the same markup) as the
 * operator types, and `editor.js` puts a YAML editor in place of the textarea (which stays in the
 * form, holding the text), with completion, hover and inline errors from the schema at `data-schema`,
 * saying them with the words in `data-words` (the console's language, `editorWords`).
 */
import type { PreviewData } from '../studio/preview.js';
import type { SampleInfo } from '../studio/samples.js';
import type { StudioData } from '../studio/studio-data.js';
import type { UploadFormats } from '../studio/upload-formats.js';
import { MAX_SAMPLE_BYTES } from '../studio/limits.js';
import { formatBytes } from '../format.js';
import { YAML_ERROR_KEYS } from '../../../config/yaml-error-keys.js';
import { EDITOR_WORDS_EN } from '../editor/words.js';
import { translateOr, type Translate } from '../i18n.js';
import { paths } from '../paths.js';
import { Layout } from './layout.js';
import { AuditTable, hintFor, Json, ProblemMessage, ProblemTable } from './parts.js';
import type { ViewContext } from './view-context.js';

/** The editor's words in the page's language, placeholders as written (the editor fills them): its own, and the YAML parser's texts. */
export function editorWords(t: Translate): Record<string, string> {
  const words: Record<string, string> = {};
  for (const key of Object.keys(EDITOR_WORDS_EN) as (keyof typeof EDITOR_WORDS_EN)[]) words[key] = t(key);
  for (const key of Object.values(YAML_ERROR_KEYS)) words[`text.${key}`] = t.text({ key }) ?? key;
  return words;
}

/** `upload`: the formats the flow reads (`uploadFormatsOf`), named on the upload's label and offered by its file picker. */
export function MappingPage(props: { ctx: ViewContext; data: StudioData; upload: UploadFormats }) {
  const { ctx, data, upload } = props;
  const { t } = ctx;
  const title = t('mapping.title', { flow: data.flow });
  return (
    <Layout ctx={ctx} title={title} script="mapping.js">
      <h1>{title}</h1>
      <FlowPicker ctx={ctx} flow={data.flow} />
      <dl class="facts">
        <dt>{t('mapping.file')}</dt>
        <dd>
          <code>{data.file}</code>
        </dd>
        <dt>{t('col.kind')}</dt>
        <dd>{data.kind}</dd>
      </dl>
      <FileNotices t={t} data={data} />
      <div class="studio">
        <form method="post" action={paths.mappingPreview()} enctype="multipart/form-data" id="studio" class="editor" data-failed={t('mapping.previewFailed')}>
          <input type="hidden" name="_csrf" value={ctx.session?.csrfToken ?? ''} />
          <input type="hidden" name="flow" value={data.flow} />
          <input type="hidden" name="version" value={data.version ?? ''} />
          <label>
            {t('mapping.sample')}
            <select name="sample" id="sample">
              <option value="">{t('mapping.noSample')}</option>
              {data.samples.map((sample) => (
                <option value={sample.id} selected={sample.id === data.sampleId}>
                  {sampleLabel(t, sample)}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t('mapping.uploadFormats', { formats: upload.names, size: formatBytes(MAX_SAMPLE_BYTES) })}
            <input type="file" name="upload" id="upload" accept={upload.accept} />
          </label>
          <label for="yaml">{t('mapping.editor')}</label>
          <textarea
            name="yaml"
            id="yaml"
            spellcheck={false}
            autocomplete="off"
            wrap="off"
            rows={34}
            data-schema={paths.mappingSchema(data.flow)}
            data-words={JSON.stringify(editorWords(t))}
          >
            {data.text}
          </textarea>
          <p class="buttons">
            <button type="submit" id="preview-button">
              {t('mapping.preview')}
            </button>
            <button type="submit" formaction={paths.mappingSuggest()} id="suggest-button" class="button secondary">
              {t('mapping.suggest')}
            </button>
            <SaveControl ctx={ctx} flow={data.flow} />
          </p>
          <p class="muted">{t('mapping.how')}</p>
        </form>
        <div class="result">
          <details id="suggestion" open hidden={data.suggestion === null}>
            <summary>{t('mapping.suggestion')}</summary>
            <pre id="suggestion-summary" class="json">
              {data.suggestion?.summary ?? ''}
            </pre>
          </details>
          <PreviewSection t={t} data={data.preview} />
        </div>
      </div>
      <script src={paths.asset('editor.js')} defer></script>
      {data.audit.length > 0 ? (
        <section>
          <h2>{t('mapping.saves')}</h2>
          <AuditTable t={t} rows={data.audit} />
        </section>
      ) : null}
    </Layout>
  );
}

/** The flows' mappings, one at a time. */
function FlowPicker(props: { ctx: ViewContext; flow: string }) {
  const { ctx, flow: current } = props;
  const { t } = ctx;
  return (
    <form method="get" action={paths.mapping()} class="search flow-pick">
      <label>
        {t('mapping.flow')}{' '}
        <select name="flow">
          {ctx.flows.map((flow) => (
            <option value={flow} selected={flow === current}>
              {flow}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" class="button secondary">
        {t('mapping.open')}
      </button>
    </form>
  );
}

/** What is wrong with the mapping's file: it cannot be read, cannot be written, or the last save was refused. */
function FileNotices(props: { t: Translate; data: StudioData }) {
  const { t, data } = props;
  return (
    <>
      {data.fileError ? <p class="error">{t('mapping.fileError', { file: data.file, error: data.fileError })}</p> : null}
      {data.notWritable ? (
        <p class="warn" id="not-writable">
          <code title={hintFor(t, data.notWritable.code)}>{data.notWritable.code}</code> {t('mapping.notWritable', { message: data.notWritable.message })}
        </p>
      ) : null}
      {data.saveError ? (
        <p class="error" role="alert" id="save-error">
          <code>{data.saveError.code}</code> {t('mapping.saveRefused', { message: data.saveError.message })}
        </p>
      ) : null}
    </>
  );
}

function SaveControl(props: { ctx: ViewContext; flow: string }) {
  const { ctx } = props;
  const { t } = ctx;
  if (!ctx.actionsOn) return <span class="muted">{t('mapping.saveOff')}</span>;
  if (!ctx.session)
    return (
      <a class="button secondary" href={paths.login(paths.mapping(props.flow))}>
        {t('mapping.signInToSave')}
      </a>
    );
  return (
    <button type="submit" formaction={paths.mappingSave()} id="save-button">
      {t('mapping.save')}
    </button>
  );
}

export function sampleLabel(t: Translate, sample: SampleInfo): string {
  const size = formatBytes(sample.sizeBytes);
  if (sample.source === 'upload') return t('mapping.uploaded', { name: sample.name, size });
  const day = /^archive:([^/]+)\//.exec(sample.id)?.[1] ?? '';
  return `${day} / ${sample.name} (${size})`;
}

/** The preview: whether the YAML loads (or where it does not), then the problems and payloads of the sample. */
export function PreviewSection(props: { t: Translate; data: PreviewData }) {
  const { t, data } = props;
  const { mapping, result, sample } = data;
  return (
    <section id="preview" data-sample-id={sample?.id ?? ''} data-sample-label={sample ? sampleLabel(t, sample) : ''}>
      <h2>{t('mapping.previewTitle')}</h2>
      {data.sampleError ? (
        <p class="error">
          <code>{data.sampleError.code}</code> {t('mapping.sampleError', { message: data.sampleError.message })}
        </p>
      ) : null}
      {mapping.ok ? (
        <p class="ok-text" id="mapping-state">
          {t('mapping.loads', { kind: translateOr(t, `kind.${data.kind}`, data.kind), format: mapping.format?.toUpperCase() ?? '—' })}
        </p>
      ) : (
        <div id="mapping-state">
          <p class="error">
            <code>{mapping.code}</code> {t('mapping.invalid')}
          </p>
          <table class="yaml-problems">
            <thead>
              <tr>
                <th>{t('mapping.where')}</th>
                <th>{t('col.message')}</th>
              </tr>
            </thead>
            <tbody>
              {mapping.problems.map((p) => (
                <tr data-line={p.line ?? undefined} data-column={p.column ?? undefined} data-path={p.path} class={p.line !== null ? 'goto' : undefined}>
                  <td>
                    {p.path ? <code>{p.path}</code> : null}
                    {p.path && p.line !== null ? ' ' : null}
                    {p.line !== null ? <span class="place">{t('mapping.lineColumn', { line: p.line, column: p.column })}</span> : null}
                    {!p.path && p.line === null ? t('mapping.wholeFile') : null}
                  </td>
                  <td class="message">
                    {p.text ? (
                      <ProblemMessage t={t} problem={{ code: mapping.code, text: p.text }} />
                    ) : (
                      <>
                        {t.code(mapping.code)} <q class="said">{p.message}</q>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {result ? (
        <div>
          <p class="counts" id="preview-counts">
            {t('mapping.counts', { sample: sample?.name, submissions: result.submissions, problems: result.problems })}
          </p>
          {result.stopped ? <p class="warn">{t('mapping.stopped', { reason: result.stopped })}</p> : null}
          {result.outcome.state === 'rejected' && !result.stopped ? (
            <p class="warn" id="preview-outcome">
              {t('mapping.wouldReject', { code: result.outcome.code ?? '' })}
            </p>
          ) : null}
          {result.problems > 0 ? (
            <div class="problems-block">
              <h3>{t('mapping.problems')}</h3>
              <p class="hint">{t(`file.rows.${result.rows}`)}</p>
              {result.problemRows.length < result.problems ? (
                <p class="muted">{t('common.more', { shown: result.problemRows.length, total: result.problems })}</p>
              ) : null}
              <ProblemTable t={t} rows={result.problemRows} withColumn />
            </div>
          ) : null}
          {result.payloads.length > 0 ? (
            <div class="payloads">
              <h3>{t('mapping.payloads')}</h3>
              {result.payloads.length < result.submissions ? (
                <p class="muted">{t('common.more', { shown: result.payloads.length, total: result.submissions })}</p>
              ) : null}
              {result.payloads.map((p, index) => (
                <details open={index === 0}>
                  <summary>{t('mapping.payload', { key: p.key, row: p.firstRow })}</summary>
                  <Json value={p.payload} />
                </details>
              ))}
            </div>
          ) : null}
        </div>
      ) : mapping.ok && !sample && !data.sampleError ? (
        <p class="muted">{t('mapping.chooseSample')}</p>
      ) : null}
    </section>
  );
}
