import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['{core,ports,adapters,hosts,client,conformance,scripts,journeys}/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Unhandled errors fail the run (h3's habit): a stray rejection is a bug, not noise.
    dangerouslyIgnoreUnhandledErrors: false,
  },
})
