import { checkoutSessionQuery } from './query-parameters.js'
import { ignoredJson, json, multipart, operation, optionalJson } from './define.js'

// GET+body routes carry their body as published (the spec's "GET+body"); reads need the read
// scope, writes the write scope (docs/decisions.md: Twin scopes per method).
export const connectOperations = [
  operation('Connect', 'connectRecord', 'POST /api/connect/record', {
    auth: 'Bearer', scopes: ['cairn:record'], request: optionalJson('GenericCairnRequest'), response: 'CairnApiResponse',
    summary: 'Record on the owner\'s behalf',
  }),
  operation('Connect', 'connectSeal', 'POST /api/connect/seal', {
    auth: 'Bearer', scopes: ['cairn:seal'], request: optionalJson('GenericCairnRequest'), response: 'CairnApiResponse',
    summary: 'Integrity-only seal; proof objects use the authenticated SDK asset seal route',
  }),
  operation('Connect', 'connectVerify', 'POST /api/connect/verify', {
    auth: 'Bearer', scopes: ['cairn:verify'], request: multipart('DocumentVerifyRequest'), response: 'DocumentVerifyResponse',
    summary: 'Verify an artifact on the user\'s behalf',
  }),
  operation('Connect', 'getConnectWallet', 'GET /api/connect/wallet/me', {
    auth: 'Bearer', scopes: ['cairn:wallet.read'], response: 'ConnectWalletResponse', summary: 'The user\'s wallet',
  }),
  operation('Connect', 'createTransfer', 'POST /api/connect/transfers', {
    auth: 'Bearer', scopes: ['cairn:wallet.transfer'], request: json('ConnectTransferRequest'), response: 'ConnectTransferResponse',
    summary: 'Transfer from the user\'s wallet',
  }),
  operation('Connect', 'getTwinMarketMandate', 'GET /api/connect/twin/market/mandate', {
    auth: 'Bearer', scopes: ['cairn:twin.read'], request: ignoredJson('SaveTwinMarketMandateInput'), response: 'TwinMarketMandateResponse',
    summary: 'Read the Twin market mandate (GET+body as published)',
  }),
  operation('Connect', 'saveTwinMarketMandate', 'PATCH /api/connect/twin/market/mandate', {
    auth: 'Bearer', scopes: ['cairn:twin.write'], request: json('SaveTwinMarketMandateInput'), response: 'TwinMarketMandateResponse',
    summary: 'Save the Twin market mandate',
  }),
  operation('Connect', 'listTwinMarketIntents', 'GET /api/connect/twin/market/intents', {
    auth: 'Bearer', scopes: ['cairn:twin.read'], request: ignoredJson('CreateTwinMarketIntentInput'), response: 'TwinMarketIntentsResponse',
    summary: 'List Twin market intents (GET+body as published)',
  }),
  operation('Connect', 'createTwinMarketIntent', 'POST /api/connect/twin/market/intents', {
    auth: 'Bearer', scopes: ['cairn:twin.write'], request: json('CreateTwinMarketIntentInput'), response: 'TwinMarketIntentsResponse',
    summary: 'Create a pending Twin market intent',
  }),
  operation('Connect', 'approveTwinMarketIntent', 'POST /api/connect/twin/market/intents/{intentId}/approve', {
    auth: 'Bearer', scopes: ['cairn:twin.write'], request: optionalJson('GenericCairnRequest'), response: 'TwinMarketIntentResponse',
    summary: 'Approve a pending intent; mandate risk checks still apply',
  }),
  operation('Connect', 'exportTwinMind', 'GET /api/connect/twin/mind/export', {
    auth: 'Bearer', scopes: ['cairn:twin.read'], response: 'TwinMindArtifactPng', contentType: 'image/png',
    summary: 'Export the Twin mind as a signed PNG artifact',
  }),
  operation('Connect', 'inspectTwinMind', 'GET /api/connect/twin/mind/import', {
    auth: 'Bearer', scopes: ['cairn:twin.read'], request: multipart('TwinMindImportRequest'), response: 'TwinMindImportSummaryResponse',
    summary: 'Inspect a Twin mind artifact after signature verification (GET+body as published)',
  }),
  operation('Connect', 'importTwinMind', 'POST /api/connect/twin/mind/import', {
    auth: 'Bearer', scopes: ['cairn:twin.write'], request: multipart('TwinMindImportRequest'), response: 'TwinMindImportSummaryResponse',
    summary: 'Import a Twin mind artifact after signature verification',
  }),
  operation('Connect', 'getTwinApproval', 'GET /api/connect/twin/approval', {
    auth: 'Bearer', scopes: ['cairn:twin.read'], request: ignoredJson('TwinPromotionApprovalInput'), response: 'TwinApprovalResponse',
    summary: 'Read public Twin promotion approval (GET+body as published)',
  }),
  operation('Connect', 'approveTwinPromotion', 'POST /api/connect/twin/approval', {
    auth: 'Bearer', scopes: ['cairn:twin.write'], request: json('TwinPromotionApprovalInput'), response: 'TwinApprovalResponse',
    summary: 'Public Twin promotion; the owner needs the automation entitlement',
  }),
  operation('Connect', 'createConnectCheckout', 'POST /api/connect/payments/checkout', {
    auth: 'Bearer', scopes: ['cairn:payments.create'], request: json('CheckoutRequest'), response: 'CheckoutSessionResponse',
    summary: 'Create a checkout session',
  }),
  operation('Connect', 'getConnectCheckoutSession', 'GET /api/connect/payments/session', {
    auth: 'Bearer', scopes: ['cairn:payments.read'], query: checkoutSessionQuery, response: 'CheckoutSessionStatusResponse',
    summary: 'Checkout session status',
  }),
  operation('Connect', 'mintWalletNote', 'POST /api/connect/payments/notes/mint', {
    auth: 'Bearer', scopes: ['cairn:notes.mint'], request: optionalJson('GenericCairnRequest'), response: 'WalletNoteResponse',
    summary: 'Offline payment notes from wallet balance',
  }),
  operation('Connect', 'claimWalletNote', 'POST /api/connect/payments/notes/claim', {
    auth: 'Bearer', scopes: ['cairn:notes.claim'], request: optionalJson('GenericCairnRequest'), response: 'WalletNoteResponse',
    summary: 'Notes into wallet balance',
  }),
  operation('Connect', 'downloadWalletNote', 'GET /api/connect/payments/notes/{noteId}/download', {
    auth: 'Bearer', scopes: ['cairn:notes.read'], response: 'WalletNoteDownloadResponse', summary: 'Download a note',
  }),
]
