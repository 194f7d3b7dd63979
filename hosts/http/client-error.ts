/**
 * Node's `clientError`: a request its parser refuses (malformed request line, headers too large,
 * bad header names, Content-Length with Transfer-Encoding, bad chunk sizes) or a request that
 * timed out. Node would answer with an empty body; Cairn answers `{ ok: false, error }` wherever
 * the socket can still be written, and closes it.
 */
import type { Duplex } from 'node:stream'

interface ParserError extends Error {
  readonly code?: string
}

/** The status and sentence for a parser error code. */
export function clientErrorAnswer(code: string | undefined): { readonly status: number; readonly reason: string; readonly message: string } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, reason: 'Request Header Fields Too Large', message: 'The request headers are larger than Cairn accepts' }
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, reason: 'Request Timeout', message: 'The request did not arrive in time' }
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return { status: 400, reason: 'Bad Request', message: 'The request has both Content-Length and Transfer-Encoding' }
    case 'HPE_INVALID_CHUNK_SIZE':
      return { status: 400, reason: 'Bad Request', message: 'The request body has a malformed chunk size' }
    case 'HPE_INVALID_HEADER_TOKEN':
      return { status: 400, reason: 'Bad Request', message: 'The request has a malformed header' }
    case 'HPE_INVALID_METHOD':
    case 'HPE_INVALID_URL':
    case 'HPE_INVALID_VERSION':
      return { status: 400, reason: 'Bad Request', message: 'The request line is malformed' }
    default:
      return { status: 400, reason: 'Bad Request', message: 'The request is malformed' }
  }
}

/**
 * @example server.on('clientError', answerClientError)
 */
export function answerClientError(error: ParserError, socket: Duplex): void {
  // A reset connection, or one whose response has begun, cannot carry an answer.
  const started = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true
  if (error.code === 'ECONNRESET' || !socket.writable || started) {
    socket.destroy()
    return
  }
  const { status, reason, message } = clientErrorAnswer(error.code)
  const body = JSON.stringify({ ok: false, error: message })
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
      `cache-control: no-store\r\nconnection: close\r\n\r\n${body}`,
  )
}
