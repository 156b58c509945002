import assert from "node:assert/strict";
import { test } from "node:test";
import { EgressGuard, EgressRefusedError, isPrivateAddress, isPrivateHostname, type ResolveHost } from "../src/egress-guard.js";

test("IPv4 private, loopback, link-local, CGNAT, unspecified, multicast and reserved ranges are private", () => {
  const cases: Array<[string, string]> = [
    ["0.0.0.0", "unspecified"],
    ["0.255.255.255", "0/8"],
    ["10.0.0.1", "10/8"],
    ["10.255.255.255", "10/8 top"],
    ["100.64.0.1", "100.64/10"],
    ["100.127.255.255", "100.64/10 top"],
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "127/8 top"],
    ["169.254.169.254", "link-local (metadata)"],
    ["172.16.0.1", "172.16/12"],
    ["172.31.255.255", "172.16/12 top"],
    ["192.168.0.1", "192.168/16"],
    ["192.168.255.255", "192.168/16 top"],
    ["192.0.0.8", "IETF assignments"],
    ["192.0.2.1", "TEST-NET-1"],
    ["198.18.0.1", "benchmarking"],
    ["198.51.100.7", "TEST-NET-2"],
    ["203.0.113.9", "TEST-NET-3"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast top"],
    ["240.0.0.1", "reserved"],
    ["255.255.255.255", "broadcast"],
  ];
  for (const [ip, why] of cases) assert.equal(isPrivateAddress(ip), true, `${ip} (${why})`);
});

test("public IPv4 addresses, including the neighbours of private ranges, are allowed", () => {
  for (const ip of [
    "1.1.1.1",
    "8.8.8.8",
    "93.184.216.34",
    "9.255.255.255",
    "11.0.0.0",
    "100.63.255.255",
    "100.128.0.0",
    "126.255.255.255",
    "128.0.0.1",
    "169.253.255.255",
    "169.255.0.0",
    "172.15.255.255",
    "172.32.0.0",
    "192.167.255.255",
    "192.169.0.0",
    "198.17.255.255",
    "198.20.0.0",
    "223.255.255.255",
  ]) {
    assert.equal(isPrivateAddress(ip), false, ip);
  }
});

test("IPv6 loopback, unspecified, unique-local, link-local, site-local, multicast and documentation are private", () => {
  const cases = [
    "::1",
    "::",
    "0:0:0:0:0:0:0:1",
    "fc00::1",
    "fd12:3456:789a::1",
    "fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
    "fe80::1",
    "febf::1",
    "fec0::1",
    "ff02::1",
    "ff0e::101",
    "100::1",
    "2001:db8::1",
    "3fff::1",
    "64:ff9b:1::1",
  ];
  for (const ip of cases) assert.equal(isPrivateAddress(ip), true, ip);
});

test("IPv6 forms that embed a private IPv4 address are private; with a public one they are allowed", () => {
  for (const ip of [
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::FFFF:10.1.2.3",
    "::ffff:169.254.169.254",
    "::ffff:0:192.168.1.1",
    "::127.0.0.1",
    "64:ff9b::10.0.0.1",
    "64:ff9b::a9fe:a9fe",
    "2002:7f00:1::1",
    "2002:c0a8:101::",
  ]) {
    assert.equal(isPrivateAddress(ip), true, ip);
  }
  for (const ip of ["::ffff:8.8.8.8", "::ffff:808:808", "64:ff9b::1.1.1.1", "2002:808:808::1"]) {
    assert.equal(isPrivateAddress(ip), false, ip);
  }
});

test("public IPv6 addresses are allowed", () => {
  for (const ip of ["2606:4700:4700::1111", "2001:4860:4860::8888", "2a00:1450:4001:82b::200e", "2001:db9::1", "2400:cb00::1"]) {
    assert.equal(isPrivateAddress(ip), false, ip);
  }
});

test("brackets and zone ids are accepted; anything that is not an address fails closed", () => {
  assert.equal(isPrivateAddress("[::1]"), true);
  assert.equal(isPrivateAddress("fe80::1%eth0"), true);
  assert.equal(isPrivateAddress("[2606:4700:4700::1111]"), false);
  for (const junk of ["", "localhost", "example.com", "1.2.3", "256.1.1.1", "01.2.3.4", "1::2::3", "::ffff:1.2.3.999"]) {
    assert.equal(isPrivateAddress(junk), true, JSON.stringify(junk));
  }
});

