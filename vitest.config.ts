import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Vitest's default leaves a core idle (one worker on CI's two cores): the files took 519 s one
    // after another there, 358 s two at a time, the fixture pairs' file (about 240 s) beside the rest.
    maxWorkers: availableParallelism(),
    // One temp root per run, removed at its end (see the file).
    globalSetup: ['test/helpers/temp-root.ts'],
  },
});
