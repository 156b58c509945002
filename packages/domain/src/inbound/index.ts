export { classifyInbound, type InboundClassification } from "./classify-inbound.js";
export { categorizeReply } from "./categorize-reply.js";
export { findReturnDate, type CalendarDate } from "./return-date.js";
export { isAutoReply, type AutoReplyVerdict } from "./auto-reply.js";
export { isUnsubscribeRequest } from "./unsubscribe-request.js";
export { normalizeMessageId, INBOUND_TEXT_LIMIT, type DsnReport, type InboundFacts, type InboundMessage } from "./inbound-facts.js";
export { readInbound } from "./read-inbound.js";
export * from "./record-inbound-message.js";
export { replyText, REPLY_TEXT_LIMIT } from "./reply-text.js";
