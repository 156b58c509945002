// Mailboxes: OAuth2 (XOAUTH2) mailboxes of Google and Microsoft: presets, connections, access tokens, the authorize state (see README.md).
export * from "./oauth-providers.js";
export * from "./oauth-token-endpoint.js";
export * from "./oauth-connections.js";
export * from "./mailbox-tokens.js";
export * from "./oauth-state.js";
