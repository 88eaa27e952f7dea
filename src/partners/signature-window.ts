import { md5Hex } from './signature';

/**
 * The MD5 signatures a partner could have made with every whole-second timestamp inside
 * the skew window, so a request that omits `timestamp` costs one map lookup, not a scan.
 * The window slides with the clock: each elapsed second costs one hash, whatever the
 * request rate (a ticker keeps it current; a request after a long idle gap rebuilds it once).
 */
export class SignatureWindow {
  private readonly byTimestamp: (string | undefined)[];
  private readonly bySig = new Map<string, number>();
  private hi = Number.NEGATIVE_INFINITY;

  constructor(private readonly prefix: string, private readonly skewS: number) {
    this.byTimestamp = new Array<string | undefined>(2 * skewS + 1);
  }

  /** Moves the window to [nowS - skew, nowS + skew]. */
  advanceTo(nowS: number): void {
    const targetHi = nowS + this.skewS;
    if (targetHi <= this.hi) return;
    const size = this.byTimestamp.length;
    const from = Math.max(this.hi + 1, targetHi - size + 1);
    for (let t = from; t <= targetHi; t++) {
      const slot = t % size;
      const old = this.byTimestamp[slot];
      if (old !== undefined) this.bySig.delete(old);
      const sig = md5Hex(this.prefix + t);
      this.byTimestamp[slot] = sig;
      this.bySig.set(sig, t);
    }
    this.hi = targetHi;
  }

  /** The timestamp a lowercase signature was made with, if it lies in the window at nowS. */
  timestampOf(sig: string, nowS: number): number | undefined {
    this.advanceTo(nowS);
    const t = this.bySig.get(sig);
    if (t === undefined || Math.abs(t - nowS) > this.skewS) return undefined;
    return t;
  }
}
