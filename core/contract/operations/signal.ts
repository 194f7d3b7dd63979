import { artImageQuery, pageQuery, simulationQuery } from './query-parameters.js'
import { json, operation, optionalJson } from './define.js'

// Responses are SignalCircuitResponse unless the spec states one (the conformance routes).
export const signalOperations = [
  operation('Signal And Sports', 'getCardAuction', 'GET /api/game/signal-run/cards/{cardId}/auction', {
    auth: 'None', request: optionalJson('GenericCairnRequest'), response: 'SignalCircuitResponse', summary: 'Read auction terms',
  }),
  operation('Signal And Sports', 'appendCardAuctionAction', 'POST /api/game/signal-run/cards/{cardId}/auction', {
    auth: 'None', request: json('GenericCairnRequest'), response: 'SignalCircuitResponse',
    summary: 'Append session-gated owner auction actions or verified bid records',
  }),
  operation('Signal And Sports', 'getCardPurchase', 'GET /api/game/signal-run/cards/{cardId}/purchase', {
    auth: 'None', response: 'SignalCircuitResponse', summary: 'Read active public sale terms',
  }),
  operation('Signal And Sports', 'getCardShareImage', 'GET /api/game/signal-run/cards/{cardId}/share-image', {
    auth: 'None', response: 'SignalCircuitResponse', summary: 'Public share image',
  }),
  operation('Signal And Sports', 'generateCardArt', 'POST /api/game/signal-run/cards/art', {
    auth: 'None', request: json('GenericCairnRequest'), response: 'SignalCircuitResponse',
    summary: 'Generate or retrieve card art with deterministic fallback',
  }),
  operation('Signal And Sports', 'getCardArtImage', 'GET /api/game/signal-run/cards/art-image', {
    auth: 'None', query: artImageQuery, response: 'SignalCircuitResponse', summary: 'Immutable stored artwork by card ID and claim hash',
  }),
  operation('Signal And Sports', 'listBattleRequests', 'GET /api/game/signal-run/cards/battle-request', {
    auth: 'Session', request: optionalJson('GenericCairnRequest'), response: 'SignalCircuitResponse', summary: 'Read battle request queues',
  }),
  operation('Signal And Sports', 'answerBattleRequest', 'PATCH /api/game/signal-run/cards/battle-request', {
    auth: 'Session', request: json('GenericCairnRequest'), response: 'SignalCircuitResponse',
    summary: 'Accept or decline head-to-head card, XP, money or fun battles',
  }),
  operation('Signal And Sports', 'createBattleRequest', 'POST /api/game/signal-run/cards/battle-request', {
    auth: 'Session', request: json('GenericCairnRequest'), response: 'SignalCircuitResponse', summary: 'Append a fight request',
  }),
  operation('Signal And Sports', 'saveBattleSettings', 'POST /api/game/signal-run/cards/battle-settings', {
    auth: 'Session', request: json('GenericCairnRequest'), response: 'SignalCircuitResponse',
    summary: 'Card owner opts a verified card in or out of AI twin battle defense',
  }),
  operation('Signal And Sports', 'listDiscoverableCards', 'GET /api/game/signal-run/cards/discovery', {
    auth: 'None', query: pageQuery, response: 'SignalCircuitResponse', summary: 'Verified discoverable cards',
  }),
  operation('Signal And Sports', 'recordCard', 'POST /api/game/signal-run/cards/record', {
    auth: 'None', request: json('GenericCairnRequest'), response: 'SignalCircuitResponse',
    summary: 'Anchor a sealed card image and metadata into the public record path',
  }),
  operation('Signal And Sports', 'getSportsConformance', 'GET /api/game/sports/conformance', {
    auth: 'None', response: 'SportsConformanceResponse', summary: 'Sports conformance report',
  }),
  operation('Signal And Sports', 'getSportsConformanceBadge', 'GET /api/game/sports/conformance/badge', {
    auth: 'None', response: 'ConformanceBadgeResponse', summary: 'Sports conformance badge',
  }),
  operation('Signal And Sports', 'getSportsConformanceHistory', 'GET /api/game/sports/conformance/history', {
    auth: 'None', response: 'ConformanceHistoryResponse', summary: 'Sports conformance snapshots',
  }),
  operation('Signal And Sports', 'getSportsConformanceRollups', 'GET /api/game/sports/conformance/history/rollups', {
    auth: 'None', response: 'ConformanceRollupsResponse', summary: 'Sports conformance daily rollups',
  }),
  operation('Signal And Sports', 'getSignalCircuitConformance', 'GET /api/signal-circuit/conformance', {
    auth: 'None', response: 'SignalCircuitConformanceResponse', summary: 'Signal Circuit conformance report',
  }),
  operation('Signal And Sports', 'getSignalCircuitConformanceBadge', 'GET /api/signal-circuit/conformance/badge', {
    auth: 'None', response: 'ConformanceBadgeResponse', summary: 'Signal Circuit conformance badge',
  }),
  operation('Signal And Sports', 'getSignalCircuitConformanceHistory', 'GET /api/signal-circuit/conformance/history', {
    auth: 'None', response: 'ConformanceHistoryResponse', summary: 'Signal Circuit conformance snapshots',
  }),
  operation('Signal And Sports', 'getSignalCircuitConformanceRollups', 'GET /api/signal-circuit/conformance/history/rollups', {
    auth: 'None', response: 'ConformanceRollupsResponse', summary: 'Signal Circuit conformance daily rollups',
  }),
  operation('Signal And Sports', 'simulateSignalCircuitOdds', 'GET /api/signal-circuit/conformance/simulation', {
    auth: 'None', query: simulationQuery, response: 'SignalCircuitSimulationResponse',
    summary: 'Bounded deterministic odds simulation with seed replay, output hash and source digest',
  }),
]
