/**
 * The /verify page's script (bundled for the browser by hosts/http/verifier-bundle.ts): a dropped
 * file is read locally and verified with the same verifier the server runs — nothing is uploaded.
 */
import { verifyArtifact, type TrustMaterial, type Verdict } from '../../core/proof/verify.js'

const trust = JSON.parse(document.getElementById('cairn-trust')!.textContent ?? '{}') as TrustMaterial
const expected = JSON.parse(document.getElementById('cairn-expected')?.textContent ?? 'null') as { sha256: string; code: string } | null
const drop = document.getElementById('drop')!
const input = document.getElementById('file') as HTMLInputElement
const result = document.getElementById('verdict')!

function row(label: string, value: string, testId: string): HTMLElement {
  const line = document.createElement('div')
  line.className = 'row'
  const name = document.createElement('span')
  name.className = 'label'
  name.textContent = label
  const text = document.createElement('span')
  text.dataset['testid'] = testId
  text.textContent = value
  line.append(name, text)
  return line
}

function render(fileName: string, verdict: Verdict): void {
  result.replaceChildren()
  result.className = verdict.ok ? 'verdict ok' : 'verdict bad'
  const heading = document.createElement('h2')
  heading.dataset['testid'] = 'status'
  heading.textContent = verdict.ok ? 'Verified' : 'Not verified'
  result.append(heading, row('File', fileName, 'file'), row('Kind', verdict.kind, 'kind'))
  const details = verdict.details
  if (details) {
    result.append(
      row('Owner', details.owner ? `${details.owner.username ?? details.owner.userId}${details.countersignedByOwner ? ' (countersigned)' : ''}` : 'none (integrity-only seal)', 'owner'),
      row('Sealed at', `${details.sealedAt} · Kai pulse ${details.kaiPulseEternal}`, 'time'),
      row('Log inclusion', details.log.included ? `leaf ${details.log.leafIndex} of ${details.log.treeSize} in ${details.log.origin ?? ''}` : 'not proven', 'log'),
      row('Payload SHA-256', verdict.sha256 ?? '', 'sha256'),
    )
  }
  if (expected && verdict.sha256 !== undefined && verdict.sha256 !== expected.sha256) {
    result.append(row('This page', `expects seal ${expected.code} of ${expected.sha256}; this file is another one`, 'expected'))
  }
  const list = document.createElement('ul')
  list.dataset['testid'] = 'errors'
  for (const error of [...verdict.errors, ...verdict.warnings]) {
    const item = document.createElement('li')
    item.textContent = error
    list.append(item)
  }
  result.append(list)
}

async function verifyFile(file: File): Promise<void> {
  result.className = 'verdict'
  result.textContent = 'Verifying locally…'
  render(file.name, await verifyArtifact(new Uint8Array(await file.arrayBuffer()), trust))
}

input.addEventListener('change', () => {
  const file = input.files?.[0]
  if (file) void verifyFile(file)
})
drop.addEventListener('dragover', (event) => {
  event.preventDefault()
  drop.classList.add('over')
})
drop.addEventListener('dragleave', () => drop.classList.remove('over'))
drop.addEventListener('drop', (event) => {
  event.preventDefault()
  drop.classList.remove('over')
  const file = event.dataTransfer?.files[0]
  if (file) void verifyFile(file)
})
document.body.dataset['ready'] = 'true'
