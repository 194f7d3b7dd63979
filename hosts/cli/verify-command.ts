/**
 * `cairn verify <file> (--trust FILE... | --issuer-asserted) [--json]`: the offline verifier on a
 * file. Trust files: the service's `/proof/keys` document (`{ keys, logKeys }`), a JWKS
 * (`{ keys }`), a trust document (`{ proofKeys, logKeys }`, as in core/proof/golden/trust.json), or
 * a text file of C2SP log verifier keys (`/log/key`), one per line; with them nothing touches the
 * network. Only pinned trust can make a file VERIFIED: keys fetched from the issuer URL written
 * inside the not-yet-verified file prove nothing (a forger names their own server), so that mode
 * must be asked for by name and its verdict says only "consistent with the issuer it names".
 * Exit 0 verified, 1 not verified, 2 usage error, 3 consistent with issuer-asserted keys only.
 */
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import * as E from 'fp-ts/lib/Either.js'
import { openArtifact } from '../../core/proof/open-artifact.js'
import { verifyArtifact, type TrustMaterial, type Verdict } from '../../core/proof/verify.js'
import { nodeVerifyOptions } from '../../core/proof/node-digest.js'

export const VERIFY_USAGE = `Usage: cairn verify <file> (--trust FILE... | --issuer-asserted) [--json]

  --trust FILE       pinned trust material: /proof/keys JSON, a JWKS, a trust document, or log
                     keys (text); repeatable. Only pinned trust can say VERIFIED.
  --issuer-asserted  no pinned trust: check the file against the keys served by the issuer URL
                     written inside it. Anyone can name their own server there, so this never
                     says VERIFIED, only CONSISTENT WITH ITS ISSUER (exit 3).
  --json             print the verdict as JSON
Exit status: 0 verified, 1 not verified, 2 usage error, 3 consistent with issuer-asserted keys only.`

const VERIFY_OPTIONS = {
  trust: { type: 'string', multiple: true }, 'issuer-asserted': { type: 'boolean' }, json: { type: 'boolean' }, help: { type: 'boolean' },
} as const

/** Exit status of a file whose signatures hold only against keys its own issuer URL served. */
export const EXIT_ISSUER_ASSERTED = 3

type Output = { log(text: string): void; error(text: string): void }

/** Trust material from one file's text. */
export function parseTrustFile(text: string, name: string): TrustMaterial {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    const logKeys = text.split(/\r?\n/u).map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#'))
    if (logKeys.length === 0 || logKeys.some((key) => !/^[^\s+]+\+[0-9a-f]{8}\+[A-Za-z0-9+/=]+$/u.test(key))) throw new Error(`${name} is neither JSON trust material nor C2SP log verifier keys`)
    return { proofKeys: [], logKeys }
  }
  const object = (parsed ?? {}) as { keys?: unknown; proofKeys?: unknown; logKeys?: unknown }
  const proofKeys = object.proofKeys ?? object.keys ?? []
  const logKeys = object.logKeys ?? []
  if (!Array.isArray(proofKeys) || !Array.isArray(logKeys) || logKeys.some((key) => typeof key !== 'string')) throw new Error(`${name} has no keys/proofKeys list or logKeys strings`)
  return { proofKeys, logKeys }
}

function merge(all: readonly TrustMaterial[]): TrustMaterial {
  return { proofKeys: all.flatMap((trust) => trust.proofKeys), logKeys: all.flatMap((trust) => trust.logKeys) }
}

async function fetchTrust(issuer: string): Promise<TrustMaterial> {
  const response = await fetch(`${issuer.replace(/\/+$/u, '')}/proof/keys`)
  if (!response.ok) throw new Error(`${issuer}/proof/keys answered ${response.status}`)
  return parseTrustFile(await response.text(), `${issuer}/proof/keys`)
}

/** Where the keys came from: pinned by the user, or asserted by the issuer the file itself names. */
type TrustSource = { readonly kind: 'pinned' } | { readonly kind: 'issuer-asserted'; readonly issuer: string }

function headline(verdict: Verdict, source: TrustSource): string {
  if (!verdict.ok) return 'NOT VERIFIED'
  return source.kind === 'pinned' ? 'VERIFIED' : 'NOT VERIFIED (no pinned trust) — CONSISTENT WITH ITS ISSUER'
}

