/**
 * Owner countersignatures: an SDK holding the owner's ID key signs the same statement bytes the
 * service signed and adds `{ role: 'owner', alg, jwk, sig }` to the proof. The statement already
 * names the owner's ID key thumbprints, so a verifier checks the countersignature offline. The
 * statement and its log leaf do not change; only the proof's bytes (and so the sealed bytes) do.
 */
import * as E from 'fp-ts/lib/Either.js'
import { canonicalJsonBytes } from '../digest/canonical-json.js'
import { toBase64Url } from './bytes.js'
import type { Countersignature } from './format.js'
import { openArtifact } from './open-artifact.js'
import { assembleSealed } from './seal.js'
import { jwkThumbprintOf, type VerificationJwk } from './web-crypto.js'

export interface OwnerSigner {
  readonly alg: 'EdDSA' | 'ES256'
  readonly jwk: Readonly<Record<string, string>>
  sign(data: Uint8Array): Promise<Uint8Array>
}

/**
 * @example const countersigned = await countersign(sealedBytes, { alg: 'EdDSA', jwk, sign: (data) => ed25519.sign(data, secret) })
 */
export async function countersign(sealed: Uint8Array, owner: OwnerSigner): Promise<E.Either<string, Uint8Array>> {
  const opened = openArtifact(sealed)
  if (E.isLeft(opened)) return E.left(opened.left.error)
  const { proof, carrier, payload } = opened.right
  const thumbprints = proof.statement.owner?.idKeyThumbprints ?? []
  if (!thumbprints.includes(await jwkThumbprintOf(owner.jwk as VerificationJwk))) return E.left('The key is not one of the owner ID keys the statement names')
  const signature: Countersignature = { role: 'owner', alg: owner.alg, jwk: { ...owner.jwk }, sig: toBase64Url(await owner.sign(canonicalJsonBytes(proof.statement))) }
  const countersignatures = [...(proof.countersignatures ?? []).filter((existing) => existing.sig !== signature.sig), signature]
  return E.right(assembleSealed({ carrier, payload, statement: proof.statement }, proof.signatures, proof.log, countersignatures).bytes)
}
