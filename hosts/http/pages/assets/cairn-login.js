// Cairn's sign-in page: creates or restores a Cairn ID key in this browser and signs the
// ID-continue message (docs/identity.md). The private key is a non-extractable WebCrypto key kept
// in IndexedDB: scripts can use it to sign, never read it. No framework, no build step.

const page = document.documentElement.dataset
const issuer = page.issuer // the service's base URL: the signed message's audience
const continueUrl = page.continueUrl
const linkUrl = page.linkUrl
const next = page.next
const USERNAME_TAKEN = 'This username is taken; sign in with a key already bound to it before binding a new key'

const form = document.getElementById('sign-in')
const status = document.getElementById('status')
const usernameInput = document.getElementById('username')
const displayNameInput = document.getElementById('display-name')

const say = (text) => { status.textContent = text }
const linkForm = document.getElementById('link')
const linkCodeInput = document.getElementById('link-code')
// The key made for a username that turned out to be taken, kept until a link code binds it.
let pendingLink

// --- base64url and canonical JSON -------------------------------------------------------------
const b64u = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
// Every member is a string, so RFC 8785 canonical JSON is JSON.stringify with sorted keys.
const canonicalJson = (object) => JSON.stringify(Object.fromEntries(Object.keys(object).sort().map((key) => [key, object[key]])))

// --- the key store (IndexedDB) ----------------------------------------------------------------
function database() {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open('cairn-id', 1)
    open.onupgradeneeded = () => open.result.createObjectStore('keys', { keyPath: 'username' })
    open.onsuccess = () => resolve(open.result)
    open.onerror = () => reject(open.error)
  })
}
async function withStore(mode, run) {
  const db = await database()
  return new Promise((resolve, reject) => {
    const tx = db.transaction('keys', mode)
    const request = run(tx.objectStore('keys'))
    tx.oncomplete = () => resolve(request?.result)
    tx.onerror = () => reject(tx.error)
  })
}
const loadIdentity = (username) => withStore('readonly', (store) => store.get(username))
const saveIdentity = (record) => withStore('readwrite', (store) => store.put(record))
const anyIdentity = () => withStore('readonly', (store) => store.getAll())

// --- the ID-continue request ------------------------------------------------------------------
async function newIdentity(username) {
  // extractable: false — the private key can sign but can never be exported, even by this page.
  const pair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify'])
  return { username, privateKey: pair.privateKey, publicKey: pair.publicKey, localUid: `browser-${b64u(crypto.getRandomValues(new Uint8Array(12)))}` }
}

async function keyIdOf(rawPublicKey) {
  // RFC 7638 thumbprint of {"crv":"P-256","kty":"EC","x":…,"y":…}
  const x = b64u(rawPublicKey.slice(1, 33))
  const y = b64u(rawPublicKey.slice(33, 65))
  return b64u(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`{"crv":"P-256","kty":"EC","x":"${x}","y":"${y}"}`)))
}

async function signedContinueRequest(identity, displayName) {
  const raw = new Uint8Array(await crypto.subtle.exportKey('raw', identity.publicKey))
  const fields = {
    keyId: await keyIdOf(raw),
    alg: 'ES256',
    publicKeyRawB64u: b64u(raw),
    localUid: identity.localUid,
    username: identity.username,
    displayName,
    createdAt: new Date().toISOString(),
    challengeB64Url: b64u(crypto.getRandomValues(new Uint8Array(32))),
    origin: 'sdk-created',
  }
  const message = canonicalJson({ ...fields, purpose: 'cairn.id.continue.v1', audience: issuer })
  // WebCrypto's ECDSA signature is already the raw r‖s form (64 bytes) the service expects.
  const signature = await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, identity.privateKey, new TextEncoder().encode(message))
  return { ...fields, signatureB64Url: b64u(signature) }
}

/** Posts a signed request (to `url`, with `extra` around it); on success keeps the key and moves on. */
async function send(url, identity, displayName, stored, wrap = (request) => request) {
  const response = await fetch(url, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(wrap(await signedContinueRequest(identity, displayName))),
  })
  const answer = await response.json()
  if (!response.ok) return answer.error_description ?? answer.error ?? `The service answered ${response.status}`
  if (!stored) await saveIdentity({ ...identity, displayName })
  say(`Signed in as ${answer.session.username}.`)
  location.assign(next || answer.next)
  return undefined
}

async function signIn(event) {
  event.preventDefault()
  const username = usernameInput.value.trim().toLowerCase()
  const displayName = displayNameInput.value.trim() || username
  if (!username) return say('Choose a username.')
  form.querySelector('button').disabled = true
  try {
    const stored = await loadIdentity(username)
    const identity = stored ?? (await newIdentity(username))
    say(stored ? 'Signing in with the key kept in this browser…' : 'Creating a key in this browser…')
    const refused = await send(continueUrl, identity, stored?.displayName ?? displayName, stored)
    if (refused === undefined) return
    if (refused === USERNAME_TAKEN && !stored) {
      // Not a dead end: this browser's new key can join the account with a code from a signed-in device.
      pendingLink = { identity, displayName }
      linkForm.hidden = false
      linkCodeInput.focus()
      say(`"${username}" already has an account. Is it yours? Link this browser with a code.`)
    } else {
      say(`Could not sign in: ${refused}`)
    }
  } catch (error) {
    say(`Could not sign in: ${error.message}`)
  }
  form.querySelector('button').disabled = false
}

async function link(event) {
  event.preventDefault()
  if (!pendingLink) return
  linkForm.querySelector('button').disabled = true
  try {
    say('Linking this browser…')
    const refused = await send(linkUrl, pendingLink.identity, pendingLink.displayName, undefined, (request) => ({ code: linkCodeInput.value.trim(), request }))
    if (refused !== undefined) say(`Could not link this browser: ${refused}`)
  } catch (error) {
    say(`Could not link this browser: ${error.message}`)
  }
  linkForm.querySelector('button').disabled = false
}

form.addEventListener('submit', signIn)
linkForm.addEventListener('submit', link)
// Offer the identity this browser already holds (or the client's login_hint, already in the field).
anyIdentity().then((all) => {
  if (!usernameInput.value && all?.length) usernameInput.value = all[0].username
}).catch(() => say('This browser cannot keep keys (IndexedDB is unavailable).'))
