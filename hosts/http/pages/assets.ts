/** The pages' static files (browser script and style), read once from hosts/http/pages/assets. */
import { readFileSync } from 'node:fs'

const TYPES = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8' } as const
export const ASSET_NAMES = ['cairn-login.js', 'cairn-pages.css'] as const
export type AssetName = (typeof ASSET_NAMES)[number]

const loaded = new Map<AssetName, Buffer>()

/** @example assetResponse('cairn-login.js') */
export function assetResponse(name: AssetName): Response {
  let bytes = loaded.get(name)
  if (!bytes) loaded.set(name, (bytes = readFileSync(new URL(`./assets/${name}`, import.meta.url))))
  return new Response(new Uint8Array(bytes), {
    headers: {
      'content-type': TYPES[name.endsWith('.js') ? 'js' : 'css'],
      'cache-control': 'public, max-age=300',
      'x-content-type-options': 'nosniff',
    },
  })
}
