import { json, operation } from './define.js'

const scopes = ['cairn:lawful.write']

export const lawfulEconomyOperations = [
  operation('Lawful Economy', 'admitLawfulAction', 'POST /api/sdk/v1/lawful-actions/admit', {
    auth: 'Bearer', scopes, request: json('V125LawfulActionAdmissionRequest'), response: 'V125LawfulActionResult',
    summary: 'Admit or transfer one sealed lawful action under exact custody continuity and one spendable Settlement membership',
  }),
  operation('Lawful Economy', 'registerLaw', 'POST /api/sdk/v1/lawful-actions/laws/register', {
    auth: 'Bearer', scopes, request: json('V125LawfulActionLawRegistrationRequest'), response: 'V125LawfulActionResult',
    summary: 'Register a law only from an enclosing sealed proof object',
  }),
  operation('Lawful Economy', 'deriveValueHead', 'POST /api/sdk/v1/lawful-actions/value-head/derive', {
    auth: 'Bearer', scopes, request: json('V125LawfulActionValueHeadRequest'), response: 'V125LawfulActionResult',
    summary: 'Advance deterministic Settlement from sealed start and completion times and a server-sampled current time',
  }),
]
