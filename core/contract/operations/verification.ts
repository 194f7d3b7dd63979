import { multipart, operation, optionalJson } from './define.js'

export const verificationOperations = [
  operation('Verification', 'sealDocument', 'POST /api/document-seal', {
    auth: 'None', request: multipart('DocumentSealRequest'), response: 'DocumentSealResponseMetadata',
    summary: 'Integrity-only seal; does not create a verified proof object',
  }),
  operation('Verification', 'sealOwnedAsset', 'POST /api/sdk/v1/assets/seal', {
    auth: 'Session', request: multipart('DocumentSealRequest'), response: 'DocumentSealResponseMetadata',
    summary: 'Creates the owner\'s native record, then seals the source bytes at the same coordinates',
  }),
  operation('Verification', 'verifyDocument', 'POST /api/document-verify', {
    auth: 'None', request: multipart('DocumentVerifyRequest'), response: 'DocumentVerifyResponse',
    summary: 'Deterministic verification of sealed files and package artifacts',
  }),
  operation('Verification', 'verifyClaim', 'POST /api/verify', {
    auth: 'None', request: optionalJson('GenericCairnRequest'), response: 'CairnApiResponse',
    summary: 'Verifies claim coordinates, returns canonical verdict envelopes',
  }),
  operation('Verification', 'getVerificationConformance', 'GET /api/verification/conformance', {
    auth: 'None', response: 'CairnApiResponse', summary: 'Live verification conformance report with revision anchors',
  }),
  operation('Verification', 'getLegacySurface', 'GET /api/cairn', {
    auth: 'None', response: 'CairnApiResponse', summary: 'Legacy mint/record surface',
  }),
]
