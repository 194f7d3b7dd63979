/**
 * Sends one signed webhook delivery over the network. The core decides what to send and when; an
 * adapter (adapters/system/http-webhook-sender.ts) does the HTTP, refusing addresses the
 * deployment's network policy forbids.
 */

export interface WebhookRequest {
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  /** The exact JSON text that was signed. */
  readonly body: string
  readonly timeoutMs: number
}

/** What came back: a status, or why there was none. Receivers' bodies are never kept. */
export type WebhookResponse = { readonly kind: 'answered'; readonly status: number } | { readonly kind: 'failed'; readonly reason: string }

export interface WebhookSender {
  send(request: WebhookRequest): Promise<WebhookResponse>
}