test("private host names: localhost, *.localhost, *.local, *.internal, single labels; public names pass", () => {
  for (const name of ["localhost", "LOCALHOST", "localhost.", "api.localhost", "printer.local", "metadata.google.internal", "db.localdomain", "nas.home.arpa", "redis", "host.docker.internal", ""]) {
    assert.equal(isPrivateHostname(name), true, JSON.stringify(name));
  }
  for (const name of ["example.com", "hooks.example.com.", "localhost.example.com", "internal.example.com", "local.dev"]) {
    assert.equal(isPrivateHostname(name), false, name);
  }
});

test("IETF protocol assignments (Teredo, ORCHID) and the 6to4 relay anycast are refused", () => {
  for (const ip of ["2001::1", "2001:0:4136:e378:8000:63bf:3fff:fdd2", "2001:10::1", "2001:1ff::1", "192.88.99.1", "::ffff:192.88.99.1"]) {
    assert.equal(isPrivateAddress(ip), true, ip);
  }
  assert.equal(isPrivateAddress("2001:200::1"), false, "2001:200::/23 is the first public block after the assignments");
});

/** A resolver that answers from a table, counting questions. */
function tableResolver(table: Record<string, Array<{ address: string; family: 4 | 6 }>>): ResolveHost & { asked: string[] } {
  const asked: string[] = [];
  const resolve = async (hostname: string) => {
    asked.push(hostname);
    const answer = table[hostname];
    if (!answer) throw Object.assign(new Error(`queryA ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return answer;
  };
  return Object.assign(resolve, { asked });
}

async function refusal(guard: EgressGuard, host: string): Promise<string> {
  const err = await guard.resolve(host).then(
    () => assert.fail(`${host} should be refused`),
    (e: unknown) => e,
  );
  assert.ok(err instanceof EgressRefusedError, `${host}: ${String(err)}`);
  return err.reason;
}

test("the guard hands back the checked address of a public name, and caches it", async () => {
  const resolver = tableResolver({ "smtp.example.com": [{ address: "93.184.216.34", family: 4 }] });
  const guard = new EgressGuard({ allowPrivate: false }, resolver);
  assert.deepEqual(await guard.resolve("SMTP.example.com."), { hostname: "smtp.example.com", address: "93.184.216.34", family: 4 });
  await guard.resolve("smtp.example.com");
  assert.equal(resolver.asked.length, 1);
});

test("literal addresses are checked without DNS; public ones pass as they are", async () => {
  const resolver = tableResolver({});
  const guard = new EgressGuard({ allowPrivate: false }, resolver);
  for (const host of ["127.0.0.1", "10.0.0.5", "169.254.169.254", "[::1]", "::ffff:10.0.0.1", "fd00:ec2::254", "100.100.100.200", "0.0.0.0"]) {
    assert.match(await refusal(guard, host), /must be a public host/, host);
  }
  assert.deepEqual(await guard.resolve("8.8.8.8"), { hostname: "8.8.8.8", address: "8.8.8.8", family: 4 });
  assert.deepEqual(await guard.resolve("[2606:4700:4700::1111]"), { hostname: "2606:4700:4700::1111", address: "2606:4700:4700::1111", family: 6 });
  assert.equal(resolver.asked.length, 0);
});

test("internal names are refused without DNS; names resolving to an internal address are refused", async () => {
  const resolver = tableResolver({
    "rebind.example.com": [{ address: "10.0.0.5", family: 4 }],
    "meta.example.com": [{ address: "169.254.169.254", family: 4 }],
    "mixed.example.com": [
      { address: "93.184.216.34", family: 4 },
      { address: "::1", family: 6 },
    ],
    "mapped.example.com": [{ address: "::ffff:127.0.0.1", family: 6 }],
    "ula.example.com": [{ address: "fd12::1", family: 6 }],
  });
  const guard = new EgressGuard({ allowPrivate: false }, resolver);
  for (const host of ["localhost", "postgres", "redis", "metadata.google.internal", "api.localhost", "printer.local"]) {
    assert.match(await refusal(guard, host), /must be a public host/, host);
  }
  assert.equal(resolver.asked.length, 0);
  // "mixed": one internal answer refuses the whole name; the address found is kept for logs, never in the message
  for (const [host, address] of [
    ["rebind.example.com", "10.0.0.5"],
    ["meta.example.com", "169.254.169.254"],
    ["mixed.example.com", "::1"],
    ["mapped.example.com", "::ffff:127.0.0.1"],
    ["ula.example.com", "fd12::1"],
  ] as const) {
    const err = await guard.resolve(host).then(
      () => assert.fail(`${host} should be refused`),
      (e: unknown) => e as EgressRefusedError,
    );
    assert.equal(err.message, `${host} must be a public host: it resolves to a private or reserved address`);
    assert.equal(err.address, address);
  }
  assert.match(await refusal(guard, "nowhere.example.com"), /does not resolve \(ENOTFOUND\)/);
});

test("allowPrivate lets internal hosts through, still resolving names to the address dialled", async () => {
  const guard = new EgressGuard({ allowPrivate: true }, tableResolver({ "mail.test.example": [{ address: "127.0.0.1", family: 4 }] }));
  assert.deepEqual(await guard.resolve("127.0.0.1"), { hostname: "127.0.0.1", address: "127.0.0.1", family: 4 });
  assert.deepEqual(await guard.resolve("mail.test.example"), { hostname: "mail.test.example", address: "127.0.0.1", family: 4 });
  assert.equal(guard.refusalOf("localhost"), null);
});

test("lookup() serves net/http clients with the checked address only", async () => {
  const guard = new EgressGuard({ allowPrivate: false }, tableResolver({ "hooks.example.com": [{ address: "93.184.216.34", family: 4 }], "bad.example.com": [{ address: "192.168.1.1", family: 4 }] }));
  const one = await new Promise<[unknown, unknown, unknown]>((resolve) => guard.lookup("hooks.example.com", {}, (err, address, family) => resolve([err, address, family])));
  assert.deepEqual(one, [null, "93.184.216.34", 4]);
  const all = await new Promise<[unknown, unknown]>((resolve) => guard.lookup("hooks.example.com", { all: true }, (err, address) => resolve([err, address])));
  assert.deepEqual(all, [null, [{ address: "93.184.216.34", family: 4 }]]);
  const refused = await new Promise<NodeJS.ErrnoException | null>((resolve) => guard.lookup("bad.example.com", {}, (err) => resolve(err)));
  assert.equal(refused?.code, "EGRESS_REFUSED");
});

test("cloud metadata and platform endpoints are refused: Azure's 168.63.129.16 (a public address), and the others", async () => {
  const metadata = [
    "168.63.129.16", // Azure WireServer / platform DNS
    "169.254.169.254", // AWS, GCP, Azure IMDS, Oracle, DigitalOcean, OpenStack
    "169.254.170.2", // AWS ECS task metadata
    "169.254.0.23", // Tencent Cloud
    "100.100.100.200", // Alibaba Cloud
    "192.0.0.192", // Oracle Cloud
    "fd00:ec2::254", // AWS IMDS over IPv6
    "fd20:ce::254", // GCP metadata over IPv6
  ];
  for (const ip of metadata) assert.equal(isPrivateAddress(ip), true, ip);
  // the same addresses inside IPv6 forms that embed an IPv4 address
  for (const ip of ["::ffff:168.63.129.16", "::ffff:a83f:8110", "64:ff9b::a83f:8110", "2002:a83f:8110::1"]) assert.equal(isPrivateAddress(ip), true, ip);
  // its neighbours stay public
  for (const ip of ["168.63.129.15", "168.63.129.17"]) assert.equal(isPrivateAddress(ip), false, ip);

  const guard = new EgressGuard({ allowPrivate: false }, tableResolver({ "wire.example.com": [{ address: "168.63.129.16", family: 4 }] }));
  assert.match(await refusal(guard, "168.63.129.16"), /must be a public host/);
  assert.match(await refusal(guard, "wire.example.com"), /must be a public host/);
});
