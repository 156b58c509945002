import { once } from "node:events";
import type { Socket } from "node:net";
import { Packet, UDPServer, TCPServer, type DnsHandler } from "dns2";

export interface MxRecord {
  exchange: string;
  priority: number;
}

export interface DnsTestServer {
  readonly host: string;
  readonly port: number;
  /** "127.0.0.1:PORT", the form `dns.promises.Resolver#setServers` takes. */
  readonly address: string;
  /** Number of queries received per domain name (lower case, no trailing dot), any record type. */
  readonly queries: ReadonlyMap<string, number>;
  queryCount(domain: string): number;
  setMx(domain: string, records: MxRecord[]): void;
  setA(domain: string, addresses: string[]): void;
  /**
   * The domain's TXT records: each a string, or its character strings (of at most 255 bytes each)
   * as an array; a string longer than 255 bytes is split into such strings.
   */
  setTxt(domain: string, records: Array<string | string[]>): void;
  /** The domain exists but has no MX records: NOERROR with an empty answer (resolvers report ENODATA). */
  setNoMx(domain: string): void;
  /** The domain does not exist: NXDOMAIN (resolvers report ENOTFOUND). Also the answer for unknown names. */
  setNxDomain(domain: string): void;
  /** Every query for the name fails with SERVFAIL (resolvers report ESERVFAIL). */
  setServFail(domain: string): void;
  /** Forgets all zones and resets the query counters. */
  clear(): void;
  close(): Promise<void>;
}

type ExistingZone = { exists: true; mx: MxRecord[]; a: string[]; txt: string[][] };
type Zone = { exists: false; servfail?: boolean } | ExistingZone;

const HOST = "127.0.0.1";
const TTL_SECONDS = 300;
const RCODE_SERVFAIL = 2;
const RCODE_NXDOMAIN = 3;
const TXT_STRING_BYTES = 255;
const LISTEN_ATTEMPTS = 5;

function normalizeName(name: string): string {
  return name.trim().toLowerCase().replace(/\.$/, "");
}

/** A TXT record's character strings: a long string is cut into pieces of at most 255 bytes, as publishers do. */
function characterStrings(record: string | string[]): string[] {
  if (Array.isArray(record)) return [...record];
  const bytes = Buffer.from(record, "utf8");
  const pieces: string[] = [];
  for (let at = 0; at < bytes.length; at += TXT_STRING_BYTES) pieces.push(bytes.subarray(at, at + TXT_STRING_BYTES).toString("utf8"));
  return pieces.length ? pieces : [""];
}

function answer(zones: Map<string, Zone>, request: Packet): Packet {
  const response = Packet.createResponseFromRequest(request);
  response.header.aa = 1;
  for (const question of request.questions) {
    const zone = zones.get(normalizeName(question.name));
    if (!zone?.exists) {
      response.header.rcode = zone?.servfail ? RCODE_SERVFAIL : RCODE_NXDOMAIN;
      continue;
    }
    if (question.type === Packet.TYPE.MX) {
      for (const mx of zone.mx) {
        response.answers.push(
          Packet.createResourceFromQuestion(question, {
            type: Packet.TYPE.MX,
            ttl: TTL_SECONDS,
            exchange: mx.exchange,
            priority: mx.priority,
          }),
        );
      }
    } else if (question.type === Packet.TYPE.A) {
      for (const address of zone.a) {
        response.answers.push(Packet.createResourceFromQuestion(question, { type: Packet.TYPE.A, ttl: TTL_SECONDS, address }));
      }
    } else if (question.type === Packet.TYPE.TXT) {
      for (const data of zone.txt) {
        response.answers.push(Packet.createResourceFromQuestion(question, { type: Packet.TYPE.TXT, ttl: TTL_SECONDS, data }));
      }
    }
  }
  return response;
}

/** UDP picks a free port; TCP then takes the same number, which a parallel process may already hold. */
async function listenUdpAndTcp(handler: DnsHandler): Promise<{ udp: UDPServer; tcp: TCPServer; port: number }> {
  for (let attempt = 1; ; attempt++) {
    const udp = new UDPServer(handler);
    await udp.listen(0, HOST);
    const { port } = udp.address();
    const tcp = new TCPServer(handler);
    try {
      tcp.listen(port, HOST);
      await once(tcp, "listening");
      return { udp, tcp, port };
    } catch (error) {
      udp.close();
      if (attempt >= LISTEN_ATTEMPTS) throw error;
    }
  }
}

export async function startDnsServer(): Promise<DnsTestServer> {
  const zones = new Map<string, Zone>();
  const queries = new Map<string, number>();

  const handler: DnsHandler = (request, send) => {
    for (const question of request.questions) {
      const name = normalizeName(question.name);
      queries.set(name, (queries.get(name) ?? 0) + 1);
    }
    void send(answer(zones, request));
  };

  const { udp, tcp, port } = await listenUdpAndTcp(handler);
  const tcpSockets = new Set<Socket>();
  let closing: Promise<void> | undefined;
  tcp.on("connection", (socket: Socket) => {
    tcpSockets.add(socket);
    socket.once("close", () => tcpSockets.delete(socket));
  });

  const zoneFor = (domain: string): ExistingZone => {
    const existing = zones.get(normalizeName(domain));
    return existing?.exists ? existing : { exists: true, mx: [], a: [], txt: [] };
  };

  return {
    host: HOST,
    port,
    address: `${HOST}:${port}`,
    queries,
    queryCount: (domain) => queries.get(normalizeName(domain)) ?? 0,
    setMx(domain, records) {
      zones.set(normalizeName(domain), { ...zoneFor(domain), mx: records.map((r) => ({ ...r })) });
    },
    setA(domain, addresses) {
      zones.set(normalizeName(domain), { ...zoneFor(domain), a: [...addresses] });
    },
    setTxt(domain, records) {
      zones.set(normalizeName(domain), { ...zoneFor(domain), txt: records.map(characterStrings) });
    },
    setNoMx(domain) {
      zones.set(normalizeName(domain), { ...zoneFor(domain), mx: [] });
    },
    setNxDomain(domain) {
      zones.set(normalizeName(domain), { exists: false });
    },
    setServFail(domain) {
      zones.set(normalizeName(domain), { exists: false, servfail: true });
    },
    clear() {
      zones.clear();
      queries.clear();
    },
    close() {
      closing ??= (async () => {
        const closed = Promise.all([once(udp, "close"), once(tcp, "close")]);
        udp.close();
        tcp.close();
        // TCP clients may keep idle connections open; close() would wait for them.
        for (const socket of tcpSockets) socket.destroy();
        await closed;
      })();
      return closing;
    },
  };
}
