/**
 * HEAD on every GET route (RFC 9110 §9.3.2): the GET's status and headers, Content-Length
 * included, and no body.
 */
import { FastResponse } from 'srvx'

export function headOf(response: Response | Promise<Response>): Response | Promise<Response> {
  return response instanceof Promise ? response.then(withoutBody) : withoutBody(response)
}

function withoutBody(response: Response): Response {
  void response.body?.cancel()
  return new FastResponse(null, { status: response.status, headers: response.headers })
}
