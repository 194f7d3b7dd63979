import { json, operation } from './define.js'

export const paymentsOperations = [
  operation('Payments', 'createEmbedCheckout', 'POST /api/payments/embed/checkout', {
    auth: 'None', request: json('CheckoutRequest'), response: 'CheckoutSessionResponse',
    summary: 'Embedded or hosted checkout settling to a target username wallet',
  }),
  operation('Payments', 'claimEmbedNote', 'POST /api/payments/embed/note-claim', {
    auth: 'None', request: json('GenericCairnRequest'), response: 'NoteClaimResponse',
    summary: 'Uploaded note artifacts or note tokens claimed into a target username wallet',
  }),
]
