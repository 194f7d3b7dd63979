/** A refusal decided by the transport itself (media type, size, syntax), before the core sees anything. */
export class HttpFailure extends Error {
  constructor(readonly status: number, message: string, readonly headers: Readonly<Record<string, string>> = {}) {
    super(message)
    this.name = 'HttpFailure'
  }
}