function describe(verdict: Verdict, file: string, source: TrustSource): string {
  const lines = [`${headline(verdict, source)}: ${file}`, `  kind: ${verdict.kind}`]
  if (source.kind === 'issuer-asserted') {
    lines.push(`  trust: issuer-asserted — keys fetched from ${source.issuer}, the issuer the file itself names; a forged file can name the forger's server. Pin trust with --trust to verify.`)
  }
  const details = verdict.details
  if (details) {
    lines.push(
      `  owner: ${details.owner ? `${details.owner.username ?? details.owner.userId}${details.countersignedByOwner ? ' (countersigned)' : ''}` : 'none (integrity-only seal)'}`,
      `  sealed: ${details.sealedAt} (Kai pulse ${details.kaiPulseEternal})`,
      `  log: ${details.log.included ? `leaf ${details.log.leafIndex} of ${details.log.treeSize} in ${details.log.origin}` : 'inclusion not proven'}`,
      `  payload sha256: ${verdict.sha256}`,
    )
  }
  for (const error of verdict.errors) lines.push(`  error: ${error}`)
  for (const warning of verdict.warnings) lines.push(`  note: ${warning}`)
  return lines.join('\n')
}

export async function verifyCommand(args: readonly string[], out: Output = console): Promise<number> {
  let parsed: ReturnType<typeof parseArgs<{ options: typeof VERIFY_OPTIONS; allowPositionals: true }>>
  try {
    parsed = parseArgs({ args: [...args], options: VERIFY_OPTIONS, allowPositionals: true, strict: true })
  } catch (error) {
    out.error(`cairn verify: ${(error as Error).message}\n${VERIFY_USAGE}`)
    return 2
  }
  if (parsed.values.help) {
    out.log(VERIFY_USAGE)
    return 0
  }
  if (parsed.positionals.length !== 1) {
    out.error(`cairn verify: name exactly one file\n${VERIFY_USAGE}`)
    return 2
  }
  const trustFiles = parsed.values.trust ?? []
  if ((trustFiles.length > 0) === (parsed.values['issuer-asserted'] === true)) {
    out.error(`cairn verify: give pinned trust (--trust FILE) or ask for --issuer-asserted, not ${trustFiles.length > 0 ? 'both' : 'neither'}\n${VERIFY_USAGE}`)
    return 2
  }
  const file = parsed.positionals[0]!
  let bytes: Uint8Array
  let trust: TrustMaterial | undefined
  try {
    bytes = new Uint8Array(readFileSync(file))
    if (trustFiles.length > 0) trust = merge(trustFiles.map((name) => parseTrustFile(readFileSync(name, 'utf8'), name)))
  } catch (error) {
    out.error(`cairn verify: ${(error as Error).message}`)
    return 2
  }
  let source: TrustSource = { kind: 'pinned' }
  if (!trust) {
    const opened = openArtifact(bytes)
    source = { kind: 'issuer-asserted', issuer: E.isRight(opened) ? opened.right.proof.statement.issuer.baseUrl : 'none (the file names no issuer)' }
    if (E.isRight(opened)) {
      const issuer = source.issuer
      try {
        trust = await fetchTrust(issuer)
        out.error(`cairn verify: --issuer-asserted: using keys fetched from ${issuer}, the issuer the file itself names; this cannot make the file VERIFIED`)
      } catch (error) {
        out.error(`cairn verify: could not fetch trust material from ${issuer}: ${(error as Error).message}`)
        return 1
      }
    }
  }
  const verdict = await verifyArtifact(bytes, trust ?? { proofKeys: [], logKeys: [] }, nodeVerifyOptions)
  out.log(parsed.values.json ? JSON.stringify(jsonVerdict(verdict, source), null, 2) : describe(verdict, file, source))
  if (!verdict.ok) return 1
  return source.kind === 'pinned' ? 0 : EXIT_ISSUER_ASSERTED
}

/** `ok` is true only for pinned trust; an issuer-asserted check reports its signatures apart. */
function jsonVerdict(verdict: Verdict, source: TrustSource): object {
  if (source.kind === 'pinned') return { ...verdict, trust: 'pinned' }
  return { ...verdict, ok: false, trust: 'issuer-asserted', issuer: source.issuer, consistentWithIssuer: verdict.ok }
}
