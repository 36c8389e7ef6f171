/**
 * Samples uploaded on the mapping page, kept in memory so that the next previews (one per pause in
 * typing) need not send the file again: at most `UPLOADS_KEPT`, each for `UPLOAD_TTL_MS`, the
 * oldest dropped first. An upload is named by an unguessable id; the page lists only the one its
 * own form refers to, so one operator never sees another's file names.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Clock } from '../../../shared/types.js';
import { truncateUtf8 } from '../../../shared/file-name.js';
import { UPLOAD_TTL_MS, UPLOADS_KEPT } from './limits.js';
import type { Sample } from './samples.js';

export interface UploadStore {
  put(name: string, bytes: Buffer): Sample;
  get(id: string): Sample | undefined;
}

const UPLOAD_ID = /^upload:[A-Za-z0-9_-]{22}$/;

export function isUploadId(id: string): boolean {
  return UPLOAD_ID.test(id);
}

export function createUploadStore(options: { clock: Clock; kept?: number; ttlMs?: number }): UploadStore {
  const uploads = new Map<string, { sample: Sample; at: number }>();
  const kept = options.kept ?? UPLOADS_KEPT;
  const ttlMs = options.ttlMs ?? UPLOAD_TTL_MS;
  const prune = (now: number) => {
    for (const [id, upload] of uploads) if (now - upload.at > ttlMs) uploads.delete(id);
  };
  return {
    put(name, bytes) {
      const now = options.clock();
      prune(now);
      while (uploads.size >= kept) uploads.delete(uploads.keys().next().value!);
      const id = `upload:${randomBytes(16).toString('base64url')}`;
      const sample: Sample = { id, source: 'upload', name: uploadName(name), sizeBytes: bytes.length, at: new Date(now).toISOString(), bytes };
      uploads.set(id, { sample, at: now });
      return sample;
    },
    get(id) {
      prune(options.clock());
      return isUploadId(id) ? uploads.get(id)?.sample : undefined;
    },
  };
}

/**
 * The name a browser gave an upload, made safe to show and to map by: its last path segment, no
 * control or bidi-override characters, at most 200 bytes with its extension kept (it picks the format).
 */
export function uploadName(given: string): string {
  const base = (given.split(/[/\\]/).pop() ?? '').replace(/[\p{Cc}\u202a-\u202e\u2066-\u2069]/gu, '').trim();
  const ext = path.extname(base).slice(0, 16);
  const clean = `${truncateUtf8(base.slice(0, base.length - ext.length), 200 - ext.length)}${ext}`;
  return clean === '' || clean.startsWith('.') ? `sample${clean}` : clean;
}
