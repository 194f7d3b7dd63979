/**
 * A child process of file-key-store-multiprocess.test.ts. It prints `ready`, then for every line on
 * stdin runs one step on the key file(s) named by the line and prints a JSON line of what it saw:
 * - `first <file>`: first use of the ES256 token key and the EdDSA proof key of a fresh file;
 * - `rotate <file> <times>`: rotates the ES256 token key `times` times;
 * - `current <file>`: the ES256 token key it would sign with now.
 * Every view is read again each time (refreshMs 0), as a process sees the file after its refresh interval.
 */
import { createInterface } from 'node:readline'
import { FileKeyStore } from '../file-key-store.js'

const stores = new Map<string, FileKeyStore>()
const storeOf = (file: string) => stores.get(file) ?? stores.set(file, new FileKeyStore({ file, refreshMs: 0 })).get(file)!

process.stdout.write('ready\n')
for await (const line of createInterface({ input: process.stdin })) {
  const [step, file, times] = line.split(' ')
  const keys = storeOf(file!)
  if (step === 'first') {
    const [token, proof] = await Promise.all([keys.current('ES256'), keys.current('EdDSA', 'proof')])
    process.stdout.write(`${JSON.stringify({ token: token.kid, proof: proof.kid })}\n`)
  } else if (step === 'rotate') {
    const made: string[] = []
    for (let round = 0; round < Number(times); round += 1) {
      made.push((await keys.rotate('ES256')).kid)
      await new Promise((resolve) => setImmediate(resolve))
    }
    process.stdout.write(`${JSON.stringify({ made })}\n`)
  } else if (step === 'current') {
    process.stdout.write(`${JSON.stringify({ current: (await keys.current('ES256')).kid })}\n`)
  }
}
