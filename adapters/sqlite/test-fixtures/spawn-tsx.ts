/** Start a TypeScript test fixture in its own Node.js process (tsx loaded in-process, so a signal reaches the script itself). */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { fileURLToPath } from 'node:url'

/** @example const child = spawnFixture('commit-loop.ts', [dataDir]) */
export function spawnFixture(name: string, args: readonly string[]): ChildProcessWithoutNullStreams {
  return spawnScript(new URL(`./${name}`, import.meta.url), args)
}

/** @example const child = spawnScript(new URL('./test-fixtures/race-keys.ts', import.meta.url), [file]) */
export function spawnScript(script: URL, args: readonly string[]): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ['--import', 'tsx', fileURLToPath(script), ...args], { stdio: 'pipe' })
}

/** Everything the child printed, once it exited with code 0. */
export function outputOf(child: ChildProcessWithoutNullStreams): Promise<string> {
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('exit', (code, signal) => (code === 0 ? resolve(stdout) : reject(new Error(`fixture exited with ${code ?? signal}: ${stderr}`))))
  })
}

/** Resolves when the child has printed `line` (a whole line of its stdout). */
export function lineFrom(child: ChildProcessWithoutNullStreams, line: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = ''
    const onData = (chunk: Buffer) => {
      seen += chunk.toString()
      if (seen.split('\n').includes(line)) {
        child.stdout.off('data', onData)
        resolve()
      }
    }
    child.stdout.on('data', onData)
    child.on('exit', (code) => reject(new Error(`fixture exited with ${code} before printing ${line}`)))
  })
}
