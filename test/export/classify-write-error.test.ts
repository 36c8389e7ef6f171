import { describe, expect, it } from 'vitest';
import { errnoCode, isPermanentNameError } from '../../src/export/classify-write-error.js';

const errno = (code: string) => Object.assign(new Error(code), { code });

describe('isPermanentNameError', () => {
  it.each(['ENAMETOOLONG', 'EINVAL', 'EILSEQ', 'EISDIR', 'EEXIST'])(
    '%s: the same name always fails (EEXIST: someone else’s file holds it), so fall back',
    (code) => {
      expect(isPermanentNameError(errno(code))).toBe(true);
    },
  );

  it.each(['EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'EDQUOT', 'EIO', 'EBUSY', 'EAGAIN', 'ENOTDIR', 'ENOENT'])(
    '%s: clears without touching the name, so retry',
    (code) => {
      expect(isPermanentNameError(errno(code))).toBe(false);
    },
  );

  it('retries what is not an errno error', () => {
    expect(isPermanentNameError(new Error('render failed'))).toBe(false);
    expect(isPermanentNameError(null)).toBe(false);
    expect(isPermanentNameError('EISDIR')).toBe(false);
    expect(errnoCode(new Error('x'))).toBe('ERROR');
    expect(errnoCode(errno('EISDIR'))).toBe('EISDIR');
  });
});
