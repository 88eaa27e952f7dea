import { formatCsv } from '../../src/cli/table';

/* csv-stringify's escape_formulas, as the CLI uses it: a spreadsheet shows such a cell as text. */

describe('the CLI CSV', () => {
  test.each(['=1+2', '+1', '-1', '@SUM(A1)', '\uff1d1', '\uff0b1', '\uff0d1'])('when a cell starts with %s, then it is prefixed with a quote', (cell) => {
    const [, row] = formatCsv(['h'], [[cell]]).split('\n');
    expect(row.replace(/^"|"$/g, '')).toBe(`'${cell}`);
  });

  test('when a cell holds a tab or carriage return first, then it is made printable before any formula check', () => {
    expect(formatCsv(['h'], [['\t=1'], ['\r=1']]).split('\n').slice(1)).toEqual(['\\t=1', '\\r=1']);
  });

  test('when a cell is ordinary, then it is written as is', () => {
    expect(formatCsv(['a', 'b'], [['x', '1,5']])).toBe('a,b\nx,"1,5"');
  });
});
