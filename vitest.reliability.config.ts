// The reliability suite (`npm run test:reliability`): the built daemon as a child process, killed,
// flooded and fed garbage. Files run one after another: each drives a daemon at full CPU, and on
// two cores they would only slow each other into timeouts.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/reliability/**/*.test.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 240_000,
    hookTimeout: 60_000,
  },
});
