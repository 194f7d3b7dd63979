/** Which webhook targets are allowed: public unicast over https, everything else only by deployment choice. */
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { checkWebhookUrl, isPrivateAddress } from './webhook-url.js'

describe('isPrivateAddress', () => {
  it.each(['10.1.2.3', '172.16.0.1', '192.168.1.1', '127.0.0.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '::1', '::', 'fd00::1', 'fe80::1', '::ffff:10.0.0.1', '2001:db8::1', 'not an address'])(
    '%s is not a public address',
    (address) => expect(isPrivateAddress(address)).toBe(true),
  )
  it.each(['8.8.8.8', '1.1.1.1', '2606:4700::1111', '::ffff:8.8.8.8'])('%s is public', (address) => expect(isPrivateAddress(address)).toBe(false))
})

describe('checkWebhookUrl', () => {
  it('accepts public https and drops the fragment', () => {
    expect(checkWebhookUrl('https://hooks.example.com/a#x', {})).toEqual(E.right(new URL('https://hooks.example.com/a')))
  })
  it('refuses non-http schemes and text that is no URL', () => {
    expect(E.isLeft(checkWebhookUrl('ftp://hooks.example.com/', {}))).toBe(true)
    expect(E.isLeft(checkWebhookUrl('not a url', {}))).toBe(true)
  })
  it('allows http to loopback only with both deployment settings', () => {
    expect(E.isLeft(checkWebhookUrl('http://localhost:8080/', { allowHttpLoopback: true }))).toBe(true)
    expect(E.isRight(checkWebhookUrl('http://localhost:8080/', { allowHttpLoopback: true, allowPrivateNetworks: true }))).toBe(true)
    expect(E.isLeft(checkWebhookUrl('http://10.0.0.1/', { allowHttpLoopback: true, allowPrivateNetworks: true }))).toBe(true)
  })
})
