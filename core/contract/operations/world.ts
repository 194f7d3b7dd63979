import { json, operation } from './define.js'
import { pageQuery } from './query-parameters.js'

export const worldOperations = [
  operation('World', 'getWorldProfile', 'GET /api/world/profile/{username}', {
    auth: 'None', response: 'WorldPublicResponse', summary: 'Live Twin surface, public profile, availability preview, visitor thread context',
  }),
  operation('World', 'messageWorldProfile', 'POST /api/world/profile/{username}', {
    auth: 'None', request: json('GenericCairnRequest'), response: 'WorldPublicResponse',
    summary: 'Visitor message to a Live Twin or booking request, subject to policy and rate limits',
  }),
  operation('World', 'streamWorldProfile', 'POST /api/world/profile/{username}/stream', {
    auth: 'None', request: json('GenericCairnRequest'), response: 'WorldPublicResponse', summary: 'Streamed incremental Live Twin updates',
  }),
  operation('World', 'getWorldPublic', 'GET /api/world/public', {
    auth: 'None', query: pageQuery, response: 'WorldPublicResponse', summary: 'Public world snapshot: open districts, featured ventures, discovery',
  }),
]
