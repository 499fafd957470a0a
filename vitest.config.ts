import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          // Each test runs real Vitest processes on fixture projects.
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
