/**
 * HttpWebhookSender's deadline: one total deadline per attempt, so a receiver that trickles a byte
 * now and then is cut off when the deadline passes instead of holding the attempt forever.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { HttpWebhookSender } from './http-webhook-sender.js'
import { startTricklingReceiver, type TricklingReceiver } from './trickling-receiver-test-support.js'

const sender = new HttpWebhookSender({ allowHttpLoopback: true, allowPrivateNetworks: true })
const receivers: TricklingReceiver[] = []
afterEach(async () => {
  for (const receiver of receivers.splice(0)) await receiver.close()
})

const request = (url: string, timeoutMs: number) => ({ url, headers: { 'content-type': 'application/json' }, body: '{"hello":"world"}', timeoutMs })

describe('HttpWebhookSender', () => {
  it('fails an attempt whose receiver trickles its status line past the deadline', { timeout: 5000 }, async () => {
    const receiver = await startTricklingReceiver({ everyMs: 20 })
    receivers.push(receiver)
    expect(await sender.send(request(receiver.url, 300))).toEqual({ kind: 'failed', reason: 'the receiver did not answer in time' })
  })

  it('answers with the status as soon as it arrives, whatever the body does after', { timeout: 5000 }, async () => {
    const receiver = await startTricklingReceiver({ everyMs: 20, statusFirst: true })
    receivers.push(receiver)
    expect(await sender.send(request(receiver.url, 60_000))).toEqual({ kind: 'answered', status: 200 })
  })
})
