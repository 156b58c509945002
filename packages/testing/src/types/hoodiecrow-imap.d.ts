// Only the parts of hoodiecrow-imap's untyped in-process API that the test harness uses.
declare module "hoodiecrow-imap" {
  import type { Server } from "node:net";
  import type { EventEmitter } from "node:events";

  namespace hoodiecrow {
    interface Mailbox {
      path: string;
      uidvalidity: number;
      uidnext: number;
      messages: Message[];
    }

    interface Message {
      uid: number;
      flags: string[];
      raw: string;
    }

    interface Connection {
      server: ImapServer;
      state: string;
      _notificationCallback: (...args: unknown[]) => void;
    }

    type CommandHandler = (connection: Connection, parsed: unknown, data: string, callback: () => void) => void;

    interface User {
      password: string;
    }

    interface ServerOptions {
      plugins?: string[];
      users?: Record<string, User>;
      storage?: Record<string, unknown>;
      debug?: boolean;
    }

    interface ImapServer extends EventEmitter {
      server: Server;
      users: Record<string, User>;
      listen(port: number, host: string): void;
      close(callback?: () => void): void;
      getCommandHandler(command: string): CommandHandler | false;
      setCommandHandler(command: string, handler: CommandHandler): void;
      getMailbox(path: string): Mailbox | undefined;
      /** `raw` is a binary (latin1) string, as the server reads the socket. */
      appendMessage(mailbox: Mailbox | string, flags: string[], internaldate: string | undefined, raw: string): { mailbox: Mailbox; message: Message };
    }
  }

  function hoodiecrow(options?: hoodiecrow.ServerOptions): hoodiecrow.ImapServer;
  export = hoodiecrow;
}
