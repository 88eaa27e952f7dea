import { createMsisdnNormaliser, maskMsisdn } from '../../src/kernel/msisdn';

describe('msisdn normalisation (CONTRACT §1.4)', () => {
  const normalise = createMsisdnNormaliser({ countryCode: '255', nsnLength: 9 });

  it.each(['255712345678', '+255712345678', '00255712345678', '0712345678', '712345678'])('when the input is %s, then it becomes 255712345678', (raw) => {
    expect(normalise(raw)).toBe('255712345678');
  });

  it.each(['', ' 255712345678', '25571234567', '2557123456789', '+0712345678', '0012345678', '071234567', '25571234567a',
    '254712345678', '+255 712345678', '٢٥٥٧١٢٣٤٥٦٧٨', '0000000000', 'x'.repeat(10_000)])('refuses %p', (raw) => {
    expect(normalise(raw)).toBeNull();
  });

  it('when a numbering plan is configured, then normalisation follows it', () => {
    const ke = createMsisdnNormaliser({ countryCode: '1', nsnLength: 10 });
    expect(ke('+12025550123')).toBe('12025550123');
    expect(ke('02025550123')).toBe('12025550123');
    expect(ke('2025550123')).toBe('12025550123');
  });

  it('when an msisdn is masked, then all but the country prefix and the last three digits are hidden', () => {
    expect(maskMsisdn('255712345678')).toBe('2557*****678');
  });
});
