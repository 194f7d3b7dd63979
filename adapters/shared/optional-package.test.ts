/** An optional integration that is not installed is named, with the command that installs it. */
import { describe, expect, it } from 'vitest'
import { loadOptionalPackage, MissingPackageError } from './optional-package.js'

describe('optional packages', () => {
  it('names the missing package and how to install it', async () => {
    const missing = 'cairn-no-such-package'
    const loading = loadOptionalPackage(missing, 'The text generator "openai"', () => import(/* @vite-ignore */ missing))
    await expect(loading).rejects.toBeInstanceOf(MissingPackageError)
    await expect(loading).rejects.toThrow('The text generator "openai" needs the npm package "cairn-no-such-package", which is not installed: run npm install cairn-no-such-package')
  })

  it('passes any other failure through unchanged', async () => {
    const broken = new TypeError('the module threw while loading')
    await expect(loadOptionalPackage('openai', 'x', () => Promise.reject(broken))).rejects.toBe(broken)
  })

  it('loads an installed package', async () => {
    const module = await loadOptionalPackage('openai', 'x', () => import('openai'))
    expect(typeof module.default).toBe('function')
  })
})
