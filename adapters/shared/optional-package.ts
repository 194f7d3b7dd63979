/**
 * Integrations a deployment may not use (OpenAI, Stripe, the AWS SDK for S3) are optional peer dependencies, loaded on
 * first use: an in-memory embed never loads them, and a deployment that asks for one without the
 * package installed gets a sentence naming what to install instead of a module-resolution stack.
 */

export class MissingPackageError extends Error {
  constructor(readonly packageName: string, readonly purpose: string, options?: ErrorOptions) {
    super(`${purpose} needs the npm package "${packageName}", which is not installed: run npm install ${packageName}`, options)
    this.name = 'MissingPackageError'
  }
}

/**
 * The package's module, imported once (the promise is shared) and refused with a clear error when absent.
 *
 * @example const { default: OpenAI } = await loadOptionalPackage('openai', 'The text generator "openai"', () => import('openai'))
 */
export function loadOptionalPackage<T>(packageName: string, purpose: string, importer: () => Promise<T>): Promise<T> {
  return importer().catch((error: unknown) => {
    const code = (error as { code?: string }).code
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') throw new MissingPackageError(packageName, purpose, { cause: error })
    throw error
  })
}
