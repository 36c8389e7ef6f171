// `npm run fuzz` (test/fuzz/fuzz.run.ts): the coverage-guided fuzz targets, FUZZ_SECONDS each, one
// after another in one process (the coverage is the process's own), never part of `npm test`.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/fuzz/fuzz.run.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 600_000,
    // The heap check collects garbage before it judges (test/fuzz/check.ts).
    execArgv: ['--expose-gc'],
  },
});
