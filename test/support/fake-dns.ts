import dgram from 'node:dgram';

export interface FakeDns {
  /** As SINK_DNS_SERVERS takes it: 127.0.0.1:<port>. */
  server: string;
  /** Names asked, in arrival order. */
  queries: string[];
  close(): Promise<void>;
}

function qname(msg: Buffer): { name: string; end: number } {
  const labels: string[] = [];
  let i = 12;
  while (i < msg.length && msg[i] !== 0) {
    labels.push(msg.subarray(i + 1, i + 1 + msg[i]).toString('latin1'));
    i += 1 + msg[i];
  }
  return { name: labels.join('.').toLowerCase(), end: i + 5 };
}

/**
 * A DNS server on 127.0.0.1 (UDP): answers A queries for the names in `a`, NXDOMAIN for any
 * other name, an empty NOERROR for AAAA of a known name; `silent` reads every query and never
 * answers (a partner's DNS that hangs).
 */
export async function startFakeDns(opts: { a?: Record<string, string>; silent?: boolean } = {}): Promise<FakeDns> {
  const socket = dgram.createSocket('udp4');
  const queries: string[] = [];
  socket.on('message', (msg, rinfo) => {
    if (msg.length < 17) return;
    const { name, end } = qname(msg);
    queries.push(name);
    if (opts.silent) return;
    const qtype = msg.readUInt16BE(end - 4);
    const address = opts.a?.[name];
    const header = Buffer.from(msg.subarray(0, 12));
    header.writeUInt16BE(0x8180 | (address === undefined ? 3 : 0), 2); // response, RD, RA; rcode NXDOMAIN or NOERROR
    const answer = address !== undefined && qtype === 1;
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answer ? 1 : 0, 6);
    header.writeUInt32BE(0, 8);
    const parts = [header, msg.subarray(12, end)];
    if (answer) {
      const rr = Buffer.alloc(16);
      rr.writeUInt16BE(0xc00c, 0); // the question's name
      rr.writeUInt16BE(1, 2);
      rr.writeUInt16BE(1, 4);
      rr.writeUInt32BE(60, 6);
      rr.writeUInt16BE(4, 10);
      address.split('.').forEach((o, i) => rr.writeUInt8(Number(o), 12 + i));
      parts.push(rr);
    }
    socket.send(Buffer.concat(parts), rinfo.port, rinfo.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
  return {
    server: `127.0.0.1:${(socket.address()).port}`,
    queries,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}
