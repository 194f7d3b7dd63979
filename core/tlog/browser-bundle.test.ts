/**
 * The offline verifier must run in a browser unchanged: bundling verify-receipt.ts for the browser
 * succeeds only if nothing it imports needs a Node built-in.
 */
import { build } from 'esbuild'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

describe('offline log verifier', () => {
  it('bundles for the browser without Node built-ins', async () => {
    const result = await build({
      entryPoints: [fileURLToPath(new URL('./verify-receipt.ts', import.meta.url))],
      bundle: true, platform: 'browser', format: 'esm', write: false, logLevel: 'silent',
    })
    expect(result.errors).toEqual([])
    expect(result.outputFiles[0]!.text).not.toMatch(/from ["']node:/)
  })
})
