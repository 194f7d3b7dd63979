/**
 * Connect record: `{ "sha256", "byteLength"?, "filename"?, "mimeType"? }` recorded on behalf of the
 * token's user — a registry entry and a transparency-log leaf, delegated access and never proof
 * authority (a proof object comes only from the SDK asset seal with the owner's session).
 */
import * as E from 'fp-ts/lib/Either.js'
import { conflict, invalidInput, unauthenticated } from '../../errors/domain-error.js'
import { awaitInclusion } from '../../tlog/inclusion.js'
import { commitWithLeaves } from '../../tlog/sequence.js'
import type { UseCaseFor } from '../../usecases/use-case.js'
import { toHex } from '../bytes.js'
import { digestRecordWrite, RECORD_LEAF_KIND, type DigestRecord } from '../digest-records.js'
import { verifyPathOf } from '../seal.js'

export const connectRecord: UseCaseFor<'connectRecord'> = async (request, deps) => {
  const { principal } = request
  if (principal.kind !== 'bearer') return E.left(unauthenticated('Connect record needs a bearer token'))
  const body = request.body ?? {}
  if (typeof body.sha256 !== 'string' || !/^[0-9a-f]{64}$/u.test(body.sha256)) return E.left(invalidInput('body.sha256 is required: the SHA-256 of the bytes to record, 64 lowercase hex digits'))
  const byteLength = body.byteLength
  if (byteLength !== undefined && (typeof byteLength !== 'number' || !Number.isSafeInteger(byteLength) || byteLength < 0)) return E.left(invalidInput('body.byteLength must be a whole number of bytes'))
  for (const name of ['filename', 'mimeType'] as const) if (body[name] !== undefined && typeof body[name] !== 'string') return E.left(invalidInput(`body.${name} must be a string`))
  const code = toHex(deps.entropy.bytes(10))
  const createdAtMs = deps.clock.now()
  const record: DigestRecord = {
    code,
    sha256: body.sha256,
    byteLength: (byteLength as number | undefined) ?? null,
    filename: (body.filename as string | undefined) ?? null,
    mimeType: (body.mimeType as string | undefined) ?? null,
    ownerUserId: principal.subject,
    clientId: principal.clientId,
    createdAtMs,
    verifyUrl: `${deps.config.baseUrl}${verifyPathOf(code)}`,
  }
  const { outcome, leafIndexes } = await commitWithLeaves(deps, [digestRecordWrite(record)], [{ kind: RECORD_LEAF_KIND, code, sha256: record.sha256 }], {
    actions: [{ kind: 'record', action: 'connect_recorded', actorUserId: principal.subject }],
  })
  if (!outcome.ok) return E.left(conflict('Another record took the same code at the same moment; send it again'))
  const receipt = await awaitInclusion(deps, leafIndexes[0]!)
  return E.right({
    kind: 'json',
    body: {
      ok: true,
      kind: 'record',
      code,
      sha256: record.sha256,
      createdAt: new Date(createdAtMs).toISOString(),
      verifyPath: verifyPathOf(code),
      verifyUrl: record.verifyUrl,
      log: { leaf: { kind: RECORD_LEAF_KIND, code, sha256: record.sha256 }, ...receipt },
      note: 'A record is delegated access on the owner\'s behalf, not a proof object.',
    },
  })
}
