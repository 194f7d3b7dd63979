export { createHttpApp, type HttpAppOptions } from './create-http-app.js'
export { DEFAULT_BODY_LIMITS, type BodyLimits } from './limits.js'
export { startHttpServer, type RunningServer } from './start-http-server.js'
