/**
 * V125 lawful actions: register a law from an enclosing sealed proof object, admit or transfer one
 * sealed lawful action, and derive a Settlement value head. Callers never send amounts,
 * multipliers or exemptions: value comes from the sealed objects and a server-sampled time.
 */
import * as t from 'io-ts'
import { struct } from '../../define.js'
import { Base64Url } from '../../primitives.js'
import { RuntimeAuthority } from './authority.js'
import { V124Digest } from './digests.js'
import { Filename, MediaType, nullable, RuntimeId } from './values.js'

/** A sealed proof object's exact bytes. */
export const V125ExactProofObject = struct(
  'V125ExactProofObject',
  { exactBytesB64u: Base64Url, filename: Filename, mimeType: MediaType },
  {},
  'Exact bytes of a sealed proof object (base64url), with its file name and media type.',
)

/** Admit (or transfer) one sealed lawful action under a registered law. */
export const V125LawfulActionAdmissionRequest = struct(
  'V125LawfulActionAdmissionRequest',
  {
    lawDigest: V124Digest,
    proofObject: V125ExactProofObject,
    expectedPriorAdmissionDigest: nullable(V124Digest),
    idempotencyKey: RuntimeId,
  },
  {},
  'Admit or transfer one sealed lawful action; `expectedPriorAdmissionDigest` is null for a first admission (custody continuity).',
)

/** Register a law from the sealed proof object that encloses it. */
export const V125LawfulActionLawRegistrationRequest = struct(
  'V125LawfulActionLawRegistrationRequest',
  { proofObject: V125ExactProofObject, idempotencyKey: RuntimeId },
  {},
  'Register a law only from an enclosing sealed proof object.',
)

/** Advance a Settlement membership's value head after the expected prior head. */
export const V125LawfulActionValueHeadRequest = struct(
  'V125LawfulActionValueHeadRequest',
  { membershipId: RuntimeId, expectedPriorValueHeadDigest: nullable(V124Digest) },
  {},
  'Derive the next Settlement value head from sealed start and completion times and a server-sampled time. Caller amounts, multipliers and exemptions are forbidden.',
)

/** Result of every lawful-action call; the optional properties say what was recorded. */
export const V125LawfulActionResult = struct(
  'V125LawfulActionResult',
  { ok: t.boolean },
  {
    schema: t.literal('cairn.v125.lawful_action_result'),
    action: t.keyof({ admitted: null, transferred: null, 'law-registered': null, 'value-head-derived': null }),
    lawDigest: V124Digest,
    admissionDigest: V124Digest,
    valueHeadDigest: V124Digest,
    receiptDigest: V124Digest,
    authority: RuntimeAuthority,
  },
  'Result of a lawful-action call. Only `ok` is required; the digests name what was recorded. Coordination only.',
)

/** This file's components by name, spread into `runtimeComponents`. */
export const lawfulActionComponents = {
  V125ExactProofObject,
  V125LawfulActionAdmissionRequest,
  V125LawfulActionLawRegistrationRequest,
  V125LawfulActionValueHeadRequest,
  V125LawfulActionResult,
} as const
