/**
 * What a file handed to the workbook reader really is, when it is not an xlsx workbook, so that
 * the message says what to do (`is an Excel 97-2003 workbook (.xls): save it as .xlsx`) instead of
 * "not a ZIP file". Two checks: the container by its first bytes, before the archive is opened,
 * and, once it is a ZIP, whether it holds a workbook.
 */
import { ConnectorError, type MessageText } from '../../../errors.js';
import { sniffContainer } from '../sniff.js';
import { readCfbNames } from './cfb-directory.js';
import type { WorkbookArchive } from './workbook-archive.js';
import { DEFAULT_WORKBOOK_PART, findMainPart } from './workbook-parts.js';
import { readFully, type InputHandle } from '../../../shared/input-file.js';

/** Bytes of a text file looked at to tell an Excel 2003 XML spreadsheet or an HTML page. */
const TEXT_HEAD_BYTES = 4096;
const ODS_MIMETYPE = 'application/vnd.oasis.opendocument.spreadsheet';
const SAVE_AS_XLSX = 'save it as .xlsx (Excel 2007 or later)';

const unsupported = (what: string, text: MessageText) => new ConnectorError('FILE_FORMAT_UNSUPPORTED', what, { text });

/** Throws unless the file is a ZIP archive (the only container an xlsx workbook comes in). */
export async function requireZipContainer(handle: InputHandle): Promise<void> {
  const container = await sniffContainer(handle);
  if (container === 'zip') return;
  if (container === 'mxl') throw unsupported('is a 1C spreadsheet document (.mxl): in 1C, save it as .xlsx', { key: 'fileIsMxl' });
  if (container === 'cfb') {
    const names = await readCfbNames(handle);
    if (names.includes('EncryptionInfo') || names.includes('EncryptedPackage')) {
      throw new ConnectorError('WORKBOOK_ENCRYPTED', 'is encrypted (password to open): save it again without a password', {
        text: { key: 'workbookEncrypted' },
      });
    }
    if (names.includes('Workbook') || names.includes('Book')) throw unsupported(`is an Excel 97-2003 workbook (.xls): ${SAVE_AS_XLSX}`, { key: 'fileIsXls' });
    throw unsupported(`is an OLE compound file (an old Office document), not an xlsx workbook: ${SAVE_AS_XLSX}`, { key: 'fileIsOle' });
  }
  const head = Buffer.alloc(TEXT_HEAD_BYTES);
  const bytesRead = await readFully(handle, head, 0, head.length, 0);
  if (bytesRead === 0) throw new ConnectorError('FILE_UNREADABLE', 'is empty, not an xlsx workbook', { text: { key: 'workbookEmpty' } });
  const text = head
    .subarray(0, bytesRead)
    .toString('latin1')
    .replace(/^\xEF\xBB\xBF/, '')
    .trimStart();
  if (text.startsWith('<?xml') && text.includes('urn:schemas-microsoft-com:office:spreadsheet')) {
    throw unsupported(`is an Excel 2003 XML spreadsheet, not an xlsx workbook: ${SAVE_AS_XLSX}`, { key: 'fileIsXml2003' });
  }
  if (/<html[\s>]|<!doctype html/i.test(text))
    throw unsupported(`is a web page (HTML saved with a spreadsheet's name), not an xlsx workbook: ${SAVE_AS_XLSX}`, { key: 'fileIsHtml' });
  throw unsupported(`is not an xlsx workbook (an xlsx file is a ZIP archive; this one is text or another format): ${SAVE_AS_XLSX}`, { key: 'fileIsNotXlsx' });
}

/** The workbook part of a ZIP archive; throws when the archive is an OpenDocument or other non-xlsx package. */
export async function locateWorkbook(archive: WorkbookArchive, signal?: AbortSignal): Promise<string> {
  if (await isOpenDocumentSpreadsheet(archive, signal)) throw unsupported(`is an OpenDocument spreadsheet (.ods): ${SAVE_AS_XLSX}`, { key: 'fileIsOds' });
  const main = (await findMainPart(archive, signal)) ?? DEFAULT_WORKBOOK_PART;
  if (/^word\//i.test(main)) throw unsupported(`is a Word document (.docx), not a workbook: ${SAVE_AS_XLSX}`, { key: 'fileIsDocx' });
  if (/^ppt\//i.test(main)) throw unsupported(`is a PowerPoint presentation (.pptx), not a workbook: ${SAVE_AS_XLSX}`, { key: 'fileIsPptx' });
  if (/\.bin$/i.test(main)) throw unsupported(`is an Excel binary workbook (.xlsb): ${SAVE_AS_XLSX}`, { key: 'fileIsXlsb' });
  if (archive.has(main)) return main;
  throw unsupported(`is a ZIP archive without a workbook in it (no ${main}): ${SAVE_AS_XLSX}`, { key: 'zipNoWorkbook', params: { part: main } });
}

/** An ODF package: its `mimetype` entry says so, or it has `content.xml` and no workbook. */
async function isOpenDocumentSpreadsheet(archive: WorkbookArchive, signal?: AbortSignal): Promise<boolean> {
  if (archive.has('mimetype')) {
    let head = '';
    for await (const chunk of archive.read('mimetype', signal)) {
      head += chunk.toString('latin1');
      if (head.length >= 256) break;
    }
    if (head.trim().startsWith(ODS_MIMETYPE)) return true;
  }
  return archive.has('content.xml') && !archive.has(DEFAULT_WORKBOOK_PART);
}
