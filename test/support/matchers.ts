/**
 * jest's asymmetric matchers as the opaque values they are. @types/jest declares them `any`,
 * which makes every object literal that holds one an unsafe assignment under the type-aware lint.
 */
export function stringMatching(pattern: string | RegExp): unknown {
  return expect.stringMatching(pattern);
}

export function objectContaining(sample: object): unknown {
  return expect.objectContaining(sample);
}

export function instanceOf(type: abstract new (...args: never[]) => unknown): unknown {
  return expect.any(type);
}
