/// <reference path="./types/hoodiecrow-imap.d.ts" />
import { once } from "node:events";
import type { AddressInfo, Socket } from "node:net";
import hoodiecrow from "hoodiecrow-imap";
import { dovecotUnavailableReason, startDovecot } from "./dovecot.js";
import { isCi } from "./system-servers.js";

export type ImapServerKind = "dovecot" | "hoodiecrow";

export interface AppendedMessage {
  uid: number;
  uidValidity: number;
}

/** A loopback IMAP server without TLS; each user has their own INBOX. */
export interface ImapTestServer {
  readonly kind: ImapServerKind;
  readonly host: string;
  readonly port: number;
  readonly secure: false;
  addUser(email: string, password: string): Promise<void>;
  /** Puts a message into the user's INBOX as if it had been delivered. */
  appendMessage(email: string, rawRfc822: string | Buffer, flags?: string[]): Promise<AppendedMessage>;
  close(): Promise<void>;
}

const HOST = "127.0.0.1";
// ENABLE must come before CONDSTORE, which registers itself with it.
const HOODIECROW_PLUGINS = ["ENABLE", "IDLE", "UIDPLUS", "CONDSTORE", "UNSELECT", "NAMESPACE", "ID"];

function createMailboxServer(users: Record<string, hoodiecrow.User>): hoodiecrow.ImapServer {
  return hoodiecrow({
    plugins: HOODIECROW_PLUGINS,
    users,
    storage: { INBOX: { uidvalidity: Math.floor(Date.now() / 1000) }, "": {} },
  });
}

/**
 * Hoodiecrow keeps one mail store per server instance. To give every user their own INBOX,
 * one instance listens, and after a successful LOGIN the connection is moved to a
 * never-listening instance that holds only that user's store (commands, plugins and
 * new-message notifications are all looked up through `connection.server`).
 */
export async function startHoodiecrowImap(): Promise<ImapTestServer> {
  const users: Record<string, hoodiecrow.User> = {};
  const mailboxes = new Map<string, hoodiecrow.ImapServer>();
  const front = createMailboxServer(users);

  const login = front.getCommandHandler("LOGIN");
  if (!login) throw new Error("hoodiecrow-imap has no LOGIN handler");
  front.setCommandHandler("LOGIN", (connection, parsed, data, callback) => {
    const username = (parsed as { attributes?: { value?: unknown }[] }).attributes?.[0];
    if (username && typeof username.value === "string") username.value = username.value.toLowerCase();
    login(connection, parsed, data, () => {
      const mailbox = typeof username?.value === "string" ? mailboxes.get(username.value) : undefined;
      if (connection.state === "Authenticated" && mailbox) {
        connection.server.removeListener("notify", connection._notificationCallback);
        connection.server = mailbox;
        mailbox.on("notify", connection._notificationCallback);
      }
      callback();
    });
  });

  const sockets = new Set<Socket>();
  front.server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  front.listen(0, HOST);
  await once(front.server, "listening");
  const { port } = front.server.address() as AddressInfo;

  return {
    kind: "hoodiecrow",
    host: HOST,
    port,
    secure: false,
    async addUser(email, password) {
      const key = email.toLowerCase();
      users[key] = { password };
      if (!mailboxes.has(key)) mailboxes.set(key, createMailboxServer(users));
    },
    async appendMessage(email, rawRfc822, flags = []) {
      const mailbox = mailboxes.get(email.toLowerCase());
      if (!mailbox) throw new Error(`Unknown IMAP test user ${email}`);
      // Hoodiecrow handles message sources as binary strings, as it reads them off the socket.
      const raw = Buffer.isBuffer(rawRfc822) ? rawRfc822.toString("binary") : Buffer.from(rawRfc822).toString("binary");
      const { mailbox: inbox, message } = mailbox.appendMessage("INBOX", flags, undefined, raw);
      return { uid: message.uid, uidValidity: inbox.uidvalidity };
    },
    async close() {
      const closed = new Promise<void>((resolve) => front.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

/**
 * Dovecot when it can run here, else hoodiecrow; under CI always Dovecot (so a missing install
 * fails loudly instead of quietly testing against the stand-in); `IMAP_TEST_SERVER=dovecot|hoodiecrow`
 * forces one.
 */
export function imapServerKind(): ImapServerKind {
  const forced = process.env.IMAP_TEST_SERVER;
  if (forced === "dovecot" || forced === "hoodiecrow") return forced;
  if (forced) throw new Error(`IMAP_TEST_SERVER must be "dovecot" or "hoodiecrow", got ${JSON.stringify(forced)}`);
  return dovecotUnavailableReason() === undefined || isCi() ? "dovecot" : "hoodiecrow";
}

export function startImapServer(): Promise<ImapTestServer> {
  return imapServerKind() === "dovecot" ? startDovecot() : startHoodiecrowImap();
}
