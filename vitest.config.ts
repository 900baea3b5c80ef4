import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Generous: a test that needs 2 s on an idle machine may need twenty times that on two busy
    // cores (CI, or two suites at once); a hang still fails, just later.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    // End-to-end tests spawn the CLI and local servers; two cores do not gain from more workers.
    maxWorkers: 2,
  },
});
