/** The webhook event types Cairn publishes (docs/webhooks.md); an endpoint's allowlist names some of them. */
export const WEBHOOK_EVENT_TYPES = ['creator.run.completed', 'twin.message.completed'] as const

export type WebhookEventTypeName = (typeof WEBHOOK_EVENT_TYPES)[number]

export const isPublishedEventType = (type: string): type is WebhookEventTypeName => (WEBHOOK_EVENT_TYPES as readonly string[]).includes(type)
