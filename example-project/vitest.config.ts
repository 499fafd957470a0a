import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { include: ['trials/**/*.test.ts'] },
});
