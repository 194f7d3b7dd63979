/**
 * The Lawful Economy (V125, docs/runtime.md): laws registered from the sealed proof objects that
 * enclose them, sealed lawful actions admitted and transferred under exact custody continuity,
 * each with one spendable Settlement membership, and value heads derived from sealed times and the
 * server's own Kai time, paid through the value ledger.
 */
import type { UseCaseRegistry } from '../usecases/use-case.js'
import { admitLawfulAction } from './admit-action.js'
import { registerLaw } from './register-law.js'
import { deriveLawfulValueHead } from './value-head.js'

/** @example const useCases = { ...lawfulUseCases } */
export const lawfulUseCases = { registerLaw, admitLawfulAction, deriveValueHead: deriveLawfulValueHead } as const satisfies UseCaseRegistry

export { lawfulCollections, lawfulMemberships, LAWFUL_LAWS, LAWFUL_ADMISSIONS, LAWFUL_CUSTODY, LAWFUL_MEMBERSHIPS, LAWFUL_VALUE_HEADS, type MembershipRecord } from './records.js'
export { deriveValueHead, VALUE_HEAD_SCHEMA, type ValueHead, type Derivation } from './derive.js'
export { Law, LawfulAction, LAW_SCHEMA, LAWFUL_ACTION_SCHEMA } from './payloads.js'
