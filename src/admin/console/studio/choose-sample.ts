/**
 * The sample a studio form asked for: a file uploaded with it (kept for the next previews), an
 * earlier upload by its id, or an archived file of the flow's inbox by its id. A sample that cannot
 * be had is not a failure of the request: the page says why (`error`) and previews without one.
 */
import type { FlowConfig } from '../../../config/flow-schema.js';
import { ConnectorError, isConnectorError } from '../../../errors.js';
import type { PreviewData } from './preview.js';
import { readArchiveSample, tooLarge, type Sample } from './samples.js';
import { MAX_SAMPLE_BYTES } from './limits.js';
import { isUploadId, type UploadStore } from './uploads.js';

export interface SampleChoice {
  sample: Sample | null;
  error: PreviewData['sampleError'];
}

/** Choose by `id` ('' for none), or take `upload` when one came with the form. Rejects only on an error that is not the sample's. */
export async function chooseSample(uploads: UploadStore, flow: FlowConfig, id: string, upload: File | null): Promise<SampleChoice> {
  try {
    if (upload !== null && upload.size > 0) {
      if (upload.size > MAX_SAMPLE_BYTES) throw tooLarge(upload.name, upload.size);
      return { sample: uploads.put(upload.name, Buffer.from(await upload.arrayBuffer())), error: null };
    }
    if (isUploadId(id)) {
      const sample = uploads.get(id);
      if (!sample) throw new ConnectorError('FILE_UNREADABLE', 'the uploaded sample is no longer kept (uploads are kept for 30 minutes): upload it again');
      return { sample, error: null };
    }
    if (id !== '') return { sample: await readArchiveSample(flow.inbox, id), error: null };
    return { sample: null, error: null };
  } catch (error) {
    if (!isConnectorError(error)) throw error;
    return { sample: null, error: { code: error.code, message: error.message } };
  }
}
