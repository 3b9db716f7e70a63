// Pins placed among organic hits as v1.50's `merge_positioned_hits_into_page` places them (search/pins.ts).
import { describe, expect, it } from 'vitest';
import { placePins } from '../../../src/search/pins.js';

const place = (pins: [string, number][], organic: string[], take: number) =>
  placePins(pins, organic, take, ([, position]) => position, ([id]) => id);

describe('placePins', () => {
  it('puts each pin at its position and the organic hits around it', () => {
    expect(place([['p', 1]], ['a', 'b', 'c'], 10)).toEqual(['a', 'p', 'b', 'c']);
  });

  it('pumps pins forward when the organic hits run out', () => {
    expect(place([['p', 10], ['q', 20]], ['a', 'b'], 10)).toEqual(['a', 'b', 'p', 'q']);
  });

  it('places pins in the order given: a later position listed first holds the next back', () => {
    expect(place([['p', 2], ['q', 0]], ['a', 'b', 'c'], 10)).toEqual(['a', 'b', 'p', 'q', 'c']);
  });

  it('stops at take', () => {
    expect(place([['p', 0]], ['a', 'b', 'c'], 2)).toEqual(['p', 'a']);
  });
});
