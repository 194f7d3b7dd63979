/** Another host's SqliteEventBus on the file given, served over stdin/stdout (conformance/support/event-bus-in-child.ts). */
import { serveEventBusOverStdio } from '../../../conformance/support/event-bus-in-child.js'
import { SqliteEventBus } from '../sqlite-event-bus.js'

serveEventBusOverStdio(new SqliteEventBus({ file: process.argv[2]! }))
