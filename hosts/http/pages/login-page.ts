/**
 * `GET <base>/login?next=…&login_hint=…`: Cairn's default sign-in page (a deployment's `loginUrl`
 * replaces it). The page's script (assets/cairn-login.js) creates or restores a Cairn ID key in the
 * browser, signs the ID-continue message, posts it, and resumes `next` (only ever on Cairn's origin;
 * the account page when there is none).
 */
import { pageDocument, pageResponse, escapeHtml } from './html.js'
import { sameOriginTarget, type PageContext } from './page-context.js'

export function loginPage(context: PageContext, request: Request): Response {
  const url = new URL(request.url)
  // Without a `next`, a person lands on their account page, never on an API answer.
  const next = sameOriginTarget(context, url.searchParams.get('next')) ?? `${context.basePath}/account`
  const hint = url.searchParams.get('login_hint') ?? ''
  const body = `<h1>Sign in with your Cairn ID</h1>
<p>Your key is created in this browser and never leaves it. A new username creates an account.</p>
<form id="sign-in">
  <label for="username">Username</label>
  <input id="username" name="username" autocomplete="username" required pattern="[A-Za-z0-9][A-Za-z0-9._\\-]{1,30}[A-Za-z0-9]" value="${escapeHtml(hint)}">
  <label for="display-name">Display name (new accounts)</label>
  <input id="display-name" name="displayName" autocomplete="name">
  <button type="submit">Continue</button>
</form>
<p class="status" id="status" role="status"></p>
<form id="link" hidden>
  <p>This username belongs to an account whose keys live in other browsers. If it is yours, open
  <strong>Account → Link a new browser</strong> on a device where you are signed in and type the code it shows.</p>
  <label for="link-code">Link code</label>
  <input id="link-code" name="code" autocomplete="one-time-code" required pattern="[0-9A-Za-z]{5}-?[0-9A-Za-z]{5}" placeholder="ABCDE-FGHJK">
  <button type="submit">Link this browser</button>
</form>`
  return pageResponse(
    pageDocument('Sign in — Cairn', body, context.basePath, {
      issuer: context.env.deps.config.baseUrl.replace(/\/+$/, ''),
      'continue-url': `${context.basePath}/api/auth/cairn-id/continue`,
      'link-url': `${context.basePath}/login/link`,
      next,
    }, 'cairn-login.js'),
  )
}
