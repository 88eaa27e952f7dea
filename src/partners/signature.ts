import { createHash, createHmac } from 'node:crypto';
import { SignatureScheme } from './partners';

export function md5Hex(text: string): string {
  return createHash('md5').update(text).digest('hex');
}

/** CONTRACT §1.5: md5(api_key + secret + timestamp), or HMAC-SHA256(secret, api_key + timestamp); lowercase hex. */
export function signatureFor(scheme: SignatureScheme, apiKey: string, secret: string, timestamp: string): string {
  switch (scheme) {
    case 'md5':
      return md5Hex(apiKey + secret + timestamp);
    case 'hmac-sha256':
      return createHmac('sha256', secret).update(apiKey + timestamp).digest('hex');
    default: {
      const never: never = scheme;
      throw new Error(`unknown signature scheme ${String(never)}`);
    }
  }
}
