/** Which webhook targets are allowed: public unicast over https, everything else only by deployment choice. */
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { checkWebhookUrl, isPrivateAddress } from './webhook-url.js'

describe('isPrivateAddress', () => {
  it.each(['10.1.2.3', '172.16.0.1', '192.168.1.1', '127.0.0.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '::1', '::', 'fd00::1', 'fe80::1', '::ffff:10.0.0.1', '2001:db8::1', 'not an address'])(
    '%s is not a public address',
    (address) => expect(isPrivateAddress(address)).toBe(true),
  )
  it.each(['8.8.8.8', '1.1.1.1', '2606:4700::1111', '2a00:1450:4001:80b::200e'])('%s is public', (address) => expect(isPrivateAddress(address)).toBe(false))
  it.each([
    ['IPv4-compatible', '::127.0.0.1'], ['IPv4-compatible, public IPv4', '::8.8.8.8'], ['IPv4-compatible, as URLs serialise it', '::7f00:1'],
    ['IPv4-mapped', '::ffff:127.0.0.1'], ['IPv4-mapped, public IPv4', '::ffff:8.8.8.8'], ['IPv4-translated (RFC 6145)', '::ffff:0:7f00:1'],
    ['NAT64 well-known prefix', '64:ff9b::127.0.0.1'], ['NAT64 local-use prefix', '64:ff9b:1::7f00:1'],
    ['6to4', '2002:7f00:1::1'], ['6to4, public IPv4', '2002:808:808::1'], ['Teredo', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
  ])('an IPv6 form embedding an IPv4 address (%s: %s) is refused', (_form, address) => expect(isPrivateAddress(address)).toBe(true))
})

describe('checkWebhookUrl', () => {
  it('accepts public https and drops the fragment', () => {
    expect(checkWebhookUrl('https://hooks.example.com/a#x', {})).toEqual(E.right(new URL('https://hooks.example.com/a')))
  })
  it('refuses non-http schemes and text that is no URL', () => {
    expect(E.isLeft(checkWebhookUrl('ftp://hooks.example.com/', {}))).toBe(true)
    expect(E.isLeft(checkWebhookUrl('not a url', {}))).toBe(true)
  })
  it.each(['https://[::127.0.0.1]/hook', 'https://[::ffff:127.0.0.1]/hook', 'https://[64:ff9b::a9fe:a9fe]/latest', 'https://[2002:a00:1::]/hook', 'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', 'https://localhost./hook', 'https://LOCALHOST/hook', 'https://api.localhost/hook'])(
    'refuses %s (loopback or private behind another spelling)',
    (url) => expect(checkWebhookUrl(url, {})).toEqual(E.left(expect.objectContaining({ _tag: 'InvalidInput', message: expect.stringMatching(/public address/) }))),
  )
  it('allows http to loopback only with both deployment settings', () => {
    expect(E.isLeft(checkWebhookUrl('http://localhost:8080/', { allowHttpLoopback: true }))).toBe(true)
    expect(E.isRight(checkWebhookUrl('http://localhost:8080/', { allowHttpLoopback: true, allowPrivateNetworks: true }))).toBe(true)
    expect(E.isLeft(checkWebhookUrl('http://10.0.0.1/', { allowHttpLoopback: true, allowPrivateNetworks: true }))).toBe(true)
  })
})
