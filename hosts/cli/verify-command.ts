/**
 * `cairn verify <file> [--trust FILE]... [--json]`: the offline verifier on a file. Trust files:
 * the service's `/proof/keys` document (`{ keys, logKeys }`), a JWKS (`{ keys }`), a trust
 * document (`{ proofKeys, logKeys }`, as in core/proof/golden/trust.json), or a text file of C2SP
 * log verifier keys (`/log/key`), one per line. With trust given nothing touches the network;
 * without it the keys are fetched from the issuer the file names (and the output says so).
 * Exit 0 verified, 1 not verified, 2 usage error.
 */
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import * as E from 'fp-ts/lib/Either.js'
import { openArtifact } from '../../core/proof/open-artifact.js'
import { verifyArtifact, type TrustMaterial, type Verdict } from '../../core/proof/verify.js'
import { nodeVerifyOptions } from '../../core/proof/node-digest.js'

export const VERIFY_USAGE = `Usage: cairn verify <file> [--trust FILE]... [--json]

  --trust FILE  trust material: /proof/keys JSON, a JWKS, a trust document, or log keys (text);
                repeatable. Without it the keys are fetched from the issuer the file names.
  --json        print the verdict as JSON
Exit status: 0 verified, 1 not verified, 2 usage error.`

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

function describe(verdict: Verdict, file: string): string {
  const lines = [`${verdict.ok ? 'VERIFIED' : 'NOT VERIFIED'}: ${file}`, `  kind: ${verdict.kind}`]
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
  let parsed: ReturnType<typeof parseArgs<{ options: { trust: { type: 'string'; multiple: true }; json: { type: 'boolean' }; help: { type: 'boolean' } }; allowPositionals: true }>>
  try {
    parsed = parseArgs({ args: [...args], options: { trust: { type: 'string', multiple: true }, json: { type: 'boolean' }, help: { type: 'boolean' } }, allowPositionals: true, strict: true })
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
  const file = parsed.positionals[0]!
  let bytes: Uint8Array
  let trust: TrustMaterial | undefined
  try {
    bytes = new Uint8Array(readFileSync(file))
    const trustFiles = parsed.values.trust ?? []
    if (trustFiles.length > 0) trust = merge(trustFiles.map((name) => parseTrustFile(readFileSync(name, 'utf8'), name)))
  } catch (error) {
    out.error(`cairn verify: ${(error as Error).message}`)
    return 2
  }
  if (!trust) {
    const opened = openArtifact(bytes)
    if (E.isRight(opened)) {
      const issuer = opened.right.proof.statement.issuer.baseUrl
      try {
        trust = await fetchTrust(issuer)
        out.error(`cairn verify: no --trust given; using keys fetched from ${issuer} (pin them with --trust for offline verification)`)
      } catch (error) {
        out.error(`cairn verify: could not fetch trust material from ${issuer}: ${(error as Error).message}`)
        return 1
      }
    }
  }
  const verdict = await verifyArtifact(bytes, trust ?? { proofKeys: [], logKeys: [] }, nodeVerifyOptions)
  out.log(parsed.values.json ? JSON.stringify(verdict, null, 2) : describe(verdict, file))
  return verdict.ok ? 0 : 1
}
