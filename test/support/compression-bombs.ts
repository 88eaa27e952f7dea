import { brotliCompressSync, constants, createDeflate, createGzip } from 'node:zlib';
import { Transform } from 'node:stream';

/**
 * Compression bombs for the upstream-reply tests (CONTRACT §3): one JSON object that every
 * upstream parser would accept as a record (HLR status, SIM lastSimSwapAt, an identity's
 * givenName, no msisdn) padded with spaces to BOMB_BYTES once inflated.
 */
export const BOMB_BYTES = 200 * 1024 * 1024;
export const BOMB_HEAD = '{"status":"active","paymentType":"prepaid","lastSimSwapAt":null,"givenName":"Amani","pad":"';
const BOMB_TAIL = '"}';

/** The 200 MB object, brotli at quality 11 (252 bytes); precomputed: it takes seconds to compress. */
const BR_BOMB = 'z///fxCsjrcheEdQMePUUZ66so1uL0GC4IpFp0WmgtJmWNpdi5C5wQEnHLA3ysMudDmpXU8WX/9sM1kRtW4qmVb+QB8ueOIlhbWUeEt7gRkc5TzxLNGD73X/rxD////hlwCIwwIA3ft//v//wy8BEIdFALr3//z//4dfAiAOCwB07//5//8PvwRAHBYA6N7/8///H34JgDgsANC9/+f//z/8EgBxWACge//P//9/+CUA4rAAQPf+n/////BLAMRhAYDu/T/////hlwCIwwIA3ft//v//wy8BEIcFALr3//z//4dfAiAOCwB07//z//8Pv5RIX0lyWAAQ9/6P';

export type BombEncoding = 'br' | 'gzip' | 'deflate';

/** Streams the padded object through a compressor 1 MiB at a time (never 200 MB in memory). */
async function compressStreaming(compressor: Transform): Promise<Buffer> {
  const out: Buffer[] = [];
  compressor.on('data', (c: Buffer) => out.push(c));
  const done = new Promise<void>((resolve, reject) => { compressor.once('end', resolve); compressor.once('error', reject); });
  const chunk = Buffer.alloc(1024 * 1024, 0x20);
  const write = (b: Buffer) => new Promise<void>((resolve) => { if (compressor.write(b)) resolve(); else compressor.once('drain', resolve); });
  await write(Buffer.from(BOMB_HEAD));
  let left = BOMB_BYTES - BOMB_HEAD.length - BOMB_TAIL.length;
  while (left > 0) {
    const n = Math.min(left, chunk.length);
    await write(n === chunk.length ? chunk : chunk.subarray(0, n));
    left -= n;
  }
  compressor.end(Buffer.from(BOMB_TAIL));
  await done;
  return Buffer.concat(out);
}

/** Each encoding's bomb: the brotli one as sent by the red team, gzip and deflate at level 9 (about 200 KB each). */
export async function compressionBombs(): Promise<Record<BombEncoding, Buffer>> {
  const level = { level: constants.Z_BEST_COMPRESSION };
  const [gzip, deflate] = await Promise.all([compressStreaming(createGzip(level)), compressStreaming(createDeflate(level))]);
  return { br: Buffer.from(BR_BOMB, 'base64'), gzip, deflate };
}

/** A small body, compressed as a well-behaved upstream would: the positive control. */
export function brotli(body: string): Buffer {
  return brotliCompressSync(Buffer.from(body));
}
