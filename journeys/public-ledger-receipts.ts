/**
 * The public wallet ledger's receipts as a stranger checks them, over HTTP only: every event's
 * digest recomputed from its own members, the chain of heads unbroken from the first event, each
 * event's log leaf rebuilt from the event, and the newest event's leaf proven in a checkpoint the
 * log key signed, found where its receipt says (`receipt.log.inclusionPath`, by the leaf's hash).
 */
import { expect } from 'vitest'
import { chainHead, entryDigestOf } from '../core/digest/chain.js'
import { verifyInclusionReceipt } from '../core/tlog/verify-receipt.js'

/** `events`: the whole public wallet ledger, oldest first (journey-server.ts, publicWalletLedger), of the server at `server.url`. */
export async function expectReceiptsHold(server: { readonly url: string }, events: readonly any[]): Promise<void> {
  let priorHead: string | null = null
  for (const event of events) {
    const { receipt, proofBundle: _bundle, ...members } = event
    expect(receipt.entryDigest).toBe(entryDigestOf(members))
    expect(receipt.priorHead).toBe(priorHead)
    expect(receipt.head).toBe(chainHead(priorHead, receipt.entryDigest))
    expect(receipt.log.leaf).toEqual({ kind: 'cairn.wallet_ledger_event', eventId: event.id, eventDigest: receipt.entryDigest })
    priorHead = receipt.head
  }
  const newest = events.at(-1)
  if (newest === undefined) return
  const logKey = await (await fetch(`${server.url}/log/key`)).json()
  // The host integrates the log in the background: the proof is served once a checkpoint holds the leaf.
  let proof = await fetch(`${server.url}${newest.receipt.log.inclusionPath}`)
  for (let tries = 0; proof.status === 404 && tries < 100; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 50))
    proof = await fetch(`${server.url}${newest.receipt.log.inclusionPath}`)
  }
  expect(proof.status).toBe(200)
  expect(verifyInclusionReceipt(newest.receipt.log.leaf, await proof.json(), logKey.verifierKey)).toMatchObject({ ok: true })
}
