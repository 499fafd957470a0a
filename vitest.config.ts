import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const source = (file: string) => fileURLToPath(new URL(file, import.meta.url));

export default defineConfig({
  test: {
    globalSetup: [source('./test/support/temporary-folder.ts')],
    projects: [
      {
        // Unit tests import riddle's sources; example code they exercise imports `riddle/…`, which must be the same
        // modules (one copy of each class), not the build.
        resolve: {
          alias: {
            'riddle/core': source('./src/core.ts'),
            'riddle/trial': source('./src/vitest/index.ts'),
          },
        },
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          // Tests are bounded by the work they do, not by the clock: a loaded 2-core machine may run an exhaustive
          // check ten times slower than an idle one, and that must not fail it.
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          // Each test runs real Vitest processes on fixture projects.
          testTimeout: 1_200_000,
          hookTimeout: 1_200_000,
        },
      },
    ],
  },
});
