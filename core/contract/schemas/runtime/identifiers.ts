/** The runtime's named identifiers: the application, commit domains and namespaces. */
import { alias, describe, struct } from '../../define.js'
import { NonEmptyString, patternString } from '../../primitives.js'
import { Slug } from './values.js'

/**
 * An application's identifier: lowercase, reverse-DNS or slug style (`com.example.notes`,
 * `notes-app`), 1–128 characters, starting and ending with a letter or digit. It travels as a path
 * segment, so it is URL-safe without encoding.
 *
 * @example V124ApplicationId.is('com.example.notes') // true
 */
export const V124ApplicationId = describe(
  alias('V124ApplicationId', patternString('V124ApplicationIdPattern', /^[a-z0-9](?:[a-z0-9._-]{0,126}[a-z0-9])?$/)),
  'Application identifier: lowercase reverse-DNS or slug (e.g. `com.example.notes`), 1-128 characters.',
)

/** `{ scheme, value }`: the scheme says which registry the value is read against. */
const schemedId = (name: string, description: string) =>
  struct(name, { scheme: Slug, value: NonEmptyString }, {}, description)

/** The domain a commit is compare-and-swapped in, e.g. `{ scheme: 'artifact', value: '<artifact id>' }`. */
export const V124CommitDomainId = schemedId('V124CommitDomainId', 'Commit domain identifier: a lowercase scheme and a value in that scheme.')

/** A namespace inside an artifact or subject, e.g. `{ scheme: 'subject', value: 'profile' }`. */
export const V124NamespaceId = schemedId('V124NamespaceId', 'Namespace identifier: a lowercase scheme and a value in that scheme.')

/** This file's components by name, spread into `runtimeComponents`. */
export const identifierComponents = { V124ApplicationId, V124CommitDomainId, V124NamespaceId } as const
