/**
 * WebhookSender over node:http/https with the deployment's network policy enforced where it counts:
 * the host name is resolved, every address checked, and the connection made to the checked address
 * (resolve-then-connect), so a name that resolves to a private address — or rebinds to one between
 * check and connect — is refused. Redirects are not followed; the receiver's status is the answer
 * and its body is read up to a small limit and dropped. Every attempt has one total deadline
 * (`timeoutMs`: lookup, connect, the request and the status line, body reading too), after which
 * the request is destroyed.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { isIP, type LookupFunction } from 'node:net'
import { isPrivateAddress, type WebhookNetworkPolicy } from '../../core/webhooks/webhook-url.js'
import type { WebhookRequest, WebhookResponse, WebhookSender } from '../../ports/webhook-sender.js'

/** The most of a receiver's answer that is read (and then dropped). */
const MAX_RESPONSE_BYTES = 4096

/**
 * @example const sender = new HttpWebhookSender({ allowPrivateNetworks: false })
 * await sender.send({ url, headers, body, timeoutMs: 15000 })
 */
export class HttpWebhookSender implements WebhookSender {
  constructor(private readonly policy: WebhookNetworkPolicy = {}) {}

  send(webhook: WebhookRequest): Promise<WebhookResponse> {
    const url = new URL(webhook.url)
    const literal = url.hostname.replace(/^\[|\]$/g, '')
    // Node connects to an IP literal without a lookup, so literals are checked here.
    if (isIP(literal) !== 0 && isPrivateAddress(literal) && this.policy.allowPrivateNetworks !== true) {
      return Promise.resolve({ kind: 'failed', reason: failureReason(Object.assign(new Error('private'), { code: 'EPRIVATE' })) })
    }
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest
    return new Promise((resolve) => {
      let settled = false
      const settle = (response: WebhookResponse) => {
        if (settled) return
        settled = true
        resolve(response)
      }
      const req = request(url, {
        method: 'POST',
        headers: { ...webhook.headers, 'content-length': String(Buffer.byteLength(webhook.body)) },
        lookup: this.checkedLookup(),
      })
      // One deadline for the whole attempt (lookup, connect, sending, the answer): a receiver that
      // trickles a byte now and then would never trip an idle timeout.
      const deadline = setTimeout(() => req.destroy(new Error('timeout')), webhook.timeoutMs)
      deadline.unref()
      req.on('close', () => clearTimeout(deadline))
      req.on('error', (error: NodeJS.ErrnoException) => settle({ kind: 'failed', reason: failureReason(error) }))
      req.on('response', (res) => {
        // The status is the answer: the body is read (up to a bound, and within the deadline) only to be dropped.
        settle({ kind: 'answered', status: res.statusCode ?? 0 })
        let read = 0
        res.on('data', (chunk: Buffer) => {
          read += chunk.length
          if (read > MAX_RESPONSE_BYTES) req.destroy()
        })
        res.on('end', () => req.destroy())
        res.on('error', () => undefined)
      })
      req.end(webhook.body)
    })
  }

  /** dns.lookup, refusing every answer when any address is one the policy forbids. */
  private checkedLookup(): LookupFunction {
    const allowPrivate = this.policy.allowPrivateNetworks === true
    return (hostname, options, callback) => {
      dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
        if (error) return callback(error, '', 0)
        const refused = addresses.find((entry) => !allowPrivate && isPrivateAddress(entry.address))
        if (refused) return callback(Object.assign(new Error(`refused: ${hostname} resolves to a private address`), { code: 'EPRIVATE' }), '', 0)
        if (options.all) return (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, addresses)
        const first = addresses[0]
        return first ? callback(null, first.address, first.family) : callback(Object.assign(new Error('no address'), { code: 'ENOTFOUND' }), '', 0)
      })
    }
  }
}

function failureReason(error: NodeJS.ErrnoException): string {
  if (error.code === 'EPRIVATE') return 'the receiver resolves to a private address, which this deployment does not allow'
  if (error.message === 'timeout') return 'the receiver did not answer in time'
  if (error.code === 'ECONNREFUSED') return 'the receiver refused the connection'
  if (error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN') return 'the receiver\'s host name does not resolve'
  return `the delivery failed (${error.code ?? 'network error'})`
}
