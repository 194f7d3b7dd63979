/**
 * `GET` and `POST <base>/account`: where a person lands after signing in on `/login` without a
 * `next`. It shows who they are, their Φ and US balances, the ID keys bound to the account, their
 * sessions and agent tokens, and offers sign-out (the `/logout` confirmation) and revocation of
 * agent tokens. The revocation form carries an anti-CSRF token bound to the session and is
 * accepted only with this origin's `Origin` (as the consent page's).
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import * as E from 'fp-ts/lib/Either.js'
import { derivedSecret } from '../../../core/digest/derived-secret.js'
import { getIdentity } from '../../../core/identity/identities.js'
import { issueLinkCode } from '../../../core/identity/link-codes.js'
import { sessions as sessionRecords, type SessionRecord } from '../../../core/identity/sessions.js'
import { agentTokens } from '../../../core/oidc/collections.js'
import type { AgentTokenRecord } from '../../../core/oidc/records.js'
import { revokeAgentToken } from '../../../core/oidc/agent-tokens.js'
import { formatPhi, formatUsdDollars, fromDecimal, readWallet } from '../../../core/value/index.js'
import { escapeHtml, messagePage, pageDocument, pageResponse } from './html.js'
import { readPageForm, seeOther, sessionOf, type PageContext, type SessionPrincipal } from './page-context.js'

export const ACCOUNT_PATH = '/account'
const CSRF_LABEL = 'cairn.account-csrf.v1'
const LISTED = 100

async function csrfToken(context: PageContext, sessionId: string): Promise<string> {
  return createHmac('sha256', await derivedSecret(context.env.deps.keys, CSRF_LABEL)).update(sessionId).digest('base64url')
}

const sameToken = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b))
const when = (ms: number | string) => new Date(ms).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC')

async function liveSessions(context: PageContext, userId: string): Promise<SessionRecord[]> {
  const now = context.env.deps.clock.now()
  const page = await context.env.deps.store.query(sessionRecords.name, { index: 'byUserId', equals: [userId], order: 'desc', limit: LISTED })
  return page.items.map(sessionRecords.decode).filter((session) => session.endedAt === null && Date.parse(session.expiresAt) > now)
}

async function liveAgentTokens(context: PageContext, userId: string): Promise<AgentTokenRecord[]> {
  const now = context.env.deps.clock.now()
  const page = await context.env.deps.store.query(agentTokens.name, { index: 'byOwnerClient', equals: [userId], limit: LISTED })
  return page.items.map(agentTokens.decode).filter((token) => token.revokedAtMs === null && token.expiresAtMs > now)
}

export async function accountPage(context: PageContext, request: Request, notice = ''): Promise<Response> {
  const session = await sessionOf(context, request)
  if (!session) return seeOther(`${context.basePath}/login?next=${encodeURIComponent(`${context.basePath}${ACCOUNT_PATH}`)}`)
  const { deps } = context.env
  const [identity, wallet, sessions, tokens, csrf] = await Promise.all([
    getIdentity(deps, session.userId), readWallet(deps, session.userId), liveSessions(context, session.userId), liveAgentTokens(context, session.userId), csrfToken(context, session.sessionId),
  ])
  if (!identity) return messagePage('No account', 'This session names no account on this deployment; sign in again.', context.basePath, 404)
  const { record } = identity
  const base = escapeHtml(context.basePath)
  const body = `${notice ? `<p class="notice" role="status">${escapeHtml(notice)}</p>` : ''}
<h1>${escapeHtml(record.displayName || record.username)}</h1>
<p>Signed in as <strong id="username">${escapeHtml(record.username)}</strong> <code>${escapeHtml(record.userId)}</code></p>
<h2>Balances</h2>
<dl class="balances"><dt>Φ</dt><dd id="balance-phi">${escapeHtml(formatPhi(fromDecimal(wallet.balancePhiMicro)))} Φ</dd>
<dt>US</dt><dd id="balance-usd">$${escapeHtml(formatUsdDollars(fromDecimal(wallet.balanceUsdCents)))}</dd></dl>
<h2>ID keys</h2>
<ul id="keys">${record.keys.map((key) => `<li><code>${escapeHtml(key.keyId)}</code> ${escapeHtml(key.alg)}, bound ${escapeHtml(when(key.boundAt))}</li>`).join('')}</ul>
<h2>Sessions</h2>
<ul id="sessions">${sessions.map((live) => `<li>since ${escapeHtml(when(live.createdAt))}, until ${escapeHtml(when(live.expiresAt))}${live.sessionId === session.sessionId ? ' <strong>(this browser)</strong>' : ''}</li>`).join('')}</ul>
<h2>Agent tokens</h2>
${tokens.length === 0 ? '<p id="agent-tokens">None.</p>' : `<ul id="agent-tokens">${tokens.map((token) => `<li><strong>${escapeHtml(token.clientId)}</strong>${token.label ? ` — ${escapeHtml(token.label)}` : ''}: ${escapeHtml(token.scopes.join(' '))}, until ${escapeHtml(when(token.expiresAtMs))}
<form method="post" action="${base}${ACCOUNT_PATH}" class="inline"><input type="hidden" name="csrf" value="${escapeHtml(csrf)}"><input type="hidden" name="clientId" value="${escapeHtml(token.clientId)}"><input type="hidden" name="tokenId" value="${escapeHtml(token.tokenId)}"><button type="submit" name="action" value="revoke-token" class="secondary">Revoke</button></form></li>`).join('')}</ul>`}
<h2>Another browser</h2>
<p>A browser without your key (a new one, a cleared profile) joins this account with a one-time code made here.</p>
<form method="post" action="${base}${ACCOUNT_PATH}"><input type="hidden" name="csrf" value="${escapeHtml(csrf)}"><button type="submit" name="action" value="link-code" id="make-link-code">Link a new browser</button></form>
<p><a id="sign-out" href="${base}/logout">Sign out</a> · <a href="${base}/verify">Verify a file</a> · <a href="${base}/">About this server</a></p>`
  return pageResponse(pageDocument(`${record.username} — Cairn`, body, context.basePath))
}

export async function submitAccount(context: PageContext, request: Request): Promise<Response> {
  const refuse = (message: string, status: number) => messagePage('Nothing changed', message, context.basePath, status)
  if (request.headers.get('origin') !== context.base.origin) return refuse('This form may only be sent from your account page.', 403)
  const session: SessionPrincipal | undefined = await sessionOf(context, request)
  if (!session) return refuse('You are not signed in; sign in and try again.', 401)
  const form = await readPageForm(request)
  if (!form || !sameToken(form.get('csrf') ?? '', await csrfToken(context, session.sessionId))) return refuse('The form has expired or was not issued to this session; open your account page again.', 403)
  if (form.get('action') === 'link-code') return linkCodePage(context, session)
  if (form.get('action') !== 'revoke-token') return refuse('The form could not be read.', 400)
  const clientId = form.get('clientId') ?? ''
  const tokenId = form.get('tokenId') ?? ''
  if (clientId === '' || tokenId === '') return refuse('The form does not name a token.', 400)
  const revoked = await revokeAgentToken({ params: {}, query: {}, body: { clientId, tokenId }, principal: session }, context.env.deps)
  if (E.isLeft(revoked)) return refuse(revoked.left.message, 404)
  return seeOther(`${context.basePath}${ACCOUNT_PATH}`)
}

/** The code a new browser types on its sign-in page, or why none was made (a stale sign-in). */
async function linkCodePage(context: PageContext, session: SessionPrincipal): Promise<Response> {
  const issued = await issueLinkCode(context.env.deps, session)
  const base = escapeHtml(context.basePath)
  if (E.isLeft(issued)) {
    const again = `${base}/login?next=${encodeURIComponent(`${context.basePath}${ACCOUNT_PATH}`)}`
    return pageResponse(pageDocument('Sign in again — Cairn', `<h1>Sign in again first</h1><p>${escapeHtml(issued.left.message)}</p><p><a href="${again}">Sign in on this device</a></p>`, context.basePath), { status: 403 })
  }
  const body = `<h1>Link a new browser</h1>
<p>On the new browser, open <strong>${escapeHtml(context.base.origin)}${base}/login</strong>, enter your username, and type this code when asked:</p>
<p class="code" id="link-code">${escapeHtml(issued.right.code)}</p>
<p>It works once, until ${escapeHtml(when(issued.right.expiresAt))}. Anyone holding it can add a key to your account: type it yourself, never share it.</p>
<p><a href="${base}${ACCOUNT_PATH}">Back to your account</a></p>`
  return pageResponse(pageDocument('Link a new browser — Cairn', body, context.basePath))
}
