import { describe, expect, it } from 'vitest';
import { badLines } from './control-text.js';

describe('badLines', () => {
  it("splits a refusal into its summary and each bad line, leaving a line's own words whole", () => {
    expect(
      badLines('The mapping file has bad lines: line 3: the framework must be 1 to 40 letters; line 6: control EXAMPLE 9.9 is given on line 2 too'),
    ).toEqual(['The mapping file has bad lines', 'line 3: the framework must be 1 to 40 letters', 'line 6: control EXAMPLE 9.9 is given on line 2 too']);
  });

  it('keeps a problem without lines as it is', () => {
    expect(badLines('The file has no controls')).toEqual(['The file has no controls']);
  });
});
