/**
 * The CLI's general machinery: the list of commands `cairn help` prints, `cairn --version`, and
 * how a failure is said — one `cairn:` line and where to read more, never the whole usage.
 */
import { readFileSync } from 'node:fs'

/** Each command in one line: `cairn help` lists them in this order. */
export const COMMANDS: readonly (readonly [name: string, summary: string])[] = [
  ['serve', 'Run the HTTP service (cairn serve --help)'],
  ['verify <file>', 'Verify a sealed file offline (cairn verify --help)'],
  ['help', 'This list'],
  ['--version', 'The installed version'],
]

export function commandList(): string {
  const width = Math.max(...COMMANDS.map(([name]) => name.length))
  return `Usage: cairn <command> [options]\n\nCommands:\n${COMMANDS.map(([name, summary]) => `  ${name.padEnd(width)}  ${summary}`).join('\n')}`
}

/** The package's version: from the source tree (hosts/cli → ../..) or the build (dist/hosts/cli → ../../..). */
export function packageVersion(): string {
  for (const up of ['../../package.json', '../../../package.json']) {
    try {
      const manifest = JSON.parse(readFileSync(new URL(up, import.meta.url), 'utf8')) as { name?: string; version?: string }
      if (manifest.name === 'cairn' && manifest.version) return manifest.version
    } catch {
      // not at this level
    }
  }
  return 'unknown'
}

/** One line on stderr, and where the usage is: exit code 2 (bad usage) unless told. */
export function failUsage(message: string, helpCommand: string): 2 {
  console.error(`cairn: ${message}\nRun "${helpCommand}" for usage.`)
  return 2
}

/** A start-up failure as a person reads it (EADDRINUSE, EACCES…), never a stack. */
export function startFailure(error: unknown, host: string, port: number): string {
  const code = (error as NodeJS.ErrnoException).code
  if (code === 'EADDRINUSE') return `cannot listen on ${host}:${port}: the port is in use (EADDRINUSE); stop the other process or choose another with --port (0 picks a free one)`
  if (code === 'EACCES') return `cannot listen on ${host}:${port}: permission denied (EACCES); ports below 1024 need privileges, choose another with --port`
  if (code === 'EADDRNOTAVAIL') return `cannot listen on ${host}:${port}: this machine has no such address (EADDRNOTAVAIL); check --host`
  return `cannot listen on ${host}:${port}: ${(error as Error).message}`
}
