/**
 * Every scope a token can carry. The Connect scopes are the spec's (`svc:` → `cairn:`); the
 * runtime, value, lawful-economy and production scopes fill the spec's gap (docs/decisions.md).
 */
export const SCOPES = {
  openid: 'OpenID Connect sign-in (ID token, userinfo `sub`)',
  profile: 'Username and display name in userinfo',
  'cairn:record': 'Record on the owner\'s behalf; publish registry feeds',
  'cairn:seal': 'Integrity-only seals',
  'cairn:verify': 'Verify artifacts',
  'cairn:wallet.read': 'Read the wallet',
  'cairn:wallet.transfer': 'Transfer from the wallet',
  'cairn:twin.read': 'Read the Twin (market mandate, intents, mind, approval)',
  'cairn:twin.write': 'Change the Twin',
  'cairn:payments.create': 'Create checkout sessions',
  'cairn:payments.read': 'Read checkout sessions',
  'cairn:notes.mint': 'Mint offline payment notes from the wallet balance',
  'cairn:notes.claim': 'Claim notes into the wallet balance',
  'cairn:notes.read': 'Download notes',
  'cairn:runtime.read': 'Verified replay, checkpoints, namespace resolution, execution lookups, qualification',
  'cairn:runtime.session': 'Open, refresh and close authority sessions',
  'cairn:runtime.execute': 'Stage, execute and cancel plans',
  'cairn:runtime.publish': 'Publish sealed sources',
  'cairn:value.read': 'Recover value execution outcomes',
  'cairn:value.execute': 'Execute Reserve and Settlement intents',
  'cairn:lawful.write': 'Register laws, admit lawful actions, derive value heads',
  'cairn:production': 'Business-tier production: metered Creator and Twin runs, webhook management',
} as const

export type Scope = keyof typeof SCOPES
