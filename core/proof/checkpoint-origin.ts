/** The origin line of a C2SP checkpoint (its first line), without verifying anything. */
export function checkpointOrigin(checkpoint: string): string | null {
  const line = checkpoint.split('\n', 1)[0]
  return line ? line : null
}
